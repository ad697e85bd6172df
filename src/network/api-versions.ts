import type { Reader } from '../../codecs/reader.js';
import { ApiVersions } from '../../protocol/apis/api-versions.js';
import { responseCodec } from '../../protocol/codec.js';
import { kafkaError } from '../../protocol/kafka-error.js';
import type { ApiDef, ResponseOf } from '../../protocol/schema.js';
import { parseRange } from '../../protocol/versions.js';
import { UnsupportedVersionError, type VersionSpan } from './errors.js';

export type ApiVersionsResponse = ResponseOf<typeof ApiVersions>;

const UNSUPPORTED_VERSION = 35;

/** The versions of an API that tidemark's definition covers. */
export function clientVersions(api: ApiDef): VersionSpan {
  const r = parseRange(api.request.validVersions);
  return { min: r.min, max: r.max };
}

/** What one broker said it speaks, and the version choice that follows for each API. */
export class BrokerApiVersions {
  private readonly ranges = new Map<number, VersionSpan>();
  /** The cluster features in force when the connection opened (ApiVersions v3+), by name: their finalized level. */
  readonly finalizedFeatures: ReadonlyMap<string, number>;

  constructor(
    response: ApiVersionsResponse,
    /** The ApiVersions version the broker accepted. */
    readonly negotiatedWith: number,
    private readonly brokerAddress?: string,
  ) {
    for (const k of response.apiKeys) this.ranges.set(k.apiKey, { min: k.minVersion, max: k.maxVersion });
    this.finalizedFeatures = new Map((response.finalizedFeatures ?? []).map((f) => [f.name, f.maxVersionLevel]));
  }

  /** The broker's range for an API key, or undefined when it does not offer the API. */
  range(apiKey: number): VersionSpan | undefined {
    return this.ranges.get(apiKey);
  }

  /** Whether both sides speak some version of `api`. */
  offers(api: ApiDef): boolean {
    const ours = clientVersions(api);
    const theirs = this.ranges.get(api.key);
    return theirs !== undefined && Math.min(ours.max, theirs.max) >= Math.max(ours.min, theirs.min);
  }

  /** Whether `other` lists the same APIs with the same ranges (two answers of one broker agree). */
  sameRanges(other: BrokerApiVersions): boolean {
    if (other.ranges.size !== this.ranges.size) return false;
    for (const [key, r] of this.ranges) {
      const o = other.ranges.get(key);
      if (o === undefined || o.min !== r.min || o.max !== r.max) return false;
    }
    return true;
  }

  /** The highest version both sides speak. */
  versionFor(api: ApiDef): number {
    const ours = clientVersions(api);
    const theirs = this.ranges.get(api.key);
    const max = Math.min(ours.max, theirs?.max ?? -1);
    if (theirs === undefined || max < Math.max(ours.min, theirs.min)) {
      throw new UnsupportedVersionError(api.name, api.key, ours, theirs, undefined, this.brokerAddress);
    }
    return max;
  }

  /** Throws unless both sides speak exactly `version`. */
  check(api: ApiDef, version: number): void {
    const ours = clientVersions(api);
    const theirs = this.ranges.get(api.key);
    const inOurs = version >= ours.min && version <= ours.max;
    const inTheirs = theirs !== undefined && version >= theirs.min && version <= theirs.max;
    if (!inOurs || !inTheirs) {
      throw new UnsupportedVersionError(api.name, api.key, ours, theirs, version, this.brokerAddress);
    }
  }
}

/**
 * The version a request goes out at: a forced one must lie in both ranges; otherwise the highest both speak.
 * Before negotiation (only in transport tests) the broker's range is unknown and tidemark's alone is checked.
 */
export function chooseVersion(
  api: ApiDef,
  versions: BrokerApiVersions | undefined,
  forced: number | undefined,
  brokerAddress?: string,
): number {
  if (versions !== undefined) {
    if (forced === undefined) return versions.versionFor(api);
    versions.check(api, forced);
    return forced;
  }
  const ours = clientVersions(api);
  if (forced === undefined) return ours.max;
  if (forced < ours.min || forced > ours.max) {
    throw new UnsupportedVersionError(api.name, api.key, ours, undefined, forced, brokerAddress);
  }
  return forced;
}

/**
 * Decodes an ApiVersions response sent for `version`. A broker that does not know that version answers
 * UNSUPPORTED_VERSION with a v0 body (so any client can read it), and the error code is the first field of
 * every version, so it can be read before choosing the decoder.
 */
export function apiVersionsDecoder(version: number): (r: Reader) => ApiVersionsResponse {
  return (r) => {
    const bodyVersion =
      version > 0 && r.remaining >= 2 && r.buf.readInt16BE(r.offset) === UNSUPPORTED_VERSION ? 0 : version;
    return responseCodec(ApiVersions, bodyVersion).decode(r);
  };
}

/**
 * Finds the ApiVersions version the broker accepts, starting from the highest tidemark defines: an
 * UNSUPPORTED_VERSION answer names the broker's own highest version, which is tried next; without one, v0.
 */
export async function negotiateApiVersions(
  send: (version: number) => Promise<ApiVersionsResponse>,
  brokerAddress?: string,
): Promise<BrokerApiVersions> {
  const ours = clientVersions(ApiVersions);
  let version = ours.max;
  for (;;) {
    const response = await send(version);
    if (response.errorCode === 0) return new BrokerApiVersions(response, version, brokerAddress);
    if (response.errorCode !== UNSUPPORTED_VERSION || version === ours.min) {
      throw kafkaError(response.errorCode, { context: { api: 'ApiVersions', version } });
    }
    const theirMax = response.apiKeys.find((k) => k.apiKey === ApiVersions.key)?.maxVersion;
    version = theirMax !== undefined && theirMax < version ? Math.max(theirMax, ours.min) : ours.min;
  }
}
