/** Docker engine detection without loading testcontainers (which is slow to import and chatty when it fails). */
import { existsSync } from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';

function dockerSocketCandidates(): string[] {
  const home = os.homedir();
  const uid = process.getuid?.();
  return [
    '/var/run/docker.sock',
    path.join(home, '.docker/run/docker.sock'), // Docker Desktop (macOS)
    path.join(home, '.docker/desktop/docker.sock'), // Docker Desktop (Linux)
    process.env.XDG_RUNTIME_DIR ? path.join(process.env.XDG_RUNTIME_DIR, 'docker.sock') : '', // rootless
    uid === undefined ? '' : `/run/user/${uid}/docker.sock`,
    path.join(home, '.colima/default/docker.sock'),
    path.join(home, '.rd/docker.sock'), // Rancher Desktop
  ].filter(Boolean);
}

function ping(options: http.RequestOptions, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ ...options, path: '/_ping', timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

/**
 * Whether a Docker engine answers, decided in well under 2 s: a socket file that is missing costs nothing,
 * and one that is present gets a single /_ping with a short timeout. Never runs the `docker` CLI (it can hang
 * when the CLI is installed without an engine, as on the project's CI machine).
 */
export async function dockerAvailable(timeoutMs = 1_500): Promise<boolean> {
  const dockerHost = process.env.DOCKER_HOST;
  if (dockerHost) {
    const url = new URL(dockerHost);
    if (url.protocol === 'unix:') return existsSync(url.pathname) && ping({ socketPath: url.pathname }, timeoutMs);
    if (url.protocol === 'tcp:') return ping({ host: url.hostname, port: Number(url.port || 2375) }, timeoutMs);
    return false; // npipe / ssh: not worth guessing; set KAFKA_BOOTSTRAP instead
  }
  for (const socketPath of dockerSocketCandidates()) {
    if (existsSync(socketPath) && (await ping({ socketPath }, timeoutMs))) return true;
  }
  return false;
}
