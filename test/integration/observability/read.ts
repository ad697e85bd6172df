/** Reading in the observability tests: batches until `count` records, every batch processed (none given up). */
import { expect } from 'vitest';
import type { Consumer } from '../../../src/consumer/consumer.js';

/**
 * Reads batches until `count` records came, then stops at the batch boundary: the batch whose body returned
 * counts as processed, so the position is after the last record read.
 */
export async function readProcessed(consumer: Consumer, count: number): Promise<number> {
  const stop = new AbortController();
  let read = 0;
  await expect(
    (async () => {
      for await (const batch of consumer.batches({ signal: stop.signal })) {
        read += batch.records.length;
        if (read >= count) stop.abort(new Error('read all'));
      }
    })(),
  ).rejects.toThrow('read all');
  return read;
}
