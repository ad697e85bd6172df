/**
 * Run by no-code-generation.test.ts under `node --disallow-code-generation-from-strings`: loads the whole library,
 * then encodes and decodes every message of every API at every version through the codecs the library uses, and
 * checks the flag is in force (the run-time compiler must fail). Prints one JSON line with what it did.
 */
import { Reader } from '../../../codecs/reader.js';
import { Writer } from '../../../codecs/writer.js';
import { requestCodec, responseCodec } from '../../../protocol/codec.js';
import { compileDecoder } from '../../../protocol/compile.js';
import { versionsOf } from '../../../protocol/generate/emit.js';
import { API_DEFINITIONS } from '../../../protocol/index.js';
import * as library from '../../../src/index.js';
import { defaultMessage, randomMessage } from '../../conformance/generate.js';
import { Rng } from '../../conformance/random.js';

let messages = 0;
for (const api of API_DEFINITIONS) {
  for (const version of versionsOf(api.request)) {
    for (const [def, codec] of [
      [api.request, requestCodec(api, version)],
      [api.response, responseCodec(api, version)],
    ] as const) {
      for (const value of [defaultMessage(def, version), randomMessage(def, version, new Rng(version + 1))]) {
        const w = new Writer();
        codec.encode(w, value as never);
        const r = new Reader(w.toBuffer());
        codec.decode(r);
        if (r.remaining !== 0) throw new Error(`${def.name} v${version}: ${r.remaining} bytes left over`);
        messages++;
      }
    }
  }
}
let compiler = 'ran';
try {
  compileDecoder(API_DEFINITIONS[0].request, 3);
} catch (e) {
  compiler = (e as Error).name;
}
console.log(JSON.stringify({ exports: Object.keys(library).length, messages, compiler }));
