import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../protocol/error-codes.js';
import { partitionKey } from '../../../../src/cluster/partition-errors.js';
import { FetchSession, type SessionPartition } from '../../../../src/consumer/fetch/fetch-session.js';

const p = (partition: number, fetchOffset: bigint, extra: Partial<SessionPartition> = {}): SessionPartition => ({
  key: partitionKey('t', partition),
  topic: 't',
  topicId: undefined,
  partition,
  fetchOffset,
  lastFetchedEpoch: 0,
  currentLeaderEpoch: 0,
  maxBytes: 1024,
  ...extra,
});
const names = (list: SessionPartition[]) => list.map((x) => `${x.partition}@${x.fetchOffset}`);

describe('FetchSession (KIP-227)', () => {
  it('opens with a full request, then names only partitions that changed', () => {
    const s = new FetchSession(true);
    const first = s.build([p(0, 0n), p(1, 0n)]);
    expect(first).toMatchObject({ sessionId: 0, sessionEpoch: 0, full: true });
    expect(names(first.send)).toEqual(['0@0', '1@0']);
    expect(s.onResponse(0, 77)).toBe(true);

    const second = s.build([p(0, 10n), p(1, 0n)]);
    expect(second).toMatchObject({ sessionId: 77, sessionEpoch: 1, full: false });
    expect(names(second.send)).toEqual(['0@10']);
    expect(second.forget).toEqual([]);
    s.onResponse(0, 77);

    // Nothing changed: an empty incremental request still polls every partition of the session.
    const third = s.build([p(0, 10n), p(1, 0n)]);
    expect(third).toMatchObject({ sessionEpoch: 2, send: [], forget: [] });
  });

  it('forgets partitions no longer wanted and re-adds them later', () => {
    const s = new FetchSession(true);
    s.build([p(0, 0n), p(1, 0n)]);
    s.onResponse(0, 5);
    const without = s.build([p(0, 0n)]);
    expect(names(without.forget)).toEqual(['1@0']);
    s.onResponse(0, 5);
    const back = s.build([p(0, 0n), p(1, 3n)]);
    expect(names(back.send)).toEqual(['1@3']);
  });

  it('a change of leader epoch or topic id also resends a partition', () => {
    const s = new FetchSession(true);
    s.build([p(0, 0n)]);
    s.onResponse(0, 5);
    expect(names(s.build([p(0, 0n, { currentLeaderEpoch: 1 })]).send)).toEqual(['0@0']);
    s.onResponse(0, 5);
    expect(names(s.build([p(0, 0n, { currentLeaderEpoch: 1, topicId: 'x' })]).send)).toEqual(['0@0']);
  });

  it('FETCH_SESSION_ID_NOT_FOUND: starts a new session with a full request', () => {
    const s = new FetchSession(true);
    s.build([p(0, 0n)]);
    s.onResponse(0, 9);
    s.build([p(0, 5n)]);
    expect(s.onResponse(ErrorCode.FETCH_SESSION_ID_NOT_FOUND, 0)).toBe(false);
    const next = s.build([p(0, 5n)]);
    expect(next).toMatchObject({ sessionId: 0, sessionEpoch: 0, full: true });
    expect(names(next.send)).toEqual(['0@5']);
  });

  it('INVALID_FETCH_SESSION_EPOCH: closes the session and opens a new one in one full request', () => {
    const s = new FetchSession(true);
    s.build([p(0, 0n)]);
    s.onResponse(0, 9);
    s.build([p(0, 5n)]);
    expect(s.onResponse(ErrorCode.INVALID_FETCH_SESSION_EPOCH, 9)).toBe(false);
    expect(s.build([p(0, 5n)])).toMatchObject({ sessionId: 9, sessionEpoch: 0, full: true });
    s.onResponse(0, 10);
    expect(s.build([p(0, 5n)])).toMatchObject({ sessionId: 10, sessionEpoch: 1, send: [] });
  });

  it('a failed request (connection lost) starts over with a full request', () => {
    const s = new FetchSession(true);
    s.build([p(0, 0n)]);
    s.onResponse(0, 9);
    s.build([p(0, 5n)]);
    s.onFailure();
    expect(s.build([p(0, 5n)])).toMatchObject({ sessionId: 9, sessionEpoch: 0, full: true });
  });

  it('a broker that creates no session (id 0) gets full requests every time', () => {
    const s = new FetchSession(true);
    s.build([p(0, 0n)]);
    s.onResponse(0, 0);
    expect(s.build([p(0, 0n)])).toMatchObject({ sessionId: 0, sessionEpoch: 0, full: true });
  });

  it('sessionless (disabled, or Fetch v0-6): epoch -1 and every partition', () => {
    const s = new FetchSession(false);
    expect(s.build([p(0, 0n)])).toMatchObject({ sessionId: 0, sessionEpoch: -1, full: true });
    expect(s.onResponse(0, 0)).toBe(true);
    expect(names(s.build([p(0, 0n)]).send)).toEqual(['0@0']);
    expect(s.closeRequest()).toBeUndefined();
  });

  it('close asks the broker to drop the session with epoch -1', () => {
    const s = new FetchSession(true);
    s.build([p(0, 0n)]);
    s.onResponse(0, 42);
    expect(s.closeRequest()).toEqual({ sessionId: 42, sessionEpoch: -1 });
    expect(s.isOpen).toBe(false);
  });
});
