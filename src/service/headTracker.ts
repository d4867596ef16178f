// Each chain's head as the service last saw it: quotes pin to it while it is fresh, so that identical requests in
// one block are one search (the answer cache). No polling: a quote that reads the latest block tells its number
// (every single-call answer carries it), so the head is confirmed by the traffic itself, and a chain nobody asks
// about costs nothing.

export interface HeadTracker {
  /** The head, when it was confirmed at most `maxAgeMs` ago; else undefined (the next quote reads the latest block). */
  fresh(chainId: number): bigint | undefined;
  /** The block a quote read as the latest, just now. Heads never move back (a lagging fallback node). */
  confirm(chainId: number, blockNumber: bigint): void;
}

/** `maxAgeMs` 0 turns pinning off: every quote reads the latest block. */
export function createHeadTracker(maxAgeMs: number, now: () => number = Date.now): HeadTracker {
  const heads = new Map<number, { blockNumber: bigint; confirmedAt: number }>();
  return {
    fresh(chainId) {
      const head = heads.get(chainId);
      return head !== undefined && now() - head.confirmedAt < maxAgeMs ? head.blockNumber : undefined;
    },
    confirm(chainId, blockNumber) {
      const head = heads.get(chainId);
      if (head === undefined || blockNumber >= head.blockNumber) heads.set(chainId, { blockNumber, confirmedAt: now() });
    },
  };
}
