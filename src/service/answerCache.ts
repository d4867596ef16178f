// Answers by block: an identical request at the same block of the same chain has the same answer (every read of a
// quote is pinned to that block), so it is kept, bounded in entries and in bytes, least recently used first out.

export interface AnswerCacheLimits {
  /** The most answers kept; 0 turns the cache off. */
  readonly maxEntries: number;
  /** The most bytes of answers kept (each counted as its JSON text, in UTF-16). */
  readonly maxBytes: number;
}

export interface AnswerCache<T> {
  /** False when nothing can be kept: the caller need not size an answer. */
  readonly enabled: boolean;
  get(chainId: number, blockNumber: bigint, key: string): T | undefined;
  set(chainId: number, blockNumber: bigint, key: string, answer: T, bytes: number): void;
  readonly stats: { hits: number; misses: number; entries: number; bytes: number };
}

export function createAnswerCache<T>({ maxEntries, maxBytes }: AnswerCacheLimits): AnswerCache<T> {
  // A Map iterates in insertion order: re-inserting on a hit makes its first key the least recently used.
  const entries = new Map<string, { answer: T; bytes: number }>();
  const stats = { hits: 0, misses: 0, entries: 0, bytes: 0 };
  const at = (chainId: number, blockNumber: bigint, key: string) => `${chainId}:${blockNumber}:${key}`;

  function evict(): void {
    while (entries.size > maxEntries || stats.bytes > maxBytes) {
      const oldest = entries.keys().next();
      if (oldest.done) return;
      stats.bytes -= entries.get(oldest.value)!.bytes;
      entries.delete(oldest.value);
    }
    stats.entries = entries.size;
  }

  return {
    stats,
    enabled: maxEntries > 0 && maxBytes > 0,
    get(chainId, blockNumber, key) {
      const id = at(chainId, blockNumber, key);
      const entry = entries.get(id);
      if (entry === undefined) {
        stats.misses++;
        return undefined;
      }
      stats.hits++;
      entries.delete(id);
      entries.set(id, entry);
      return entry.answer;
    },
    set(chainId, blockNumber, key, answer, bytes) {
      if (maxEntries === 0 || bytes > maxBytes) return;
      const id = at(chainId, blockNumber, key);
      const previous = entries.get(id);
      if (previous !== undefined) stats.bytes -= previous.bytes;
      entries.delete(id);
      entries.set(id, { answer, bytes });
      stats.bytes += bytes;
      evict();
    },
  };
}
