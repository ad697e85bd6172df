/**
 * Error behaviour: what the broker does with requests it cannot serve. Apache Kafka answers an ApiVersions
 * request of a version it does not know (KIP-511) and closes the connection, without answering, on a request it
 * cannot parse: unknown API key, unsupported version, truncated body, impossible array length, oversized frame.
 */
import { Reader } from '../../../codecs/reader.js';
import { Writer } from '../../../codecs/writer.js';
import { ApiVersions } from '../../../protocol/apis/api-versions.js';
import { Metadata } from '../../../protocol/apis/metadata.js';
import { responseCodec } from '../../../protocol/codec.js';
import { ErrorCode } from '../../../protocol/error-codes.js';
import { encodeRequest } from '../../network/wire.js';
import type { Probe } from '../probe.js';
import { describeOutcome, exchange, frame, rawRequest, rawSocket } from '../raw.js';
import type { Check } from '../types.js';

const CLOSES = 'Kafka network layer (SocketServer): a request that cannot be parsed closes the connection';

/** A check that sends `bytes` on a fresh socket and expects the broker to close it without answering. */
function closes(id: string, expected: string, describe: string, bytes: (probe: Probe) => Buffer): Check {
  return {
    id: `errors.${id}`,
    area: 'errors',
    expected,
    spec: CLOSES,
    async run(probe: Probe) {
      const socket = await rawSocket(probe.suite);
      try {
        const sent = bytes(probe);
        const outcome = await exchange(socket, sent);
        probe.note({
          api: 'raw',
          version: -1,
          request: `${describe} (${sent.length} bytes: ${sent.subarray(0, 24).toString('hex')}…)`,
          outcome: describeOutcome(outcome),
        });
        probe.expect(
          outcome.kind === 'closed',
          `${describe}: Kafka closes the connection, the broker ${describeOutcome(outcome)}`,
        );
        return 'closed the connection without answering';
      } finally {
        socket.destroy();
      }
    },
  };
}

/** A valid Metadata request (no topics) at a version both sides speak, as one buffer. */
function metadataRequest(probe: Probe): Buffer {
  const version = Math.min(probe.suite.versions.versionFor(Metadata), 12);
  return Buffer.concat(
    encodeRequest(Metadata, version, 7, 'tidemark-conformance', { topics: [], allowAutoTopicCreation: false }),
  );
}

export const errorChecks: Check[] = [
  {
    id: 'errors.api-versions-unsupported-version',
    area: 'errors',
    expected:
      'an ApiVersions request of a version the broker does not know is answered: UNSUPPORTED_VERSION with a v0 body that lists ApiVersions',
    spec: 'KIP-511; Kafka protocol guide, "Versioning and Compatibility"',
    async run(probe: Probe) {
      const socket = await rawSocket(probe.suite);
      try {
        // A client sends its newest ApiVersions in the flexible header (v2), as Kafka's own clients do.
        const outcome = await exchange(socket, rawRequest(ApiVersions.key, 127, 11, Buffer.alloc(4), true));
        probe.note({ api: 'ApiVersions', version: 127, request: {}, outcome: describeOutcome(outcome) });
        if (outcome.kind !== 'answer')
          probe.fail(`ApiVersions v127: Kafka answers, the broker ${describeOutcome(outcome)}`);
        const r = new Reader((outcome as { frame: Buffer }).frame);
        probe.equal(r.int32(), 11, 'correlation id');
        const body = responseCodec(ApiVersions, 0).decode(r);
        probe.note({ api: 'ApiVersions', version: 127, request: {}, response: body });
        probe.errorCode(body.errorCode, ErrorCode.UNSUPPORTED_VERSION, 'ApiVersions v127');
        probe.expect(
          body.apiKeys.some((k) => k.apiKey === ApiVersions.key),
          'the UNSUPPORTED_VERSION answer does not list the ApiVersions range the client should retry with',
        );
        return `UNSUPPORTED_VERSION with ${body.apiKeys.length} API ranges`;
      } finally {
        socket.destroy();
      }
    },
  },
  closes(
    'unknown-api-key',
    'a request with an API key Kafka does not define closes the connection',
    'api key 9999',
    () => rawRequest(9999, 0, 1),
  ),
  closes(
    'unsupported-version',
    'a Metadata request of a version the broker does not support closes the connection',
    'Metadata v99',
    () => rawRequest(Metadata.key, 99, 2, Buffer.from([0, 0, 0, 0])),
  ),
  closes(
    'truncated-request',
    'a request whose body stops short closes the connection',
    'Metadata cut short',
    (probe) => {
      const whole = metadataRequest(probe);
      const payload = whole.subarray(4, whole.length - 2);
      return frame(payload);
    },
  ),
  closes(
    'impossible-array-length',
    'a request whose array length exceeds the bytes that follow closes the connection',
    'Metadata v1 with 2^31-1 topics and no bytes for them',
    () => rawRequest(Metadata.key, 1, 3, new Writer().int32(0x7fffffff).toBuffer()),
  ),
  closes(
    'oversized-frame',
    'a size prefix above socket.request.max.bytes closes the connection before the body is read',
    'size prefix 2^31-16',
    () => frame(Buffer.alloc(8), 0x7ffffff0),
  ),
  closes('negative-size', 'a negative size prefix closes the connection', 'size prefix -1', () =>
    frame(Buffer.alloc(8), -1),
  ),
  {
    id: 'errors.survives-bad-client',
    area: 'errors',
    expected: 'after closing a connection over a bad request the broker still serves new connections',
    spec: CLOSES,
    async run(probe: Probe) {
      const socket = await rawSocket(probe.suite);
      await exchange(socket, rawRequest(9999, 0, 1), 2000);
      socket.destroy();
      const connection = await probe.suite.dedicatedConnection();
      try {
        const response = await probe.send(connection, Metadata, { topics: [], allowAutoTopicCreation: false });
        probe.expect(response.brokers.length > 0, 'Metadata after a bad client lists no brokers');
        return `Metadata answered with ${response.brokers.length} broker(s)`;
      } finally {
        await connection.close();
      }
    },
  },
];
