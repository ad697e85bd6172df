/**
 * TopicView.get() is on every send()'s path: once a topic's metadata is old it starts a recheck, and while that
 * recheck is out, further calls must not add work per call (each once chained a `.catch` of its own: a promise
 * and a reaction per record for as long as the Metadata request took).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TopicMetadata } from '../../../src/cluster/metadata.js';
import { TopicView } from '../../../src/producer/cluster-view.js';

const metadata = { name: 't', partitions: [] } as unknown as TopicMetadata;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('TopicView', () => {
  it('one recheck per old topic, and nothing chained per get() while it is out', async () => {
    let answer: (m: TopicMetadata) => void = () => {};
    const asked = vi.fn((_topic: string) => Promise.resolve(metadata));
    const view = new TopicView(
      { topicMetadata: asked, connectionTo: vi.fn(), anyConnection: vi.fn(), noteError: vi.fn() },
      () => {},
    );
    await view.load('t');
    expect(asked).toHaveBeenCalledTimes(1);
    asked.mockImplementation(() => new Promise<TopicMetadata>((resolve) => (answer = resolve)));
    const catches = vi.spyOn(Promise.prototype, 'catch');
    const later = Date.now() + 60_000;
    for (let i = 0; i < 1000; i++) expect(view.get('t', later)).toBe(metadata);
    expect(asked).toHaveBeenCalledTimes(2);
    expect(catches.mock.calls.length).toBeLessThanOrEqual(1);
    catches.mockRestore();
    answer(metadata);
  });
});
