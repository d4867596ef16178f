// Whether a chain's head moved back (semantics §11). An endpoint that reports an older head than the newest block
// seen is lagging at first; once every endpoint has kept reporting older heads, and none has served the newest
// block, for a bounded time (HEAD_MOVED_BACK_MS), the head moved back: a reorg to a shorter chain, or a development
// node reverted or restarted. Pure: the follower tells it what the endpoints said and when, and asks it what follows.
import type { BlockHeader } from "./blocks.ts";
import { MIN_CHECKS, checkEveryMs, doubtLongEnough } from "./movedBackTiming.ts";

export { MIN_CHECKS };

export class HeadRetreat {
  /** When the head (or a newer block) was last reported or served, epoch ms. */
  private confirmedAt: number;
  /** When an endpoint first reported an older head since then. */
  private olderSince: number | undefined;
  /** The newest of the older heads reported since then: the endpoints' head. */
  private endpointsHead: BlockHeader | undefined;
  private checks = 0;

  constructor(
    /** HEAD_MOVED_BACK_MS. */
    readonly boundMs: number,
    now: number,
  ) {
    this.confirmedAt = now;
  }

  /** How often every endpoint is checked while the head is in doubt (movedBackTiming.ts). */
  get checkEveryMs(): number {
    return checkEveryMs(this.boundMs);
  }

  /** Whether an endpoint reported an older head since the head was last confirmed. */
  get doubted(): boolean {
    return this.olderSince !== undefined;
  }

  /** The head, or a newer block, was reported or served: it is the chain's. */
  confirmed(now: number): void {
    this.confirmedAt = now;
    this.olderSince = undefined;
    this.endpointsHead = undefined;
    this.checks = 0;
  }

  /** An endpoint reported `header` as its latest block, older than the head. */
  older(header: BlockHeader, now: number): void {
    this.olderSince ??= now;
    if (this.endpointsHead === undefined || header.number >= this.endpointsHead.number) this.endpointsHead = header;
  }

  /** A check of every endpoint that answered found none with the head's block and none at or above its height. */
  checked(): void {
    if (this.olderSince !== undefined) this.checks++;
  }

  /**
   * The block the head moved back to, once it did: the head unconfirmed for the whole bound, older heads reported
   * for long enough, and {@link MIN_CHECKS} checks that found it gone (movedBackTiming.ts). Undefined while it may
   * still be lag.
   */
  movedBackTo(now: number): BlockHeader | undefined {
    if (this.olderSince === undefined || this.checks < MIN_CHECKS) return undefined;
    if (now - this.confirmedAt < this.boundMs || !doubtLongEnough(this.boundMs, now - this.olderSince)) return undefined;
    return this.endpointsHead;
  }
}
