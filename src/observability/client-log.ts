/**
 * The client's `logger` and `logLevel` options, checked (a typed ConfigError for anything else) and turned into
 * the one guarded logger every part of the client calls. Client level: it imports the network layer's errors.
 */
import { ConfigError } from '../options/config-error.js';
import { guardedLogger, LOG_LEVELS, type Logger, type LoggerOption, type LogLevel } from './logger.js';

/** The options this module reads. */
export interface LogOptions {
  /** A function `(event, fields) => void`, or `'json'` / `'text'` for one line per event on stderr. */
  logger?: LoggerOption;
  /**
   * Events below this level are dropped. Default `debug` for a function (it filters as it likes) and `info` for
   * `'json'` and `'text'`; `silent` logs nothing.
   */
  logLevel?: LogLevel | 'silent';
}

/** Checks `logger` and `logLevel`; the guarded logger, or undefined when nothing is logged. */
export function clientLogger(options: { logger?: unknown; logLevel?: unknown }): Logger | undefined {
  const { logger, logLevel } = options;
  if (logger !== undefined && typeof logger !== 'function' && logger !== 'json' && logger !== 'text') {
    throw new ConfigError('logger', `expected a function (event, fields) => void, 'json' or 'text'`);
  }
  if (logLevel !== undefined && !LOG_LEVELS.includes(logLevel as LogLevel)) {
    throw new ConfigError('logLevel', `unknown log level ${String(logLevel)}; expected ${LOG_LEVELS.join(', ')}`);
  }
  const level = (logLevel as LogLevel | 'silent' | undefined) ?? (typeof logger === 'function' ? 'debug' : 'info');
  return guardedLogger(logger as LoggerOption | undefined, level);
}
