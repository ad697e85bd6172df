/**
 * The root of every error tidemark throws, so applications can tell the
 * client's failures from their own with one `instanceof`.
 */
export class TidemarkError extends Error {
  override name = 'TidemarkError';
  /** Whether repeating the same operation may succeed. */
  readonly retriable: boolean;

  constructor(message: string, options?: { cause?: unknown; retriable?: boolean }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.retriable = options?.retriable ?? false;
  }
}

/** Where in a message a decoding or encoding problem was found. */
export interface ProtocolErrorContext {
  /** The API name (e.g. `Metadata`) or structure (e.g. `RecordBatch`). */
  api?: string;
  version?: number;
  /** Dotted field path, e.g. `topics.partitions.records`. */
  field?: string;
  /** Byte offset in the buffer being read or written. */
  offset?: number;
}

/**
 * Bytes that do not form a valid message: truncated frames, lengths past the
 * end, negative sizes, impossible element counts. Never retriable: the same
 * bytes will fail the same way.
 */
export class ProtocolError extends TidemarkError {
  override name = 'ProtocolError';
  api: string | undefined;
  version: number | undefined;
  field: string | undefined;
  offset: number | undefined;
  /** The problem without the location, so context can be added later. */
  readonly reason: string;

  constructor(reason: string, context: ProtocolErrorContext = {}, options?: { cause?: unknown }) {
    super(ProtocolError.format(reason, context), options);
    this.reason = reason;
    this.api = context.api;
    this.version = context.version;
    this.field = context.field;
    this.offset = context.offset;
  }

  /** Fills in location details that an outer layer knows and the reader did not. */
  withContext(context: ProtocolErrorContext): this {
    this.api ??= context.api;
    this.version ??= context.version;
    this.field ??= context.field;
    this.offset ??= context.offset;
    this.message = ProtocolError.format(this.reason, this);
    return this;
  }

  private static format(reason: string, c: ProtocolErrorContext): string {
    const where: string[] = [];
    if (c.api !== undefined) where.push(c.version === undefined ? c.api : `${c.api} v${c.version}`);
    if (c.field !== undefined && c.field !== '') where.push(`field ${c.field}`);
    if (c.offset !== undefined) where.push(`byte ${c.offset}`);
    return where.length === 0 ? reason : `${reason} (${where.join(', ')})`;
  }
}
