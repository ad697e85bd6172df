import type { BrokerAddress } from '../network/errors.js';
import { ConfigError } from '../options/config-error.js';

/**
 * Parses `host:port`, `[ipv6]:port`, or a bare IPv6 address followed by `:port`. `option` names the setting in
 * the error, so a typo in the third bootstrap entry says so.
 */
export function parseBrokerAddress(text: unknown, option = 'bootstrap'): BrokerAddress {
  if (typeof text !== 'string') throw new ConfigError(option, `expected "host:port", got ${typeof text}`);
  const bracketed = /^\[([^\]]+)\]:(\d+)$/.exec(text);
  const plain = /^(.+):(\d+)$/.exec(text);
  const match = bracketed ?? plain;
  if (match === null) throw new ConfigError(option, `expected "host:port", got ${JSON.stringify(text)}`);
  const host = match[1].trim();
  const port = Number(match[2]);
  if (host === '' || /\s/.test(host)) throw new ConfigError(option, `no valid host in ${JSON.stringify(text)}`);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new ConfigError(option, `port must be 1-65535 in ${JSON.stringify(text)}`);
  }
  return { host, port };
}
