/** kafkajs's enums and its logger: `logLevel`, `CompressionTypes`, `CompressionCodecs`, and `logCreator` support. */

export enum logLevel {
  NOTHING = 0,
  ERROR = 1,
  WARN = 2,
  INFO = 4,
  DEBUG = 5,
}

export enum CompressionTypes {
  None = 0,
  GZIP = 1,
  Snappy = 2,
  LZ4 = 3,
  ZSTD = 4,
}

/** The core's codec name for a kafkajs compression type. */
export const CODEC_NAMES = ['none', 'gzip', 'snappy', 'lz4', 'zstd'] as const;

/**
 * kafkajs's plugin registry. Registering a plugin is accepted (programs do it at start-up) but the core's
 * built-in codecs do the work: every codec is built in.
 */
export const CompressionCodecs: Record<number, () => unknown> = {};

export interface LogEntry {
  namespace: string;
  level: logLevel;
  label: string;
  log: { timestamp: string; logger: string; message: string; [key: string]: unknown };
}

export type logCreator = (level: logLevel) => (entry: LogEntry) => void;

export interface Logger {
  info(message: string, extra?: object): void;
  error(message: string, extra?: object): void;
  warn(message: string, extra?: object): void;
  debug(message: string, extra?: object): void;
  namespace(namespace: string, level?: logLevel): Logger;
  setLogLevel(level: logLevel): void;
}

const LEVEL_NAMES: Record<string, logLevel> = {
  NOTHING: logLevel.NOTHING,
  ERROR: logLevel.ERROR,
  WARN: logLevel.WARN,
  INFO: logLevel.INFO,
  DEBUG: logLevel.DEBUG,
};

const envLevel = (level: logLevel): logLevel =>
  LEVEL_NAMES[(process.env.KAFKAJS_LOG_LEVEL ?? '').toUpperCase()] ?? level;

/** kafkajs's default: JSON lines on the console. */
export const defaultLogCreator: logCreator = () => (entry) => {
  const line = JSON.stringify({ level: entry.label, ...entry.log });
  if (entry.level === logLevel.ERROR) console.error(line);
  else if (entry.level === logLevel.WARN) console.warn(line);
  else console.log(line);
};

/** A logger with kafkajs's shape and level rules (KAFKAJS_LOG_LEVEL overrides the configured level). */
export function createLogger(level: logLevel, creator: logCreator): Logger {
  let current = envLevel(level);
  const write = creator(current);
  const build = (namespace: string, own: logLevel | undefined): Logger => {
    const at =
      (label: string, lvl: logLevel) =>
      (message: string, extra: object = {}) => {
        if (lvl > (own ?? current)) return;
        write({
          namespace,
          level: lvl,
          label,
          log: { timestamp: new Date().toISOString(), logger: 'kafkajs', message, ...extra },
        });
      };
    return {
      info: at('INFO', logLevel.INFO),
      error: at('ERROR', logLevel.ERROR),
      warn: at('WARN', logLevel.WARN),
      debug: at('DEBUG', logLevel.DEBUG),
      namespace: (ns, lvl) => build(ns, lvl === undefined ? undefined : envLevel(lvl)),
      setLogLevel: (lvl) => {
        current = lvl;
      },
    };
  };
  return build('', undefined);
}

/** kafkajs's config and ACL enums: Kafka's wire codes, under kafkajs's names. */
export enum ConfigResourceTypes {
  UNKNOWN = 0,
  TOPIC = 2,
  BROKER = 4,
  BROKER_LOGGER = 8,
}

export enum ConfigSource {
  UNKNOWN = 0,
  TOPIC_CONFIG = 1,
  DYNAMIC_BROKER_CONFIG = 2,
  DYNAMIC_DEFAULT_BROKER_CONFIG = 3,
  STATIC_BROKER_CONFIG = 4,
  DEFAULT_CONFIG = 5,
  DYNAMIC_BROKER_LOGGER_CONFIG = 6,
}

export enum AclResourceTypes {
  UNKNOWN = 0,
  ANY = 1,
  TOPIC = 2,
  GROUP = 3,
  CLUSTER = 4,
  TRANSACTIONAL_ID = 5,
  DELEGATION_TOKEN = 6,
}

export enum AclOperationTypes {
  UNKNOWN = 0,
  ANY = 1,
  ALL = 2,
  READ = 3,
  WRITE = 4,
  CREATE = 5,
  DELETE = 6,
  ALTER = 7,
  DESCRIBE = 8,
  CLUSTER_ACTION = 9,
  DESCRIBE_CONFIGS = 10,
  ALTER_CONFIGS = 11,
  IDEMPOTENT_WRITE = 12,
}

export enum AclPermissionTypes {
  UNKNOWN = 0,
  ANY = 1,
  DENY = 2,
  ALLOW = 3,
}

export enum ResourcePatternTypes {
  UNKNOWN = 0,
  ANY = 1,
  MATCH = 2,
  LITERAL = 3,
  PREFIXED = 4,
}
