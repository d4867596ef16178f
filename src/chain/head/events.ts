// Who hears of a chain's head as its follower learns it: the blocks found replaced (the answer cache drops theirs),
// quotes waiting for the head to move, the head's listeners (live streams), the log; and the counts /health and the
// metrics show.
import type { Hex } from "viem";
import type { BlockHeader } from "./blocks.ts";
import type { HeadLog } from "./log.ts";
import { Wakers, wait } from "../rpc/waiting.ts";

export class HeadEvents {
  /** Since start: new heads followed, reorgs seen, the blocks they replaced, and times the head moved back. */
  readonly counts = { newHeads: 0, reorgs: 0, replacedBlocks: 0, movedBack: 0 };
  private readonly replacedListeners: ((hashes: readonly Hex[]) => void)[] = [];
  private readonly headListeners = new Set<(head: BlockHeader) => void>();
  /** Whoever waits for the head to move. */
  private readonly waiting = new Wakers();
  /** The last head told, and when it was first. */
  private sighted: { readonly hash: Hex; readonly at: number } | undefined;

  onReplaced(listener: (hashes: readonly Hex[]) => void): void {
    this.replacedListeners.push(listener);
  }

  onHead(listener: (head: BlockHeader) => void): () => void {
    this.headListeners.add(listener);
    return () => this.headListeners.delete(listener);
  }

  /** Resolves when the head moves, or after `ms`, or when `signal` aborts. */
  waitForChange(ms: number, signal?: AbortSignal): Promise<void> {
    return wait({ ms, wakers: this.waiting, signal, onAbort: "resolve" });
  }

  /** Resolves when the head moves or after `ms`; rejects with the reason of `signal` when it aborts. */
  nextChange(ms: number, signal: AbortSignal): Promise<void> {
    return wait({ ms, wakers: this.waiting, signal });
  }

  /** Waits for the head to move now (none once every wait ended). */
  get waiters(): number {
    return this.waiting.size;
  }

  constructor(
    private readonly chainId: number,
    private readonly log: HeadLog | undefined,
  ) {}

  /** A new head followed (a reorg's too). */
  newHead(): void {
    this.counts.newHeads++;
  }

  /** A new head whose block is not on the recorded chain: `replaced` are gone. */
  reorganised(head: BlockHeader, replaced: readonly Hex[], from: string): void {
    this.counts.reorgs++;
    this.log?.warn(
      { chainId: this.chainId, blockNumber: head.number.toString(), blockHash: head.hash, replaced, from },
      "chain reorganised: answers of the replaced blocks are dropped",
    );
    this.replaced(replaced);
  }

  replaced(hashes: readonly Hex[]): void {
    this.counts.replacedBlocks += hashes.length;
    for (const listener of this.replacedListeners) listener(hashes);
  }

  /** The head moved back to `head` (semantics §11): `replaced` are gone; whoever waits is woken. */
  movedBack(head: BlockHeader | undefined, replaced: readonly Hex[]): void {
    this.counts.movedBack++;
    if (replaced.length > 0) this.replaced(replaced);
    this.moved(head);
  }

  /** How long ago (ms) the head moved to the block with this hash; undefined when that is not the last head told. */
  ageOf(hash: Hex): number | undefined {
    return this.sighted?.hash === hash ? Date.now() - this.sighted.at : undefined;
  }

  /** The head moved (up, or back): wakes whoever waits, then tells the head's listeners. */
  moved(head: BlockHeader | undefined): void {
    if (head !== undefined && this.sighted?.hash !== head.hash) this.sighted = { hash: head.hash, at: Date.now() };
    this.waiting.wakeAll();
    if (head !== undefined) for (const listener of this.headListeners) listener(head);
  }
}
