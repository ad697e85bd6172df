/**
 * One logger for the whole client: the security layer, consumers and the client log through it. The
 * application gives a function `(event, fields)` or asks for JSON or text lines on stderr; `logLevel` drops the
 * events below it. Every event has a level (`fields.level`): its own, or the one LOG_EVENT_LEVELS gives it.
 * A logger that throws never breaks the client (report-once.ts).
 */
import { reportHookError } from './report-once.js';

/** How serious an event is, lowest first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** The levels `logLevel` accepts: an event level, or `silent` for none. */
export const LOG_LEVELS: readonly (LogLevel | 'silent')[] = ['debug', 'info', 'warn', 'error', 'silent'];

/** What a log event carries besides its name; `level` is always set when the client calls a logger. */
export interface LogFields {
  level?: LogLevel;
  /** A readable sentence, when the event has one. */
  message?: string;
  [field: string]: unknown;
}

/** The client's logger: an event name (`tls.connected`, `consumer:offset-reset`, …) and its fields. */
export type Logger = (event: string, fields: LogFields) => void;

/** What the `logger` option takes: a function, or `'json'` / `'text'` for lines on stderr. */
export type LoggerOption = Logger | 'json' | 'text';

/** The level of every event the client logs, unless the event says otherwise (docs/observability.md). */
export const LOG_EVENT_LEVELS: Readonly<Record<string, LogLevel>> = {
  'tls.connected': 'info',
  'tls.failed': 'warn',
  'sasl.start': 'debug',
  'sasl.authenticated': 'info',
  'sasl.reauth.scheduled': 'debug',
  'sasl.reauthenticated': 'info',
  'sasl.reauth.failed': 'warn',
  'consumer:offset-reset': 'warn',
  'consumer:truncation': 'warn',
  'consumer:warning': 'warn',
  'consumer:commit-failed': 'error',
};

const RANK: Record<LogLevel | 'silent', number> = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 };

/**
 * The logger the client's parts call: drops events below `level`, sets `fields.level`, and catches what the
 * output throws (reported once). Undefined when nothing is logged.
 */
export function guardedLogger(
  output: LoggerOption | undefined,
  level: LogLevel | 'silent',
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger | undefined {
  if (output === undefined || level === 'silent') return undefined;
  const sink: Logger =
    output === 'json' ? (e, f) => write(jsonLine(e, f)) : output === 'text' ? (e, f) => write(textLine(e, f)) : output;
  const min = RANK[level];
  const logger: Logger = (event, fields) => {
    const eventLevel = fields.level ?? LOG_EVENT_LEVELS[event] ?? 'info';
    if (RANK[eventLevel] < min) return;
    try {
      sink(event, { ...fields, level: eventLevel });
    } catch (error) {
      reportHookError(sink, 'the tidemark logger', error);
    }
  };
  return logger;
}

/** One JSON object per line: time, level, event, then the fields (bigints as strings, errors by name and message). */
export function jsonLine(event: string, fields: LogFields): string {
  const { level, ...rest } = fields;
  return `${JSON.stringify({ time: new Date().toISOString(), level, event, ...rest }, jsonValue)}\n`;
}

/** `time LEVEL event message key=value …`, one line. */
export function textLine(event: string, fields: LogFields): string {
  const { level, message, ...rest } = fields;
  const pairs = Object.entries(rest).map(([k, v]) => `${k}=${JSON.stringify(v, jsonValue) ?? String(v)}`);
  const head = [new Date().toISOString(), String(level ?? 'info').toUpperCase(), event];
  if (message !== undefined) head.push(message);
  return `${[...head, ...pairs].join(' ')}\n`;
}

function jsonValue(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Error) return { name: value.name, message: value.message };
  return value;
}
