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
  hashAt(number: bigint): Hex | undefined;
  isReplaced(hash: Hex): boolean;
  /** The mean time between recorded blocks, in ms, from their timestamps; undefined until two blocks a second apart. */
  blockTimeMs(): number | undefined;
}

type Entry = { readonly hash: Hex; readonly header?: BlockHeader };

export function createChainRecord(): ChainRecord {
  const byNumber = new Map<bigint, Entry>();
  const replaced = new Set<Hex>();
  let head: BlockHeader | undefined;

  function markReplaced(hash: Hex): void {
    replaced.add(hash);
    if (replaced.size > REPLACED_KEPT) replaced.delete(replaced.values().next().value!);
  }

  /** Forgets every recorded height from `number` up: those blocks were replaced. */
  function dropFrom(number: bigint): Hex[] {
    const gone: Hex[] = [];
    for (const [height, entry] of byNumber) {
      if (height >= number) {
        byNumber.delete(height);
        gone.push(entry.hash);
        markReplaced(entry.hash);
      }
    }
    return gone;
  }

  /**
   * Records the header as the head and trims the record's depth. Its parent's hash goes under it only for a first
   * head: below a gap or a reorg, the walk down the ancestors fills the heights and finds where they meet the record.
   */
  function record(header: BlockHeader, withParent = false): void {
    byNumber.set(header.number, { hash: header.hash, header });
    if (withParent && header.number > 0n && !byNumber.has(header.number - 1n)) byNumber.set(header.number - 1n, { hash: header.parentHash });
    replaced.delete(header.hash); // a block may come back (A, B, then A again): it is the chain again
    head = header;
    for (const height of byNumber.keys()) if (height + RECORD_DEPTH < header.number) byNumber.delete(height);
  }

  /** The parent recorded under `header`: the same (nothing to do), another (a reorg below), or a gap to fill. */
  function checkParent(header: BlockHeader): { replaced: Hex[]; needsAncestor?: Hex } {
    if (header.number === 0n) return { replaced: [] };
    const parent = byNumber.get(header.number - 1n);
    if (parent?.hash === header.parentHash) return { replaced: [] };
    if (parent !== undefined) return { replaced: dropFrom(header.number - 1n), needsAncestor: header.parentHash };
    const lowest = lowestHeight();
    // A gap within the record: the blocks between are fetched, to tell a gap from a reorg under it.
    return lowest !== undefined && header.number - 1n > lowest ? { replaced: [], needsAncestor: header.parentHash } : { replaced: [] };
  }

  function lowestHeight(): bigint | undefined {
    let lowest: bigint | undefined;
    for (const height of byNumber.keys()) if (lowest === undefined || height < lowest) lowest = height;
    return lowest;
  }

  return {
    get head() {
      return head;
    },
    observe(header) {
      const known = byNumber.get(header.number);
      if (known?.hash === header.hash) {
        if (known.header === undefined) byNumber.set(header.number, { hash: header.hash, header });
        return head !== undefined && header.number < head.number ? { kind: "lagging" } : { kind: "known" };
      }
      if (head === undefined) {
        record(header, true);
        return { kind: "new-head", head: header, replaced: [] };
      }
      if (header.number > head.number) {
        if (header.number - head.number > RECORD_DEPTH) {
          // Far ahead (the service was idle, or the endpoint was far behind): the old record tells nothing.
          byNumber.clear();
          record(header, true);
          return { kind: "new-head", head: header, replaced: [] };
        }
        const parent = checkParent(header);
        record(header);
        return parent.replaced.length > 0
          ? { kind: "reorg", head: header, replaced: parent.replaced, ...(parent.needsAncestor ? { needsAncestor: parent.needsAncestor } : {}) }
          : { kind: "new-head", head: header, replaced: [], ...(parent.needsAncestor ? { needsAncestor: parent.needsAncestor } : {}) };
      }
      const lowest = lowestHeight();
      if (known === undefined && (lowest === undefined || header.number < lowest)) return { kind: "lagging" };
      // Another block at a recorded height (or in a gap of the record): the chain reorganised to it.
      const gone = dropFrom(header.number);
      const parent = checkParent(header);
      record(header);
      return {
        kind: "reorg",
        head: header,
        replaced: [...gone, ...parent.replaced],
        ...(parent.needsAncestor ? { needsAncestor: parent.needsAncestor } : {}),
      };
    },
    link(ancestor) {
      const known = byNumber.get(ancestor.number);
      if (known?.hash === ancestor.hash) {
        if (known.header === undefined) byNumber.set(ancestor.number, { hash: ancestor.hash, header: ancestor });
        return { connected: true, replaced: [] };
      }
      if (head === undefined || ancestor.number + RECORD_DEPTH < head.number) return { connected: true, replaced: [] };
      const gone: Hex[] = [];
      if (known !== undefined) {
        gone.push(known.hash);
        markReplaced(known.hash);
      }
      byNumber.set(ancestor.number, { hash: ancestor.hash, header: ancestor });
      if (ancestor.number === 0n) return { connected: true, replaced: gone };
      const parent = byNumber.get(ancestor.number - 1n);
      if (parent?.hash === ancestor.parentHash) return { connected: true, replaced: gone };
      const lowest = lowestHeight()!;
      if (parent === undefined && ancestor.number - 1n < lowest) {
        byNumber.set(ancestor.number - 1n, { hash: ancestor.parentHash });
        return { connected: true, replaced: gone };
      }
      return { connected: false, replaced: gone, next: ancestor.parentHash };
    },
    hashAt(number) {
      return byNumber.get(number)?.hash;
    },
    isReplaced(hash) {
      return replaced.has(hash);
    },
    blockTimeMs() {
      if (head === undefined) return undefined;
      let oldest: BlockHeader | undefined;
      for (const entry of byNumber.values()) {
        if (entry.header !== undefined && (oldest === undefined || entry.header.number < oldest.number)) oldest = entry.header;
      }
      if (oldest === undefined || oldest.number >= head.number || head.timestamp <= oldest.timestamp) return undefined;
      return Number(((head.timestamp - oldest.timestamp) * 1000n) / (head.number - oldest.number));
    },
  };
}
