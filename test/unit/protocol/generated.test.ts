import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../codecs/errors.js';
import { Reader } from '../../../codecs/reader.js';
import { Writer } from '../../../codecs/writer.js';
import { ConsumerProtocolAssignment, ConsumerProtocolSubscription } from '../../../protocol/apis/consumer-protocol.js';
import { messageCodec } from '../../../protocol/codec.js';
import { compiledCodec } from '../../../protocol/compile.js';
import { versionsOf } from '../../../protocol/generate/emit.js';
import { GENERATE_COMMAND, GENERATED_DIR, generateAll } from '../../../protocol/generate/generate.js';
import { GENERATED_CODECS } from '../../../protocol/generated/index.js';
import { RequestHeader, ResponseHeader } from '../../../protocol/headers.js';
import { API_DEFINITIONS, Fetch } from '../../../protocol/index.js';
import type { MessageDef } from '../../../protocol/schema.js';
import { defaultMessage, randomMessage } from '../../conformance/generate.js';
import { Rng, seedFor } from '../../conformance/random.js';

/**
 * The codecs the library runs are generated at build time (protocol/generated/). These tests prove the checked-in
 * files are what the definitions generate now, that they encode and decode exactly as the run-time compiler's
 * functions built from the same definitions, and that a stale or missing generation is a clear error.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const MESSAGES: MessageDef[] = [
  ...API_DEFINITIONS.flatMap((api) => [api.request, api.response]),
  RequestHeader,
  ResponseHeader,
  ConsumerProtocolSubscription,
  ConsumerProtocolAssignment,
];

function encodeWith(codec: { encode(w: Writer, v: never): void }, value: unknown): Buffer {
  const w = new Writer();
  codec.encode(w, value as never);
  return w.toBuffer();
}

describe('generated codecs', () => {
  it(`are current: the files equal what \`${GENERATE_COMMAND}\` writes now`, () => {
    const expected = generateAll();
    const onDisk = readdirSync(join(ROOT, GENERATED_DIR)).map((name) => `${GENERATED_DIR}/${name}`);
    const stale: string[] = [];
    for (const [path, text] of expected) {
      let current: string | undefined;
      try {
        current = readFileSync(join(ROOT, path), 'utf8');
      } catch {}
      if (current !== text) stale.push(current === undefined ? `${path} (missing)` : path);
    }
    for (const path of onDisk) if (!expected.has(path)) stale.push(`${path} (no definition produces it)`);
    expect(stale, `generated codecs are stale; run \`${GENERATE_COMMAND}\` and commit ${GENERATED_DIR}/`).toEqual([]);
    // Generating every module is a few hundred ms on a quiet machine; the shared one can be ten times slower.
  }, 30_000);

  it('cover every definition and every version it declares', () => {
    for (const def of MESSAGES) {
      const generated = GENERATED_CODECS[def.name];
      expect(generated, def.name).toBeDefined();
      expect(Object.keys(generated.versions).map(Number), def.name).toEqual(versionsOf(def));
    }
  });

  it.each(MESSAGES.map((def) => [def.name, def] as const))(
    'encode and decode %s exactly as the run-time compiler does, at every version',
    (_name, def) => {
      let checked = 0;
      for (const version of versionsOf(def)) {
        const generated = messageCodec(def, version);
        const compiled = compiledCodec(def, version);
        const values = [defaultMessage(def, version)];
        for (let i = 1; i <= 3; i++) {
          values.push(randomMessage(def, version, new Rng(seedFor(19, def.name, version, i))));
        }
        for (const value of values) {
          const bytes = encodeWith(generated, value);
          expect(bytes.equals(encodeWith(compiled, value)), `${def.name} v${version} encode`).toBe(true);
          expect(generated.decode(new Reader(bytes)), `${def.name} v${version} decode`).toEqual(
            compiled.decode(new Reader(bytes)),
          );
          checked++;
        }
      }
      expect(checked).toBe(versionsOf(def).length * 4);
    },
  );

  it('report bad input alike: the same typed error, naming API, version, field and offset', () => {
    const bytes = encodeWith(messageCodec(Fetch.response, 12), { responses: [{ topic: 't', partitions: [{}] }] });
    const truncated = bytes.subarray(0, bytes.length - 7);
    const errorOf = (decode: (r: Reader) => unknown) => {
      try {
        decode(new Reader(truncated));
      } catch (e) {
        return e as ProtocolError;
      }
      throw new Error('decoded a truncated response');
    };
    const generated = errorOf((r) => messageCodec(Fetch.response, 12).decode(r));
    const compiled = errorOf((r) => compiledCodec(Fetch.response, 12).decode(r));
    expect(generated).toBeInstanceOf(ProtocolError);
    expect(generated.message).toBe(compiled.message);
    expect(generated).toMatchObject({ api: 'FetchResponse', version: 12, field: compiled.field });
    expect(generated.offset).toBe(compiled.offset);
  });

  it("are made on first use: no codec function or table at a module's top level, one table per module", () => {
    // A process holds only the codecs of the APIs it speaks (bench/results/memory.md): every function sits inside the
    // module's buildCodecs factory, and reading `versions` again gives the table made the first time.
    for (const [path, text] of generateAll()) {
      if (path.endsWith('/index.ts') || path.endsWith('/types.ts')) continue;
      const start = text.indexOf('\nfunction buildCodecs(');
      const end = text.indexOf('\nconst codecs = madeOnFirstUse(buildCodecs);');
      expect(start, path).toBeGreaterThan(0);
      expect(end, path).toBeGreaterThan(start);
      const outside = [...text.matchAll(/^(?:function|const|let) (\w+)/gm)]
        .filter((m) => m.index <= start + 1 || m.index > end)
        .map((m) => m[1]);
      expect(outside, path).toEqual(['buildCodecs', 'codecs']);
    }
    expect(GENERATED_CODECS.FetchResponse.versions).toBe(GENERATED_CODECS.FetchResponse.versions);
    expect(GENERATED_CODECS.FetchRequest.versions[17].encode).toBe(GENERATED_CODECS.FetchRequest.versions[17].encode);
  });

  it('are named functions, so stack traces and coverage show which message and version ran', () => {
    const v12 = GENERATED_CODECS.FetchResponse.versions[12];
    expect(v12.decode.name).toBe('decodeFetchResponseV12');
    expect(v12.encode.name).toBe('encodeFetchResponseV12');
    let stack = '';
    try {
      v12.decode(new Reader(Buffer.from([0, 0, 0])));
    } catch (e) {
      stack = (e as Error).stack ?? '';
    }
    // The reader fails inside the generated field decoder, which the stack names.
    expect(stack).toMatch(/decodeFetchResponseV\d+Fields/);
  });

  it('refuse a definition changed since generation, with the command to run', () => {
    const [first, ...rest] = Fetch.response.fields;
    const edited: MessageDef = { ...Fetch.response, fields: [...rest, first] };
    expect(() => messageCodec(edited, 12).decode(new Reader(Buffer.alloc(0)))).toThrow(
      new RegExp(`older than its definition: run \`${GENERATE_COMMAND}\``),
    );
    const unknown: MessageDef = { ...Fetch.response, name: 'NoSuchResponse' };
    expect(() => encodeWith(messageCodec(unknown, 12), {})).toThrow(/no generated codecs for NoSuchResponse/);
    expect(() => encodeWith(messageCodec(Fetch.response, 99), {})).toThrow(/FetchResponse has no version 99/);
  });
});
