/**
 * The `--json` line of one fetch workload: `{"workload":…,"description":…,"clients":{name:{recordsPerSec,
 * mbPerSec,cpuSecPerMillion,peakRssMiB,node}},"unavailable":{name:why}}`. bench/run.ts prints one such
 * line per workload, all of them together at the very end of stdout (JSON Lines), so `tail -n <workloads>`
 * or the last line alone is what a script reads.
 */
import type { ClientSummary } from './report.js';

export interface ClientFigures {
  recordsPerSec: number;
  mbPerSec: number;
  cpuSecPerMillion: number;
  peakRssMiB: number;
  /** The Node version it ran on (`v24.…`), or the runtime named in full where it is not Node. */
  node: string;
  /** Group workloads: records read again after a rebalance, the most in any round. */
  reReads?: number;
}

export interface WorkloadJson {
  workload: string;
  description: string;
  clients: Record<string, ClientFigures>;
  unavailable: Record<string, string>;
}

export function workloadJson(workload: string, description: string, rows: ClientSummary[]): WorkloadJson {
  const measured = rows.filter((r) => r.note === undefined);
  const clients = Object.fromEntries(
    measured.map((r): [string, ClientFigures] => [
      r.name,
      {
        recordsPerSec: Math.round(r.recordsPerSec),
        mbPerSec: Number(r.mbPerSec.toFixed(2)),
        cpuSecPerMillion: Number(r.cpuSecPerMillion.toFixed(3)),
        peakRssMiB: Number(r.peakRssMiB.toFixed(1)),
        node: /node (v[\d.]+)/.exec(r.runtime)?.[1] ?? r.runtime,
        ...(r.reReads === undefined ? {} : { reReads: Math.max(...r.reReads) }),
      },
    ]),
  );
  const unavailable = Object.fromEntries(
    rows.filter((r) => r.note !== undefined).map((r): [string, string] => [r.name, r.note ?? '']),
  );
  return { workload, description, clients, unavailable };
}

export const workloadJsonLine = (workload: string, description: string, rows: ClientSummary[]): string =>
  JSON.stringify(workloadJson(workload, description, rows));
