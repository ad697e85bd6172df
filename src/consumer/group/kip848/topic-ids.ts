import { ZERO_TOPIC_ID } from '../../../cluster/metadata.js';
import type { GroupTransport } from '../coordinator-link.js';

/**
 * KIP-848 assignments name topics by id; the application knows them by name. Ids are resolved through
 * metadata of the subscribed topics first (one request that usually answers all), then by id (Metadata v12+)
 * for any left, e.g. a topic the member no longer subscribes to. An id nobody knows yet (a topic just created,
 * metadata not yet everywhere) stays unresolved and is asked for again later.
 */
export class TopicIdNames {
  private readonly names = new Map<string, string>();

  constructor(private readonly transport: GroupTransport) {}

  /** The name of an id already resolved. */
  known(topicId: string): string | undefined {
    return this.names.get(topicId);
  }

  /** Names of `ids` (those that could be resolved). */
  async resolve(ids: readonly string[], subscribed: readonly string[]): Promise<Map<string, string>> {
    let missing = ids.filter((id) => !this.names.has(id));
    if (missing.length > 0 && subscribed.length > 0) {
      this.learn(await this.transport.metadata({ topics: subscribed }));
      missing = missing.filter((id) => !this.names.has(id));
    }
    if (missing.length > 0) {
      try {
        this.learn(await this.transport.metadata({ topicIds: missing }));
      } catch {
        // Brokers before Metadata v12 cannot look up by id; the subscribed topics are asked again later.
      }
    }
    const out = new Map<string, string>();
    for (const id of ids) {
      const name = this.names.get(id);
      if (name !== undefined) out.set(id, name);
    }
    return out;
  }

  private learn(md: { topics: Map<string, { name: string; topicId: string | undefined; error: unknown }> }): void {
    for (const t of md.topics.values()) {
      if (t.error === undefined && t.topicId !== undefined && t.topicId !== ZERO_TOPIC_ID)
        this.names.set(t.topicId, t.name);
    }
  }
}
