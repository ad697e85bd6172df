/**
 * Small responses through both read paths of a Connection (src/network/response-stream.ts): the socket reading
 * into the direct reader's reused scratch, every frame copied out (the default), against 'data' chunks, a fresh
 * buffer per socket read with frames as views of it (a factory that does not pass `onread` on). The direct path
 * copies each small frame; this checks that copy does not make small responses dearer.
 *
 * A child process answers every request at once with a 16-byte ApiVersions v0 response. Two shapes: one request
 * at a time (one frame per socket read), and 200 in flight (many frames per read). Every round runs both paths,
 * in alternating order; reported: the client's CPU microseconds (user + system) per response, per round.
 *
 *   npx tsx bench/frames-small.ts [rounds]
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { ApiVersions } from '../protocol/apis/api-versions.js';
import { Connection } from '../src/network/connection.js';
import { type SocketFactory, tcpSocketFactory } from '../src/network/socket.js';

const RESPONSES = 20_000;
const IN_FLIGHT = 200;

/** The answering side: size prefix, correlation id, error code 0, one api key entry. */
function serve(): void {
  const server = createServer((socket) => {
    let pending: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      const answers: Buffer[] = [];
      while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
        const answer = Buffer.from([0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 18, 0, 0, 0, 4]);
        pending.copy(answer, 4, 8, 12);
        answers.push(answer);
        pending = pending.subarray(4 + pending.readInt32BE(0));
      }
      if (answers.length > 0) socket.write(Buffer.concat(answers));
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send?.(typeof address === 'object' && address !== null ? address.port : 0);
  });
}

const paths: Record<'direct' | 'chunks', SocketFactory | undefined> = {
  direct: undefined,
  chunks: (target) => tcpSocketFactory({ ...target, onread: undefined }),
};

async function measure(port: number, socketFactory: SocketFactory | undefined, inFlight: number): Promise<number> {
  const conn = await new Connection({ host: '127.0.0.1', port, negotiateVersions: false, socketFactory }).connect();
  const request = () => conn.request(ApiVersions, {}, { version: 0 });
  for (let i = 0; i < 500; i++) await request(); // warm-up
  const cpu0 = process.cpuUsage();
  let sent = 0;
  const worker = async () => {
    while (sent < RESPONSES) {
      sent++;
      await request();
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const cpu = process.cpuUsage(cpu0);
  await conn.close();
  return (cpu.user + cpu.system) / RESPONSES;
}

if (process.argv[2] === 'serve') {
  serve();
} else {
  const rounds = Number(process.argv[2] ?? 8);
  const child = fork(new URL(import.meta.url).pathname, ['serve'], { execArgv: ['--import', 'tsx'] });
  const port = await new Promise<number>((resolve) => child.once('message', (m) => resolve(m as number)));
  console.log(`load average ${loadavg()[0].toFixed(1)} at the start; ${RESPONSES} responses per run`);
  console.log('| round | shape | direct µs CPU/response | chunks µs CPU/response | direct / chunks |');
  console.log('| ---: | --- | ---: | ---: | ---: |');
  for (let round = 1; round <= rounds; round++) {
    for (const [shape, inFlight] of [
      ['one at a time', 1],
      [`${IN_FLIGHT} in flight`, IN_FLIGHT],
    ] as const) {
      const order = round % 2 === 0 ? (['direct', 'chunks'] as const) : (['chunks', 'direct'] as const);
      const result: Record<string, number> = {};
      for (const path of order) result[path] = await measure(port, paths[path], inFlight);
      console.log(
        `| ${round} | ${shape} | ${result.direct.toFixed(1)} | ${result.chunks.toFixed(1)} | ${(result.direct / result.chunks).toFixed(3)} |`,
      );
    }
  }
  console.log(`load average ${loadavg()[0].toFixed(1)} at the end`);
  child.kill();
}
