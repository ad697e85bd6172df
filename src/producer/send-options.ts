/**
 * Per-send `acks` and compression (`producer.send(record, { acks, compression })`): a send may differ from the
 * producer's defaults. Batches hold records of one setting only (the accumulator opens a new batch when the
 * setting changes, so a partition's records keep their order), and one Produce request carries batches of one
 * `acks`, the field being per request. Settings are interned, so a batch compares them by identity.
 */
import { CompressionCodec, type CompressionCodecName } from '../../codecs/compression/index.js';
import { ConfigError } from '../options/config-error.js';
import { checkOptions, type OptionRules } from '../options/rules.js';
import type { Acks, ResolvedProducerOptions } from './options.js';
import { PRODUCER_RULES } from './options.js';

/** Options of one `send()`; what is left out is the producer's. */
export interface SendOptions {
  /** This record's acknowledgement; an idempotent (or transactional) producer accepts only 'all'. */
  acks?: Acks;
  /** This record's batch compression. */
  compression?: CompressionCodecName;
}

/** The settings of a batch that differ from the producer's defaults (a batch of defaults has none). */
export interface BatchSettings {
  readonly acks: 0 | 1 | -1;
  readonly compression: number;
}

const SEND_RULES = {
  acks: PRODUCER_RULES.acks,
  compression: PRODUCER_RULES.compression,
} satisfies OptionRules<SendOptions>;

/** Turns send options into interned batch settings: undefined when they are the producer's own. */
export class SendSettings {
  private readonly interned = new Map<string, BatchSettings>();

  constructor(private readonly producer: ResolvedProducerOptions) {}

  resolve(options: SendOptions | undefined): BatchSettings | undefined {
    if (options === undefined || (options.acks === undefined && options.compression === undefined)) return undefined;
    checkOptions<SendOptions>(options, SEND_RULES, { kind: 'send', name: 'options' });
    const acks = options.acks === undefined ? this.producer.acks : options.acks === 'all' ? -1 : options.acks;
    if (acks !== -1 && this.producer.idempotent) {
      throw new ConfigError(
        'acks',
        "an idempotent producer sends with acks 'all' only (create it with idempotent: false)",
      );
    }
    const compression =
      options.compression === undefined ? this.producer.compression : CompressionCodec[options.compression];
    if (acks === this.producer.acks && compression === this.producer.compression) return undefined;
    const key = `${acks}/${compression}`;
    let settings = this.interned.get(key);
    if (settings === undefined) {
      settings = { acks, compression };
      this.interned.set(key, settings);
    }
    return settings;
  }
}
