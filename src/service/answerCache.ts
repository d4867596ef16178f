// Answers by block: an identical request at the same block of the same chain has the same answer (every read of a
// quote is pinned to that block by its hash), so it is kept, bounded in entries and in bytes, least recently used
// first out. Only the answers of a chain's newest blocks are kept: quotes are answered at the head, so an answer of a
// block the head has left behind is never asked again (on a chain of 50 ms blocks a bound of 10,000 answers would
// otherwise fill with dead ones, and hold them). A block the chain replaced takes its answers with it (semantics §11).

export interface AnswerCacheLimits {
  /** The most answers kept; 0 turns the cache off. */
  readonly maxEntries: number;
  /** The most bytes of answers kept (each counted as its JSON text, in UTF-16). */
  readonly maxBytes: number;
}

/**
 * The blocks of a chain whose answers are kept: the newest one an answer was kept at, and the one before (a quote
 * in flight when the head moved, and its identical twins, may still ask there).
 */
export const KEPT_BLOCKS = 2n;

export interface AnswerCache<T> {
  /** False when nothing can be kept: the caller need not size an answer. */
  readonly enabled: boolean;
  get(chainId: number, blockHash: string, key: string): T | undefined;
  /** Whether an answer is kept, without counting a hit or a miss or making it recently used. */
  has(chainId: number, blockHash: string, key: string): boolean;
  /**
   * Keeps `answer` at `block`, unless the chain's answers are kept at newer blocks only ({@link KEPT_BLOCKS}); a newer
   * block than any before drops the answers of the blocks it leaves behind.
   */
  set(chainId: number, block: { readonly number: bigint; readonly hash: string }, key: string, answer: T, bytes: number): void;
  /** Forgets every answer about these blocks of the chain. */
  drop(chainId: number, blockHashes: readonly string[]): void;
  readonly stats: { hits: number; misses: number; entries: number; bytes: number };
}

export function createAnswerCache<T>(limits: AnswerCacheLimits): AnswerCache<T> {
  return new BlockAnswerCache<T>(limits);
}

class BlockAnswerCache<T> implements AnswerCache<T> {
  readonly stats = { hits: 0, misses: 0, entries: 0, bytes: 0 };
  readonly enabled: boolean;
  // A Map iterates in insertion order: re-inserting on a hit makes its first key the least recently used.
  private readonly entries = new Map<string, { answer: T; bytes: number; block: string }>();
  /** The ids of the answers kept at each block (`chainId:hash`), and the block's number. */
  private readonly blocks = new Map<string, { readonly chainId: number; readonly number: bigint; readonly ids: Set<string> }>();
  /** Per chain, the newest block number an answer was kept at. */
  private readonly newest = new Map<number, bigint>();

  constructor(private readonly limits: AnswerCacheLimits) {
    this.enabled = limits.maxEntries > 0 && limits.maxBytes > 0;
  }

  get(chainId: number, blockHash: string, key: string): T | undefined {
    const id = idOf(chainId, blockHash, key);
    const entry = this.entries.get(id);
    if (entry === undefined) {
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.answer;
  }

  has(chainId: number, blockHash: string, key: string): boolean {
    return this.entries.has(idOf(chainId, blockHash, key));
  }

  set(chainId: number, { number, hash }: { readonly number: bigint; readonly hash: string }, key: string, answer: T, bytes: number): void {
    if (this.limits.maxEntries === 0 || bytes > this.limits.maxBytes) return;
    const seen = this.newest.get(chainId);
    if (seen !== undefined && number <= seen - KEPT_BLOCKS) return; // never asked again
    if (seen === undefined || number > seen) {
      this.newest.set(chainId, number);
      for (const [name, block] of this.blocks) if (block.chainId === chainId && block.number <= number - KEPT_BLOCKS) this.removeBlock(name);
    }
    const block = blockOf(chainId, hash);
    const id = `${block}:${key}`;
    this.remove(id);
    this.entries.set(id, { answer, bytes, block });
    let kept = this.blocks.get(block);
    if (kept === undefined) this.blocks.set(block, (kept = { chainId, number, ids: new Set() }));
    kept.ids.add(id);
    this.stats.bytes += bytes;
    this.evict();
  }

  drop(chainId: number, blockHashes: readonly string[]): void {
    if (blockHashes.length === 0) return;
    for (const hash of blockHashes) this.removeBlock(blockOf(chainId, hash));
    // The newest block may be gone (a reorg, a head that moved back): the newest left is, so that answers at the
    // chain's new head, lower perhaps, are kept again.
    let left: bigint | undefined;
    for (const block of this.blocks.values()) if (block.chainId === chainId && (left === undefined || block.number > left)) left = block.number;
    if (left === undefined) this.newest.delete(chainId);
    else this.newest.set(chainId, left);
  }

  private remove(id: string): void {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    this.stats.bytes -= entry.bytes;
    this.entries.delete(id);
    const block = this.blocks.get(entry.block);
    block?.ids.delete(id);
    if (block?.ids.size === 0) this.blocks.delete(entry.block);
  }

  private removeBlock(block: string): void {
    for (const id of [...(this.blocks.get(block)?.ids ?? [])]) this.remove(id);
    this.stats.entries = this.entries.size;
  }

  private evict(): void {
    while (this.entries.size > this.limits.maxEntries || this.stats.bytes > this.limits.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) return;
      this.remove(oldest.value);
    }
    this.stats.entries = this.entries.size;
  }
}

const blockOf = (chainId: number, blockHash: string) => `${chainId}:${blockHash}`;
const idOf = (chainId: number, blockHash: string, key: string) => `${blockOf(chainId, blockHash)}:${key}`;
