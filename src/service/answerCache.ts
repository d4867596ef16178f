// Answers by block: an identical request at the same block of the same chain has the same answer (every read of a
// quote is pinned to that block by its hash), so it is kept, bounded in entries and in bytes, least recently used
// first out. A block the chain replaced takes its answers with it (semantics §11).

export interface AnswerCacheLimits {
  /** The most answers kept; 0 turns the cache off. */
  readonly maxEntries: number;
  /** The most bytes of answers kept (each counted as its JSON text, in UTF-16). */
  readonly maxBytes: number;
}

export interface AnswerCache<T> {
  /** False when nothing can be kept: the caller need not size an answer. */
  readonly enabled: boolean;
  get(chainId: number, blockHash: string, key: string): T | undefined;
  /** Whether an answer is kept, without counting a hit or a miss or making it recently used. */
  has(chainId: number, blockHash: string, key: string): boolean;
  set(chainId: number, blockHash: string, key: string, answer: T, bytes: number): void;
  /** Forgets every answer about these blocks of the chain. */
  drop(chainId: number, blockHashes: readonly string[]): void;
  readonly stats: { hits: number; misses: number; entries: number; bytes: number };
}

export function createAnswerCache<T>({ maxEntries, maxBytes }: AnswerCacheLimits): AnswerCache<T> {
  // A Map iterates in insertion order: re-inserting on a hit makes its first key the least recently used.
  const entries = new Map<string, { answer: T; bytes: number }>();
  const stats = { hits: 0, misses: 0, entries: 0, bytes: 0 };
  const at = (chainId: number, blockHash: string, key: string) => `${chainId}:${blockHash}:${key}`;

  function remove(id: string): void {
    const entry = entries.get(id);
    if (entry === undefined) return;
    stats.bytes -= entry.bytes;
    entries.delete(id);
  }

  function evict(): void {
    while (entries.size > maxEntries || stats.bytes > maxBytes) {
      const oldest = entries.keys().next();
      if (oldest.done) return;
      remove(oldest.value);
    }
    stats.entries = entries.size;
  }

  return {
    stats,
    enabled: maxEntries > 0 && maxBytes > 0,
    get(chainId, blockHash, key) {
      const id = at(chainId, blockHash, key);
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
    has(chainId, blockHash, key) {
      return entries.has(at(chainId, blockHash, key));
    },
    set(chainId, blockHash, key, answer, bytes) {
      if (maxEntries === 0 || bytes > maxBytes) return;
      const id = at(chainId, blockHash, key);
      remove(id);
      entries.set(id, { answer, bytes });
      stats.bytes += bytes;
      evict();
    },
    drop(chainId, blockHashes) {
      if (entries.size === 0 || blockHashes.length === 0) return;
      const prefixes = blockHashes.map((hash) => `${chainId}:${hash}:`);
      for (const id of entries.keys()) if (prefixes.some((prefix) => id.startsWith(prefix))) remove(id);
      stats.entries = entries.size;
    },
  };
}
