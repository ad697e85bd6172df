import { connect } from 'node:net';
import { parseBrokerAddress } from '../cluster/address.js';
import { type BrokerAddress, ConnectionError } from '../network/errors.js';

/**
 * The command's first minute: a bootstrap address that refuses connections or does not resolve is a fact
 * the command can report at once, instead of after the call timeout under the name of whichever request
 * happened to wait. Each address gets one plain TCP connect, alongside the client's own work; only when every
 * one of them fails for such a definite reason does the command stop. A slow or silent address is left to
 * the client and its timeouts (a network may be slow without being wrong).
 */

/** Errors that say the address cannot work, however long one waits. */
const DEFINITE: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'unknown host',
  EAI_NONAME: 'unknown host',
  // No resolver answered: every connection the client tries would fail the same way.
  EAI_AGAIN: 'name resolution failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/** Resolves when some address accepts a connection or is merely slow; rejects with ConnectionError when none can. */
export async function checkBootstrap(bootstrap: string, connectTimeoutMs: number): Promise<void> {
  const addresses = bootstrap.split(',').map((s, i) => parseBrokerAddress(s.trim(), `bootstrap[${i}]`));
  const outcomes = await Promise.all(addresses.map((a) => probe(a, connectTimeoutMs)));
  if (outcomes.every((o) => o !== null)) {
    const causes = addresses.map((a, i) => `${a.host}:${a.port}: ${outcomes[i]}`);
    throw new ConnectionError(`cannot connect to any bootstrap broker (${causes.join('; ')})`, undefined, {
      retriable: false,
    });
  }
}

/** null when the address accepted a connection or did not answer in time; else why it cannot. */
function probe(address: BrokerAddress, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = connect({ host: address.host, port: address.port });
    const done = (outcome: string | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    socket.once('connect', () => done(null));
    socket.once('error', (err: NodeJS.ErrnoException) => {
      const what = err.code === undefined ? undefined : DEFINITE[err.code];
      done(what === undefined ? null : `${what} (${err.code})`);
    });
  });
}
