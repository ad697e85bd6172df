import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  ConsumerProtocolAssignment,
  type ConsumerProtocolAssignmentValue,
  ConsumerProtocolSubscription,
  type ConsumerProtocolSubscriptionValue,
} from '../../../protocol/apis/consumer-protocol.js';
import type { GeneratedMessageTypes } from '../../../protocol/generated/index.js';
import { RequestHeader, ResponseHeader } from '../../../protocol/headers.js';
import type * as Protocol from '../../../protocol/index.js';
import { API_DEFINITIONS } from '../../../protocol/index.js';
import type { ApiDef, Field, MessageDef, RequestOf, ResponseOf } from '../../../protocol/schema.js';

/**
 * Every protocol field carries a one-line description of its own (`doc`), which the generator writes as JSDoc on
 * the generated value types so an editor shows it on hover (issue 19, item 10). This walks every request and
 * response of every API, nested structures included, and checks that each field has one; and, at type level, that
 * every API's `RequestOf`/`ResponseOf` resolves to the generated (documented) interface rather than falling back.
 */

/** Longest description that still reads as one line on hover. */
const MAX_DOC_LENGTH = 160;

interface DocProblem {
  readonly path: string;
  readonly problem: string;
}

function isStructType(t: Field['type']): t is Extract<Field['type'], { kind: 'struct' }> {
  return typeof t === 'object' && t.kind === 'struct';
}

/** The problems of every field of a structure and the structures nested in it, named by their path. */
function docProblems(where: string, fields: readonly Field[]): DocProblem[] {
  const problems: DocProblem[] = [];
  for (const f of fields) {
    const path = `${where}.${f.name}`;
    const doc = f.doc?.trim() ?? '';
    if (doc === '') problems.push({ path, problem: 'no doc' });
    else if (doc.includes('\n')) problems.push({ path, problem: 'doc is more than one line' });
    else if (doc.length > MAX_DOC_LENGTH) problems.push({ path, problem: `doc is ${doc.length} characters` });
    else if (doc.replace(/[^a-z0-9]/gi, '').toLowerCase() === f.name.toLowerCase())
      problems.push({ path, problem: 'doc only repeats the field name' });
    let t = f.type;
    while (typeof t === 'object' && t.kind === 'array') t = t.of;
    if (isStructType(t)) problems.push(...docProblems(path, t.fields));
  }
  return problems;
}

const MESSAGES: readonly MessageDef[] = [
  ...API_DEFINITIONS.flatMap((api) => [api.request, api.response]),
  ConsumerProtocolSubscription,
  ConsumerProtocolAssignment,
  RequestHeader,
  ResponseHeader,
];

describe('protocol field docs', () => {
  it('covers every API', () => {
    expect(API_DEFINITIONS.length).toBeGreaterThanOrEqual(49);
  });

  it.each(MESSAGES.map((m) => [m.name, m] as const))('%s: every field has a one-line doc', (_name, message) => {
    expect(docProblems(message.name, message.fields)).toEqual([]);
  });

  it('finds a missing, multi-line, overlong or name-only doc', () => {
    const bad = [
      { name: 'a', type: 'int32', versions: '0+' },
      { name: 'b', type: 'int32', versions: '0+', doc: 'first\nsecond' },
      { name: 'c', type: 'int32', versions: '0+', doc: 'x'.repeat(MAX_DOC_LENGTH + 1) },
      { name: 'topicId', type: 'uuid', versions: '0+', doc: 'Topic id.' },
      {
        name: 'nested',
        type: {
          kind: 'array',
          of: { kind: 'struct', name: 'N', fields: [{ name: 'd', type: 'bool', versions: '0+' }] },
        },
        versions: '0+',
        doc: 'A nested structure.',
      },
    ] as const satisfies readonly Field[];
    expect(docProblems('M', bad).map((p) => p.path)).toEqual(['M.a', 'M.b', 'M.c', 'M.topicId', 'M.nested.d']);
  });
});

// ---- hover: every API's value types are the generated, documented interfaces ----

/** Identity, not mere mutual assignability: a structurally equal intersection type is not the interface. */
type Identical<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** For each API exported by protocol/index.ts: whether its request and response types are the generated ones. */
type HoverCheck = {
  [K in keyof typeof Protocol]: (typeof Protocol)[K] extends ApiDef<readonly Field[], readonly Field[], infer N>
    ? `${N}Request` extends keyof GeneratedMessageTypes
      ? `${N}Response` extends keyof GeneratedMessageTypes
        ? [
            Identical<RequestOf<(typeof Protocol)[K]>, GeneratedMessageTypes[`${N}Request`]>,
            Identical<ResponseOf<(typeof Protocol)[K]>, GeneratedMessageTypes[`${N}Response`]>,
          ]
        : [K, 'no generated response type']
      : [K, 'no generated request type']
    : never;
}[keyof typeof Protocol];

describe('protocol field docs on hover', () => {
  it('reach RequestOf and ResponseOf of every API through the generated interfaces', () => {
    // Any API whose types fall back to the inferred (undocumented) ones adds a `false` to the union.
    expectTypeOf<HoverCheck>().toEqualTypeOf<[true, true]>();
    expect(true).toBe(true);
  });

  it('reach the consumer protocol messages through the generated interfaces', () => {
    expectTypeOf<
      [
        Identical<ConsumerProtocolSubscriptionValue, GeneratedMessageTypes['ConsumerProtocolSubscription']>,
        Identical<ConsumerProtocolAssignmentValue, GeneratedMessageTypes['ConsumerProtocolAssignment']>,
      ]
    >().toEqualTypeOf<[true, true]>();
    expect(true).toBe(true);
  });
});
