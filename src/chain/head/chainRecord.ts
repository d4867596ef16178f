// The chain of hashes as the service has seen it (semantics §11): the head, and the hash at each recent height,
// so that a header can be told apart as a new head, a block already known, a lagging endpoint's older head, or a
// reorg (another hash at a height already recorded), and the hashes a reorg replaced are named. Pure: the head
// follower feeds it headers and fetches the ancestors it asks for.
import type { Hex } from "viem";
import type { BlockHeader } from "./blocks.ts";

/** Heights recorded below the head: a reorg deeper than this, or a lagging endpoint further behind, is not told. */
export const RECORD_DEPTH = 128n;
/** Replaced hashes remembered, newest kept. */
const REPLACED_KEPT = 4096;

export type Observation =
  /** The head moved up; `replaced` is non-empty when the new block is not on the recorded chain (a reorg). */
  | { readonly kind: "new-head"; readonly head: BlockHeader; readonly replaced: readonly Hex[]; readonly needsAncestor?: Hex }
  /** Another hash at or below the head's height: the chain reorganised, and `replaced` are gone. */
  | { readonly kind: "reorg"; readonly head: BlockHeader; readonly replaced: readonly Hex[]; readonly needsAncestor?: Hex }
  /** The head itself again. */
  | { readonly kind: "known" }
  /** An older block of the recorded chain, or one too old to tell: an endpoint that lags. The head stays. */
  | { readonly kind: "lagging" };

/** Where an ancestor fetched for a gap or a reorg fits: on the recorded chain, or its walk goes on below it. */
export type Linked = { readonly connected: boolean; readonly replaced: readonly Hex[]; readonly next?: Hex };

export interface ChainRecord {
  readonly head: BlockHeader | undefined;
  observe(header: BlockHeader): Observation;
  /** An ancestor the record asked for (`needsAncestor`, then each `next`): links it in. */
  link(ancestor: BlockHeader): Linked;
  /**
   * The head moved back to `header`, an older block (a reorg to a shorter chain, a node reverted or restarted): it is
   * the head, and every recorded block above it (or at its height, under another hash) is replaced. Returns those.
   */
  moveBack(header: BlockHeader): readonly Hex[];
  hashAt(number: bigint): Hex | undefined;
  isReplaced(hash: Hex): boolean;
  /** The mean time between recorded blocks, in ms, from their timestamps; undefined until two blocks a second apart. */
  blockTimeMs(): number | undefined;
}

type Entry = { readonly hash: Hex; readonly header?: BlockHeader };

export function createChainRecord(): ChainRecord {
  return new RecentBlocks();
}

class RecentBlocks implements ChainRecord {
  private readonly byNumber = new Map<bigint, Entry>();
  private readonly replaced = new Set<Hex>();
  private newest: BlockHeader | undefined;

  get head(): BlockHeader | undefined {
    return this.newest;
  }

  observe(header: BlockHeader): Observation {
    const known = this.byNumber.get(header.number);
    const head = this.newest;
    if (known?.hash === header.hash) {
      if (known.header === undefined) this.byNumber.set(header.number, { hash: header.hash, header });
      return head !== undefined && header.number < head.number ? { kind: "lagging" } : { kind: "known" };
    }
    if (head === undefined) {
      this.record(header, true);
      return { kind: "new-head", head: header, replaced: [] };
    }
    if (header.number > head.number) return this.observeAbove(header, head);
    if (known === undefined) {
      // Below the record, or in a gap a walk down the ancestors left (an endpoint that did not have one): an older
      // block that cannot be told apart from a lagging endpoint's. Filled in where the block above names it its parent.
      if (this.byNumber.get(header.number + 1n)?.header?.parentHash === header.hash) this.byNumber.set(header.number, { hash: header.hash, header });
      return { kind: "lagging" };
    }
    // Another block at a recorded height: the chain reorganised to it.
    const gone = this.dropFrom(header.number);
    const parent = this.checkParent(header);
    this.record(header);
    return { kind: "reorg", head: header, replaced: [...gone, ...parent.replaced], ...ancestorWanted(parent.needsAncestor) };
  }

  link(ancestor: BlockHeader): Linked {
    const known = this.byNumber.get(ancestor.number);
    if (known?.hash === ancestor.hash) {
      if (known.header === undefined) this.byNumber.set(ancestor.number, { hash: ancestor.hash, header: ancestor });
      return { connected: true, replaced: [] };
    }
    if (this.newest === undefined || ancestor.number + RECORD_DEPTH < this.newest.number) return { connected: true, replaced: [] };
    const gone: Hex[] = [];
    if (known !== undefined) {
      gone.push(known.hash);
      this.markReplaced(known.hash);
    }
    this.byNumber.set(ancestor.number, { hash: ancestor.hash, header: ancestor });
    if (ancestor.number === 0n) return { connected: true, replaced: gone };
    const parent = this.byNumber.get(ancestor.number - 1n);
    if (parent?.hash === ancestor.parentHash) return { connected: true, replaced: gone };
    if (parent === undefined && ancestor.number - 1n < this.lowestHeight()!) {
      this.byNumber.set(ancestor.number - 1n, { hash: ancestor.parentHash });
      return { connected: true, replaced: gone };
    }
    return { connected: false, replaced: gone, next: ancestor.parentHash };
  }

  moveBack(header: BlockHeader): readonly Hex[] {
    const known = this.byNumber.get(header.number);
    // Below the record, or another block at its height: nothing recorded is known to be under it any more.
    const lowest = this.lowestHeight();
    const apart = known === undefined ? lowest === undefined || header.number < lowest : known.hash !== header.hash;
    const gone = this.dropFrom(apart ? 0n : header.number + 1n);
    this.record(header, true);
    return gone;
  }

  hashAt(number: bigint): Hex | undefined {
    return this.byNumber.get(number)?.hash;
  }

  isReplaced(hash: Hex): boolean {
    return this.replaced.has(hash);
  }

  blockTimeMs(): number | undefined {
    const head = this.newest;
    if (head === undefined) return undefined;
    let oldest: BlockHeader | undefined;
    for (const entry of this.byNumber.values()) {
      if (entry.header !== undefined && (oldest === undefined || entry.header.number < oldest.number)) oldest = entry.header;
    }
    if (oldest === undefined || oldest.number >= head.number || head.timestamp <= oldest.timestamp) return undefined;
    return Number(((head.timestamp - oldest.timestamp) * 1000n) / (head.number - oldest.number));
  }

  /** A header above the head: a new head, on the recorded chain or not (a reorg under it). */
  private observeAbove(header: BlockHeader, head: BlockHeader): Observation {
    if (header.number - head.number > RECORD_DEPTH) {
      // Far ahead (the service was idle, or the endpoint was far behind): the old record tells nothing.
      this.byNumber.clear();
      this.record(header, true);
      return { kind: "new-head", head: header, replaced: [] };
    }
    const parent = this.checkParent(header);
    this.record(header);
    const kind = parent.replaced.length > 0 ? "reorg" : "new-head";
    return { kind, head: header, replaced: parent.replaced, ...ancestorWanted(parent.needsAncestor) };
  }

  private markReplaced(hash: Hex): void {
    this.replaced.add(hash);
    if (this.replaced.size > REPLACED_KEPT) this.replaced.delete(this.replaced.values().next().value!);
  }

  /** Forgets every recorded height from `number` up: those blocks were replaced. */
  private dropFrom(number: bigint): Hex[] {
    const gone: Hex[] = [];
    for (const [height, entry] of this.byNumber) {
      if (height >= number) {
        this.byNumber.delete(height);
        gone.push(entry.hash);
        this.markReplaced(entry.hash);
      }
    }
    return gone;
  }

  /**
   * Records the header as the head and trims the record's depth. Its parent's hash goes under it only for a first
   * head: below a gap or a reorg, the walk down the ancestors fills the heights and finds where they meet the record.
   */
  private record(header: BlockHeader, withParent = false): void {
    this.byNumber.set(header.number, { hash: header.hash, header });
    if (withParent && header.number > 0n && !this.byNumber.has(header.number - 1n)) this.byNumber.set(header.number - 1n, { hash: header.parentHash });
    this.replaced.delete(header.hash); // a block may come back (A, B, then A again): it is the chain again
    this.newest = header;
    for (const height of this.byNumber.keys()) if (height + RECORD_DEPTH < header.number) this.byNumber.delete(height);
  }

  /** The parent recorded under `header`: the same (nothing to do), another (a reorg below), or a gap to fill. */
  private checkParent(header: BlockHeader): { replaced: Hex[]; needsAncestor?: Hex } {
    if (header.number === 0n) return { replaced: [] };
    const parent = this.byNumber.get(header.number - 1n);
    if (parent?.hash === header.parentHash) return { replaced: [] };
    if (parent !== undefined) return { replaced: this.dropFrom(header.number - 1n), needsAncestor: header.parentHash };
    const lowest = this.lowestHeight();
    // A gap within the record: the blocks between are fetched, to tell a gap from a reorg under it.
    return lowest !== undefined && header.number - 1n > lowest ? { replaced: [], needsAncestor: header.parentHash } : { replaced: [] };
  }

  private lowestHeight(): bigint | undefined {
    let lowest: bigint | undefined;
    for (const height of this.byNumber.keys()) if (lowest === undefined || height < lowest) lowest = height;
    return lowest;
  }
}

function ancestorWanted(hash: Hex | undefined): { needsAncestor?: Hex } {
  return hash === undefined ? {} : { needsAncestor: hash };
}
