import { describe, expect, it } from 'vitest';
import { Client } from '../../src/client.js';
import { Consumer } from '../../src/consumer/consumer.js';
import { ConfigError } from '../../src/options/config-error.js';

/** client.consumer(): the factory beside client.producer(); its reading is tested against the broker in
 * test/integration/consumer/file-store-group.test.ts. No connection is made here (the client connects lazily). */
describe('client.consumer()', () => {
  it('returns a Consumer on this client with the options given', async () => {
    const client = new Client({ bootstrap: '127.0.0.1:1' });
    const consumer = client.consumer({ groupId: 'g', autoOffsetReset: 'earliest' });
    expect(consumer).toBeInstanceOf(Consumer);
    expect(consumer.groupId).toBe('g');
    expect(consumer.options.autoOffsetReset).toBe('earliest');
    await consumer.close();
    await client.close();
  });

  it("logs through the client's logger unless the consumer is given its own", async () => {
    const lines: string[] = [];
    const clientLogger = (event: string) => lines.push(`client ${event}`);
    const own = (event: string) => lines.push(`own ${event}`);
    const client = new Client({ bootstrap: '127.0.0.1:1', logger: clientLogger });
    const inherited = client.consumer();
    const overridden = client.consumer({ logger: own });
    // Both reach their logger through the client's guard (levels, a throwing logger caught).
    inherited.options.logger?.('consumer:truncation', {});
    overridden.options.logger?.('consumer:offset-reset', {});
    expect(lines).toEqual(['client consumer:truncation', 'own consumer:offset-reset']);
    expect(new Client({ bootstrap: '127.0.0.1:1' }).consumer().options.logger).toBeUndefined();
    await Promise.all([inherited.close(), overridden.close()]);
    await client.close();
  });

  it('checks the options like the constructor: a typo is a ConfigError naming it', async () => {
    const client = new Client({ bootstrap: '127.0.0.1:1' });
    expect(() => client.consumer({ groupID: 'g' } as never)).toThrow(ConfigError);
    expect(() => client.consumer({ groupID: 'g' } as never)).toThrow(/groupID/);
    await client.close();
  });
});
