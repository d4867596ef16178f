// Each chain's head, followed (semantics §11): its number and hash, every new head and every replaced block.
// With RPC_WS_URL_<chainId>, new heads are pushed over viem's WebSocket transport (eth_subscribe newHeads), with a
// reconnect after a backoff and the chain id checked on each connection; without it, or while the socket is down,
// the latest block is polled through the chain's HTTP endpoints while the chain is asked about (at half its block
// time, at most HEAD_POLL_MS apart), and not at all once nobody has asked for a while. Every header, pushed or
// polled, goes through one ChainRecord, which tells a new head, a lagging endpoint and a reorg apart.
import type { Hex } from "viem";
import { headerFromAny, type BlockHeader } from "./blocks.ts";
import { EndpointsFailedError } from "./chainErrors.ts";
import { createChainRecord, type Observation } from "./chainRecord.ts";
import type { ChainClient, RpcMethod, RpcObserver } from "./client.ts";
import { DEFAULT_IDLE_MS, HeadPoller } from "./headPolling.ts";
import { HeadSubscription, type SubscriptionLog } from "./headSubscription.ts";
import type { HeadStatus } from "./headStatus.ts";
import { aborted, deferred, sleep } from "./waiting.ts";

export type { FollowMode, HeadStatus } from "./headStatus.ts";

export type { SubscriptionLog as FollowerLog } from "./headSubscription.ts";

export interface HeadFollowerOptions {
  readonly chain: ChainClient;
  /** The longest interval between two polls of the latest block while the chain is asked about (HEAD_POLL_MS). */
  readonly pollMs: number;
  /** Polling stops this long after the last quote of the chain (default 30 s). */
  readonly idleMs?: number;
  /** Per request over the WebSocket, in ms. */
  readonly timeoutMs: number;
  readonly observer?: RpcObserver;
  readonly log?: SubscriptionLog;
}

/** The most ancestors fetched to fill a gap or find where a reorg began. */
const MAX_ANCESTOR_WALK = 64;

export interface HeadFollower {
  readonly chainId: number;
  /**
   * The block a quote that arrives now is answered at (semantics §11): the newest head seen, read from an
   * endpoint first when the follower is not live or `fresh` is asked (Cache-Control: no-cache), and at least
   * `minBlock`, waited for until `signal` aborts. Throws the endpoints' failure when none can be read.
   */
  headFor(options: { readonly minBlock?: bigint | undefined; readonly fresh?: boolean; readonly signal: AbortSignal }): Promise<BlockHeader>;
  /** The newest head seen, if any. */
  readonly head: BlockHeader | undefined;
  /** Whether the follower learnt that this block was replaced: nothing about it may be sent any more. */
  isReplaced(hash: Hex): boolean;
  /** Reads an endpoint's latest block now (coalesced): the way to learn of a reorg or of a lagging node's catch-up. */
  refresh(signal?: AbortSignal): Promise<BlockHeader>;
  /** Resolves when the head moves, or after `ms`, or when `signal` aborts. */
  waitForChange(ms: number, signal?: AbortSignal): Promise<void>;
  /** Told of the hashes of every replaced block, as soon as it is learnt. */
  onReplaced(listener: (hashes: readonly Hex[]) => void): void;
  /** Told of every new head, once it is followed (its replaced blocks told first); returns the way to stop. */
  onHead(listener: (head: BlockHeader) => void): () => void;
  /** Keeps the head followed (polled, without a WebSocket) until the returned release is called. */
  hold(): () => void;
  status(): HeadStatus;
  /** Connects the WebSocket, when one is configured (resolves once the first attempt ended). */
  start(): Promise<void>;
  close(): Promise<void>;
}

export function createHeadFollower(options: HeadFollowerOptions): HeadFollower {
  return new ChainHeadFollower(options);
}

/** The record of the chain's recent blocks, fed by the push (when a WebSocket is configured) and the polls. */
class ChainHeadFollower implements HeadFollower {
  readonly chainId: number;
  private readonly record = createChainRecord();
  private readonly replacedListeners: ((hashes: readonly Hex[]) => void)[] = [];
  private readonly headListeners = new Set<(head: BlockHeader) => void>();
  private readonly counts = { newHeads: 0, reorgs: 0, replacedBlocks: 0 };
  private readonly poller: HeadPoller;
  private readonly subscription: HeadSubscription | undefined;
  private headSeenAt = 0;
  private closed = false;
  /** Serializes observations: the record sees one header at a time, and ancestors are walked in between. */
  private observing: Promise<void> = Promise.resolve();
  private changed = deferred();

  constructor(private readonly options: HeadFollowerOptions) {
    const { chain, pollMs, idleMs = DEFAULT_IDLE_MS, timeoutMs, log } = options;
    this.chainId = chain.chainId;
    this.poller = new HeadPoller({
      chain,
      pollMs,
      idleMs,
      timeoutMs,
      blockTimeMs: () => this.record.blockTimeMs(),
      onHeader: async (header) => (await this.observe(header, "poll"), this.record.head ?? header),
      pushed: () => this.subscription?.live === true,
    });
    this.subscription =
      chain.webSocket === undefined
        ? undefined
        : new HeadSubscription({
            chainId: chain.chainId,
            ws: chain.webSocket,
            timeoutMs,
            onHeader: (header) => this.observe(header, "push"),
            onLive: (live) => (live ? this.poller.stop() : this.poller.keepPolling()),
            count: (method, outcome) => this.count(method, outcome),
            log,
          });
  }

  get head(): BlockHeader | undefined {
    return this.record.head;
  }

  async headFor({ minBlock, fresh = false, signal }: { readonly minBlock?: bigint | undefined; readonly fresh?: boolean; readonly signal: AbortSignal }): Promise<BlockHeader> {
    this.poller.asked();
    if (fresh || !this.live()) await this.refresh(signal);
    let wait = 25;
    while (minBlock !== undefined && (this.record.head === undefined || this.record.head.number < minBlock)) {
      signal.throwIfAborted();
      // The push may come first; an endpoint's latest block may be newer still.
      await Promise.race([this.changed.promise, sleep(wait), aborted(signal)]);
      const pushedFarEnough = this.subscription?.live === true && this.record.head !== undefined && this.record.head.number >= minBlock;
      if (!pushedFarEnough) await this.refresh(signal).catch(() => undefined);
      wait = Math.min(wait * 2, 500);
    }
    signal.throwIfAborted();
    if (this.record.head === undefined) throw new EndpointsFailedError(this.chainId, []);
    return this.record.head;
  }

  isReplaced(hash: Hex): boolean {
    return this.record.isReplaced(hash);
  }

  refresh(signal?: AbortSignal): Promise<BlockHeader> {
    return this.poller.read(signal);
  }

  async waitForChange(ms: number, signal?: AbortSignal): Promise<void> {
    await Promise.race([this.changed.promise, sleep(ms), ...(signal ? [aborted(signal).catch(() => undefined)] : [])]);
  }

  onReplaced(listener: (hashes: readonly Hex[]) => void): void {
    this.replacedListeners.push(listener);
  }

  onHead(listener: (head: BlockHeader) => void): () => void {
    this.headListeners.add(listener);
    return () => this.headListeners.delete(listener);
  }

  hold(): () => void {
    return this.poller.hold();
  }

  status(): HeadStatus {
    const head = this.record.head;
    const blockTimeMs = this.record.blockTimeMs();
    const socket = this.subscription;
    return {
      chainId: this.chainId,
      followedBy: socket?.live ? "subscription" : this.poller.polling ? "polling" : "idle",
      ...(socket ? { webSocket: socket.state } : {}),
      ...(socket?.state === "wrong-chain" && socket.otherChainId !== undefined ? { webSocketChainId: socket.otherChainId } : {}),
      ...(head ? { head: { blockNumber: head.number.toString(), blockHash: head.hash, ageMs: Date.now() - this.headSeenAt } } : {}),
      ...(blockTimeMs === undefined ? {} : { blockTimeMs }),
      ...this.counts,
    };
  }

  async start(): Promise<void> {
    await this.subscription?.start();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.poller.close();
    this.subscription?.close();
  }

  /** Live: a head that is being kept up to date, by a connected socket or by polls that answer. */
  private live(): boolean {
    if (this.record.head === undefined) return false;
    return this.subscription?.live === true || this.poller.current;
  }

  private count(method: RpcMethod, outcome: "ok" | "transport_failure" = "ok"): void {
    this.options.observer?.({ chainId: this.chainId, method, outcome });
  }

  private observe(header: BlockHeader, from: "push" | "poll"): Promise<void> {
    this.observing = this.observing
      .then(() => this.apply(header, from))
      .catch((error: unknown) => this.options.log?.warn({ chainId: this.chainId, err: error }, "head follower: a header could not be followed"));
    return this.observing;
  }

  private async apply(header: BlockHeader, from: "push" | "poll"): Promise<void> {
    const seen = this.record.observe(header);
    if (seen.kind === "known" || seen.kind === "lagging") {
      if (seen.kind === "known") this.headSeenAt = Date.now();
      return;
    }
    this.headSeenAt = Date.now();
    this.counts.newHeads++;
    this.announce(seen, from);
    let next = seen.needsAncestor;
    for (let steps = 0; next !== undefined && steps < MAX_ANCESTOR_WALK && !this.closed; steps++) {
      const ancestor = await headerFromAny(this.options.chain.endpoints, next);
      if (ancestor === undefined) break;
      const linked = this.record.link(ancestor);
      if (linked.replaced.length > 0) this.replacedNow(linked.replaced);
      next = linked.connected ? undefined : linked.next;
    }
    const moved = this.changed;
    this.changed = deferred();
    moved.resolve();
    const head = this.record.head;
    if (head !== undefined) for (const listener of this.headListeners) listener(head);
  }

  private announce(seen: Extract<Observation, { head: BlockHeader }>, from: string): void {
    if (seen.replaced.length === 0) return;
    this.counts.reorgs++;
    this.options.log?.warn(
      { chainId: this.chainId, blockNumber: seen.head.number.toString(), blockHash: seen.head.hash, replaced: seen.replaced, from },
      "chain reorganised: answers of the replaced blocks are dropped",
    );
    this.replacedNow(seen.replaced);
  }

  private replacedNow(hashes: readonly Hex[]): void {
    this.counts.replacedBlocks += hashes.length;
    for (const listener of this.replacedListeners) listener(hashes);
  }
}
