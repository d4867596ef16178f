// Live quotes: the answer of each distinct watched quote at every new head of its chain, searched once per head
// however many watchers ask (through the quoter, so shared with plain quotes: the answer cache, the coalescing of
// identical searches at a block, the RPC limits), and told to each watcher only when it differs from what that
// watcher was last told in anything but its block, or when the block of what it was last told was replaced
// (semantics §11: nothing about a replaced block is sent). A market that settled or ended ends its watches.
import type { Hex } from "viem";
import { isLiquidityRequest, isPositionRequest, type AnyQuoteRequest } from "../quote/positionRequest.ts";
import type { AnswerBody } from "./answerAtBlock.ts";
import { newQuoteRecord, type ChainFollow, type Quoter } from "./api.ts";
import { requestKey } from "./coalescer.ts";
import { answerOf, batchAnswerOf, failureOf, type Answer, type LiveEndReason, type LiveEvent } from "./liveAnswers.ts";

export type { LiveEndReason, LiveEvent } from "./liveAnswers.ts";

export type LiveWatcher = (event: LiveEvent) => void;

export interface LiveQuotesOptions {
  readonly quoter: Quoter & { follow(chainId: number): ChainFollow | undefined; quoteBatch?: Quoter["quoteBatch"]; quotePosition?: Quoter["quotePosition"] };
  /** Told of each search started for the watches (once per distinct quote and head) and of each head. */
  readonly observe?: { readonly search?: () => void; readonly head?: () => void };
}

export interface LiveQuotes {
  /** Whether quotes of this chain can be watched: the quoter follows its head. */
  follows(chainId: number): boolean;
  /** Tells `watcher` the answer to `request` now and whenever it changes; returns the way to stop. */
  watch(request: AnyQuoteRequest, watcher: LiveWatcher): () => void;
  /** The same for a batch of quotes of one chain (`batch` events: every answer at one block); `key` names it. */
  watchBatch(requests: readonly AnyQuoteRequest[], chainId: number, key: string, watcher: LiveWatcher): () => void;
  /** Distinct quotes watched now. */
  readonly watches: number;
  /** Stops every watch (the watchers are not told). */
  close(): void;
}

/** What each watcher was last told: its event's sameness and block. */
type Told = { sameness?: string; blockHash?: Hex | undefined };

type Watch = {
  readonly key: string;
  readonly chainId: number;
  /** The answer at the chain's head now. */
  readonly answer: () => Promise<Answer>;
  readonly follow: ChainFollow;
  readonly watchers: Map<LiveWatcher, Told>;
  running: boolean;
  /** A head came while the search ran: search again once it is done. */
  again: boolean;
  last?: Answer;
};

/** Per chain: its watches, the follower's listener and hold, released with the chain's last watch. */
type ChainWatches = { readonly watches: Set<Watch>; readonly stop: () => void };

export function createLiveQuotes(options: LiveQuotesOptions): LiveQuotes {
  return new LiveQuoteHub(options);
}

class LiveQuoteHub implements LiveQuotes {
  private readonly quoter: LiveQuotesOptions["quoter"];
  private readonly observe: LiveQuotesOptions["observe"];
  private readonly byKey = new Map<string, Watch>();
  private readonly chains = new Map<number, ChainWatches>();
  private closed = false;

  constructor({ quoter, observe }: LiveQuotesOptions) {
    this.quoter = quoter;
    this.observe = observe;
  }

  get watches(): number {
    return this.byKey.size;
  }

  follows(chainId: number): boolean {
    return this.quoter.follow(chainId) !== undefined;
  }

  watch(request: AnyQuoteRequest, watcher: LiveWatcher): () => void {
    const { quoter } = this;
    let owner: string | undefined;
    const answer = () => {
      const record = newQuoteRecord();
      const asked: Promise<AnswerBody> = isPositionRequest(request)
        ? quoter.quotePosition!(request, { record })
        : isLiquidityRequest(request)
          ? quoter.quoteLiquidity!(request, { record })
          : quoter.quote(request, { record });
      return asked.then(
        (body) => {
          const said = answerOf({ type: "quote", body, blockNumber: BigInt(body.blockNumber) }, body.blockHash);
          const held = "owner" in body ? body.owner : undefined;
          owner ??= held;
          return held === owner ? said : { ...said, end: "transferred" as const, untold: true };
        },
        (error: unknown) => failureOf(error, record),
      );
    };
    return this.join(`${request.chainId}\n${requestKey(request)}`, request.chainId, answer, watcher);
  }

  watchBatch(requests: readonly AnyQuoteRequest[], chainId: number, key: string, watcher: LiveWatcher): () => void {
    const quoteBatch = this.quoter.quoteBatch?.bind(this.quoter);
    if (quoteBatch === undefined) throw new RangeError("this quoter answers no batch");
    const answer = () =>
      quoteBatch(requests).then(
        (batch) => batchAnswerOf({ type: "batch", batch, blockNumber: batch.head.number }, batch.head.hash),
        (error: unknown) => failureOf(error, newQuoteRecord()),
      );
    return this.join(`${chainId}\nbatch\n${key}`, chainId, answer, watcher);
  }

  /** `watcher` joins the watch `key` (made, and searched at once, when it is new); returns the way to leave. */
  private join(key: string, chainId: number, answer: Watch["answer"], watcher: LiveWatcher): () => void {
    const follow = this.quoter.follow(chainId);
    if (follow === undefined) throw new RangeError(`chain ${chainId} is not followed: its quotes cannot be watched`);
    let watch = this.byKey.get(key);
    const fresh = watch === undefined;
    if (watch === undefined) {
      watch = { key, chainId, answer, follow, watchers: new Map(), running: false, again: false };
      this.byKey.set(key, watch);
      this.chainOf(chainId, follow).watches.add(watch);
    }
    const told: Told = {};
    watch.watchers.set(watcher, told);
    const joined = watch;
    // A new watcher hears the latest answer at once; a search in flight tells it the newer one after. An answer
    // whose block was replaced is never told: the search at the new head is.
    const { last } = joined;
    const stale = last?.blockHash !== undefined && follow.isReplaced(last.blockHash);
    if (fresh || stale) void this.search(joined);
    else if (last !== undefined && !joined.running) tellOne(joined, watcher, told, last);
    return () => {
      joined.watchers.delete(watcher);
      if (joined.watchers.size === 0 && this.byKey.get(key) === joined) this.remove(joined);
    };
  }

  close(): void {
    this.closed = true;
    for (const chain of this.chains.values()) chain.stop();
    this.chains.clear();
    this.byKey.clear();
  }

  /** The chain's watches; the first one makes the follower tell each head and keep following. */
  private chainOf(chainId: number, follow: ChainFollow): ChainWatches {
    let chain = this.chains.get(chainId);
    if (chain === undefined) {
      const watches = new Set<Watch>();
      const release = follow.hold();
      const unlisten = follow.onHead(() => {
        this.observe?.head?.();
        for (const watch of watches) void this.search(watch);
      });
      chain = { watches, stop: () => (unlisten(), release()) };
      this.chains.set(chainId, chain);
    }
    return chain;
  }

  private remove(watch: Watch): void {
    this.byKey.delete(watch.key);
    const chain = this.chains.get(watch.chainId);
    if (chain === undefined) return;
    chain.watches.delete(watch);
    if (chain.watches.size === 0) {
      chain.stop();
      this.chains.delete(watch.chainId);
    }
  }

  /** The watch's answer at the chain's head, told to its watchers; one search at a time, the newest head next. */
  private async search(watch: Watch): Promise<void> {
    if (watch.running) {
      watch.again = true;
      return;
    }
    watch.running = true;
    this.observe?.search?.();
    const answer = await watch.answer();
    watch.running = false;
    if (this.closed || this.byKey.get(watch.key) !== watch) return;
    // An answer about a block replaced meanwhile is never told: the new head's search follows.
    if (answer.blockHash !== undefined && watch.follow.isReplaced(answer.blockHash)) watch.again = true;
    else if (answer.untold !== true) tell(watch, answer);
    if (answer.end !== undefined) return this.end(watch, answer.end);
    if (watch.again) {
      watch.again = false;
      void this.search(watch);
    }
  }

  private end(watch: Watch, reason: LiveEndReason): void {
    this.remove(watch);
    for (const watcher of watch.watchers.keys()) watcher({ type: "end", reason });
  }
}

function tell(watch: Watch, answer: Answer): void {
  watch.last = answer;
  for (const [watcher, told] of watch.watchers) tellOne(watch, watcher, told, answer);
}

/** Tells one watcher the answer unless it says what the watcher was last told, about a block still the chain's. */
function tellOne(watch: Watch, watcher: LiveWatcher, told: Told, answer: Answer): void {
  const replaced = told.blockHash !== undefined && watch.follow.isReplaced(told.blockHash);
  if (told.sameness === answer.sameness && !replaced) return;
  told.sameness = answer.sameness;
  told.blockHash = answer.blockHash;
  watcher(answer.event);
}
