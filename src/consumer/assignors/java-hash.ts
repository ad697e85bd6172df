/**
 * Just enough of `java.util.HashMap` to know its iteration order.
 *
 * Kafka's assignors walk HashMaps and HashSets in a few places where the walk
 * decides the result (which member is served first when all members own
 * partitions, which moved partition is moved back), so giving the same
 * answer as Java needs the same order. A HashMap iterates bucket by bucket
 * (bucket = spread hash & (capacity - 1)), and inside a bucket in insertion
 * order: a resize splits each bucket in two keeping the relative order, and a
 * removal keeps the others' order. So the order is a sort by (bucket, time of
 * insertion), given the capacity, which grows as Java grows it. One twist:
 * `put` appends to its bucket but `computeIfAbsent` prepends (and resizes
 * before inserting, not after), so the two are kept apart here.
 *
 * Not modelled: a bucket with 9+ keys in a table of 64+ buckets becomes a
 * tree whose order differs; assignor keys (member ids, partitions of a topic)
 * spread far too evenly for that.
 */

const DEFAULT_CAPACITY = 16;
const LOAD_FACTOR = 0.75;
const TREEIFY_THRESHOLD = 8;
const MIN_TREEIFY_CAPACITY = 64;

/** Java's `String.hashCode()`: over UTF-16 code units, wrapping at 32 bits. */
export function javaStringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/** Kafka's `TopicPartition.hashCode()`. */
export function topicPartitionHash(topic: string, partition: number): number {
  return (Math.imul(31, (31 + partition) | 0) + javaStringHash(topic)) | 0;
}

/** `HashMap.tableSizeFor`: the smallest power of two >= n, at least 1. */
function tableSizeFor(n: number): number {
  let cap = 1;
  while (cap < n) cap *= 2;
  return cap;
}

interface Slot<V> {
  value: V;
  hash: number;
  seq: number;
}

export class JavaHashMap<K, V> {
  private readonly slots = new Map<K, Slot<V>>();
  private capacity = 0;
  // Before the first put: the initial capacity (0 = default), as in Java.
  private threshold: number;
  // put() appends (ever larger), computeIfAbsent() prepends (ever smaller): sorting by it gives the bucket order.
  private seq = 0;
  private headSeq = 0;
  private ordered: K[] | undefined;
  /** Keys per bucket, for Java's resize-instead-of-treeify rule on small tables. */
  private bucketSizes: number[] = [];

  constructor(
    private readonly hashOf: (key: K) => number,
    initialCapacity?: number,
  ) {
    this.threshold = initialCapacity === undefined ? 0 : tableSizeFor(initialCapacity);
  }

  get size(): number {
    return this.slots.size;
  }

  has(key: K): boolean {
    return this.slots.has(key);
  }

  get(key: K): V | undefined {
    return this.slots.get(key)?.value;
  }

  set(key: K, value: V): this {
    const slot = this.slots.get(key);
    if (slot !== undefined) {
      slot.value = value; // a replaced value keeps its place
      return this;
    }
    if (this.capacity === 0) this.resize();
    const hash = spread(this.hashOf(key));
    const bucket = hash & (this.capacity - 1);
    const before = this.bucketSizes[bucket] ?? 0;
    this.slots.set(key, { value, hash, seq: this.seq++ });
    this.bucketSizes[bucket] = before + 1;
    this.ordered = undefined;
    // Java treeifies a bucket that reaches 9 keys, but resizes instead while the table is small.
    if (before >= TREEIFY_THRESHOLD && this.capacity < MIN_TREEIFY_CAPACITY) this.resize();
    if (this.slots.size > this.threshold) this.resize();
    return this;
  }

  /** Java's `computeIfAbsent`: a new key goes to the head of its bucket, and the table grows before, not after. */
  computeIfAbsent(key: K, create: (key: K) => V): V {
    // Java checks for growth first, even when the key turns out to be there.
    if (this.capacity === 0 || this.slots.size > this.threshold) this.resize();
    const slot = this.slots.get(key);
    if (slot !== undefined) return slot.value;
    const hash = spread(this.hashOf(key));
    const bucket = hash & (this.capacity - 1);
    const before = this.bucketSizes[bucket] ?? 0;
    const value = create(key);
    this.slots.set(key, { value, hash, seq: --this.headSeq });
    this.bucketSizes[bucket] = before + 1;
    this.ordered = undefined;
    if (before >= TREEIFY_THRESHOLD - 1 && this.capacity < MIN_TREEIFY_CAPACITY) this.resize();
    return value;
  }

  delete(key: K): boolean {
    const slot = this.slots.get(key);
    if (slot === undefined) return false;
    this.slots.delete(key);
    this.bucketSizes[slot.hash & (this.capacity - 1)]--;
    this.ordered = undefined;
    return true;
  }

  /** Keys in Java's iteration order. */
  keys(): K[] {
    if (this.ordered === undefined) {
      const mask = this.capacity - 1;
      const entries = [...this.slots];
      entries.sort(([, a], [, b]) => (a.hash & mask) - (b.hash & mask) || a.seq - b.seq);
      this.ordered = entries.map(([k]) => k);
    }
    return this.ordered;
  }

  /** The first key in iteration order (what `iterator().next()` returns). */
  first(): K | undefined {
    return this.keys()[0];
  }

  entries(): Array<[K, V]> {
    return this.keys().map((k) => [k, this.slots.get(k)!.value]);
  }

  private resize(): void {
    let newCap: number;
    let newThr = 0;
    if (this.capacity > 0) {
      newCap = this.capacity * 2;
      if (this.capacity >= DEFAULT_CAPACITY) newThr = this.threshold * 2;
    } else if (this.threshold > 0) {
      newCap = this.threshold;
    } else {
      newCap = DEFAULT_CAPACITY;
      newThr = DEFAULT_CAPACITY * LOAD_FACTOR;
    }
    if (newThr === 0) newThr = Math.trunc(newCap * LOAD_FACTOR);
    this.capacity = newCap;
    this.threshold = newThr;
    this.bucketSizes = [];
    for (const slot of this.slots.values()) {
      const b = slot.hash & (newCap - 1);
      this.bucketSizes[b] = (this.bucketSizes[b] ?? 0) + 1;
    }
    this.ordered = undefined;
  }
}

/** `HashMap.hash()`: folds the high half into the low half. */
function spread(h: number): number {
  return h ^ (h >>> 16);
}

/** The order in which a `new HashMap<>()` filled with `keys` (in this order) iterates them. */
export function javaHashOrder<K>(keys: Iterable<K>, hashOf: (key: K) => number): K[] {
  const map = new JavaHashMap<K, true>(hashOf);
  for (const k of keys) map.set(k, true);
  return map.keys();
}
