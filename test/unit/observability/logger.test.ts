/** The one client logger: options checked (typed ConfigError), levels, JSON and text lines, a throwing logger. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client } from '../../../src/client.js';
import { guardedLogger, jsonLine, type LogFields, textLine } from '../../../src/observability/logger.js';
import { ConfigError } from '../../../src/options/config-error.js';

afterEach(() => vi.restoreAllMocks());

describe('client logger options', () => {
  it('an unknown log level is a ConfigError naming logLevel', () => {
    const make = () => new Client({ bootstrap: '127.0.0.1:9', logLevel: 'verbose' as never });
    expect(make).toThrow(ConfigError);
    expect(make).toThrow(
      /invalid option logLevel: unknown log level verbose; expected debug, info, warn, error, silent/,
    );
  });

  it('a logger that is neither a function nor json/text is a ConfigError naming logger', () => {
    const make = () => new Client({ bootstrap: '127.0.0.1:9', logger: 'xml' as never });
    expect(make).toThrow(ConfigError);
    expect(make).toThrow(/invalid option logger/);
  });

  it('accepts json, text, a function and every level', () => {
    for (const logLevel of ['debug', 'info', 'warn', 'error', 'silent'] as const) {
      for (const logger of ['json', 'text', () => {}] as const) {
        expect(() => new Client({ bootstrap: '127.0.0.1:9', logger, logLevel })).not.toThrow();
      }
    }
  });
});

describe('guardedLogger', () => {
  it('drops events below the level and gives each event its level', () => {
    const seen: [string, LogFields][] = [];
    const log = guardedLogger((e, f) => seen.push([e, f]), 'info');
    log?.('sasl.start', { broker: 'b:1' });
    log?.('tls.connected', { broker: 'b:1' });
    log?.('consumer:truncation', { topic: 't' });
    log?.('custom', { level: 'debug' });
    log?.('custom', { level: 'error' });
    expect(seen).toEqual([
      ['tls.connected', { broker: 'b:1', level: 'info' }],
      ['consumer:truncation', { topic: 't', level: 'warn' }],
      ['custom', { level: 'error' }],
    ]);
  });

  it('silent and an absent output log nothing', () => {
    expect(guardedLogger(() => {}, 'silent')).toBeUndefined();
    expect(guardedLogger(undefined, 'debug')).toBeUndefined();
  });

  it('writes one JSON object per line, bigints as strings and errors by name and message', () => {
    const lines: string[] = [];
    const log = guardedLogger('json', 'debug', (l) => lines.push(l));
    log?.('consumer:offset-reset', { offset: 42n, error: new RangeError('out'), message: 'moved' });
    expect(lines).toHaveLength(1);
    expect(lines[0].endsWith('\n')).toBe(true);
    const parsed = JSON.parse(lines[0]);
    expect(parsed).toMatchObject({
      level: 'warn',
      event: 'consumer:offset-reset',
      offset: '42',
      error: { name: 'RangeError', message: 'out' },
      message: 'moved',
    });
    expect(Number.isNaN(Date.parse(parsed.time))).toBe(false);
    expect(jsonLine('x', { level: 'info' })).toMatch(/^\{"time":"[^"]+","level":"info","event":"x"\}\n$/);
  });

  it('writes text lines with the level, event, message and fields', () => {
    expect(textLine('tls.failed', { level: 'warn', message: 'no', broker: 'h:1', n: 3n })).toMatch(
      /^\S+ WARN tls\.failed no broker="h:1" n="3"\n$/,
    );
  });

  it('a logger that throws is caught and reported once', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const log = guardedLogger(() => {
      throw new Error('disk full');
    }, 'debug');
    expect(() => {
      log?.('tls.connected', {});
      log?.('tls.connected', {});
      log?.('sasl.start', {});
    }).not.toThrow();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(/tidemark logger threw .*Error: disk full/);
  });
});
