import { TidemarkError } from '../../codecs/errors.js';
import { KafkaError } from '../../protocol/kafka-error.js';
import { GroupNotEmptyError } from '../admin/group-errors.js';
import { ResourceErrors } from '../admin/resource-errors.js';
import { CallTimeoutError } from '../cluster/deadline.js';
import { ConnectionError, RequestTimeoutError } from '../network/errors.js';
import { AuthenticationError, TlsError } from '../network/security/errors.js';

/** The exit codes `tidemark` documents in `--help`. */
export const ExitCode = {
  OK: 0,
  /** Any other failure. */
  ERROR: 1,
  /** Wrong arguments: unknown command or flag, a missing or malformed value. */
  USAGE: 2,
  /** A group, topic or file that does not exist. */
  NOT_FOUND: 3,
  /** No broker answered in time (unreachable bootstrap, connect or request timeout). */
  UNREACHABLE: 4,
  /** The cluster refused the change: the group has live members, the topic already exists. */
  REFUSED: 5,
  /** The broker refused the credentials, or TLS failed (certificate, name, handshake). */
  AUTH: 6,
  /** Stopped by Ctrl-C / SIGTERM before the work was done. */
  INTERRUPTED: 130,
} as const;

export const EXIT_CODES_HELP = `Exit codes:
  0    success
  1    error
  2    usage: unknown command or flag, missing or malformed value
  3    not found: no such group, topic, user or file
  4    unreachable: no broker answered in time
  5    refused: the group has live members, the topic already exists…
  6    authentication or TLS failed
  130  interrupted (Ctrl-C)`;

/** Wrong arguments; the message says which and how to get help. */
export class UsageError extends TidemarkError {
  override name = 'UsageError';
}

/** A group, topic or file that does not exist. */
export class NotFoundError extends TidemarkError {
  override name = 'NotFoundError';
}

// RESOURCE_NOT_FOUND: a user without SCRAM credentials (tidemark users), a credential to delete that is not there.
const NOT_FOUND_CODES = new Set([
  'UNKNOWN_TOPIC_OR_PARTITION',
  'GROUP_ID_NOT_FOUND',
  'UNKNOWN_TOPIC_ID',
  'RESOURCE_NOT_FOUND',
  'TRANSACTIONAL_ID_NOT_FOUND',
]);
const REFUSED_CODES = new Set([
  'TOPIC_ALREADY_EXISTS',
  'NON_EMPTY_GROUP',
  'GROUP_SUBSCRIBED_TO_TOPIC',
  'UNKNOWN_MEMBER_ID',
  'ILLEGAL_GENERATION',
  'REBALANCE_IN_PROGRESS',
  // Admin changes the broker refused, with its reason in the message.
  'INVALID_CONFIG',
  'INVALID_PARTITIONS',
  'INVALID_REPLICA_ASSIGNMENT',
  'POLICY_VIOLATION',
  'OFFSET_OUT_OF_RANGE',
]);

/** The exit code an error ends the command with. */
export function exitCodeOf(err: unknown): number {
  if (err instanceof UsageError) return ExitCode.USAGE;
  if (err instanceof NotFoundError) return ExitCode.NOT_FOUND;
  if (err instanceof GroupNotEmptyError) return ExitCode.REFUSED;
  if (causes(err).some((e) => e instanceof AuthenticationError || e instanceof TlsError)) return ExitCode.AUTH;
  if (err instanceof ConnectionError || err instanceof CallTimeoutError || err instanceof RequestTimeoutError) {
    return ExitCode.UNREACHABLE;
  }
  if ((err as NodeJS.ErrnoException)?.code === 'ENOENT') return ExitCode.NOT_FOUND;
  // TopicErrors is a ResourceErrors: one check covers every admin call's partial failure.
  const failures: unknown[] = err instanceof ResourceErrors ? [...err.errors.values()] : [err];
  if (allKafkaErrorsIn(failures, NOT_FOUND_CODES)) return ExitCode.NOT_FOUND;
  if (allKafkaErrorsIn(failures, REFUSED_CODES)) return ExitCode.REFUSED;
  return ExitCode.ERROR;
}

/** Whether every failure is a broker's error with one of these codes (a resource's non-Kafka error is not). */
function allKafkaErrorsIn(failures: readonly unknown[], codes: ReadonlySet<string>): boolean {
  return failures.length > 0 && failures.every((e) => e instanceof KafkaError && codes.has(e.errorName));
}

/** The error, its causes, and the errors of AggregateErrors among them. */
function causes(err: unknown, depth = 0): unknown[] {
  if (err === undefined || err === null || depth > 5) return [];
  const inner = err instanceof AggregateError ? err.errors.flatMap((e) => causes(e, depth + 1)) : [];
  return [err, ...inner, ...causes((err as { cause?: unknown }).cause, depth + 1)];
}

/** The error's message without stack, newlines folded; a missing topic or group said plainly. */
function errorMessage(err: unknown): string {
  let message = err instanceof Error ? err.message : String(err);
  if (err instanceof KafkaError) {
    const { topic, groupId } = err.context;
    if (err.errorName === 'UNKNOWN_TOPIC_OR_PARTITION' && topic !== undefined && err.context.partition === undefined) {
      message = `topic ${JSON.stringify(topic)} does not exist (${err.errorName})`;
    } else if (err.errorName === 'GROUP_ID_NOT_FOUND' && groupId !== undefined) {
      message = `group ${JSON.stringify(groupId)} does not exist (${err.errorName})`;
    }
  }
  return message.replace(/\s*\n\s*/g, ' ').trim() || (err as Error)?.name || 'unknown error';
}

/** One line for stderr: the message, and the hint in parentheses. */
export function errorLine(err: unknown, hint?: string): string {
  return `tidemark: ${errorMessage(err)}${hint === undefined ? '' : ` (${hint})`}`;
}

/** What `--json` prints on stderr instead of {@link errorLine}: one JSON object on one line. */
export interface ErrorReport {
  error: {
    /** The error class, e.g. `KafkaError`, `UsageError`. */
    name: string;
    message: string;
    /** The process exit code, as in `--help`. */
    exitCode: number;
    retriable: boolean;
    /** The Kafka error name, for a broker's error code. */
    kafkaError?: string;
    hint?: string;
    /** With --debug: the stack and its causes. */
    stack?: string;
  };
}

export function errorReport(
  err: unknown,
  exitCode: number,
  extra: { hint?: string; stack?: string } = {},
): ErrorReport {
  return {
    error: {
      name: (err as Error)?.name ?? typeof err,
      message: errorMessage(err),
      exitCode,
      retriable: err instanceof TidemarkError && err.retriable,
      ...(err instanceof KafkaError ? { kafkaError: err.errorName } : {}),
      ...(extra.hint === undefined ? {} : { hint: extra.hint }),
      ...(extra.stack === undefined ? {} : { stack: extra.stack }),
    },
  };
}
