// Each chain's head, followed (semantics §11): its number and hash, every new head and every replaced block.
// With RPC_WS_URL_<chainId>, new heads are pushed over viem's WebSocket transport (eth_subscribe newHeads), with a
// reconnect after a backoff and the chain id checked on each connection; without it, or while the socket is down,
// the latest block is polled through the chain's HTTP endpoints while the chain is asked about (at half its block
// time, at most HEAD_POLL_MS apart), and not at all once nobody has asked for a while. Every header, pushed or
// polled, goes through one ChainRecord, which tells a new head, a lagging endpoint and a reorg apart.
import type { Hex } from "viem";
import { headerFromAny, type BlockHeader } from "./blocks.ts";
import { EndpointsFailedError } from "../rpc/chainErrors.ts";
import { createChainRecord } from "./chainRecord.ts";
import type { ChainClient, RpcMethod, RpcObserver } from "../rpc/client.ts";
import { DEFAULT_IDLE_MS, HeadPoller } from "./polling.ts";
import { HeadDoubt } from "./doubt.ts";
import { HeadEvents } from "./events.ts";
import { HeadSubscription } from "./subscription.ts";
import type { HeadLog } from "./log.ts";
import { socketReadEveryMs } from "./movedBackTiming.ts";
import { headStatusOf, type HeadStatus } from "./status.ts";

export type { FollowMode, HeadStatus } from "./status.ts";
export type { BlockHeader } from "./blocks.ts";
export type { HeadLog as FollowerLog } from "./log.ts";

export interface HeadFollowerOptions {
  readonly chain: ChainClient;
  /** The longest interval between two polls of the latest block while the chain is asked about (HEAD_POLL_MS). */
  readonly pollMs: number;
  /** Polling stops this long after the last quote of the chain (default 30 s). */
  readonly idleMs?: number;
  /**
   * How long every endpoint may report an older head than the newest block seen, none serving that block, before
   * the head moved back (HEAD_MOVED_BACK_MS).
   */
  readonly movedBackMs: number;
  /** Per request over the WebSocket, in ms. */
  readonly timeoutMs: number;
  readonly observer?: RpcObserver;
  readonly log?: HeadLog;
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
  /** How long ago (ms) the block with this hash became the head; undefined when it is not the head now (§12's clock). */
  headAge(hash: Hex): number | undefined;
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
  private readonly events: HeadEvents;
  /** An endpoint's older head, until it is found to be lag or a head that moved back. */
  private readonly doubt: HeadDoubt;
  private readonly poller: HeadPoller;
  private readonly subscription: HeadSubscription | undefined;
  private headSeenAt = 0;
  private closed = false;
  /** Serializes observations: the record sees one header at a time, and ancestors are walked in between. */
  private observing: Promise<void> = Promise.resolve();

  constructor(private readonly options: HeadFollowerOptions) {
    const { chain, pollMs, idleMs = DEFAULT_IDLE_MS, timeoutMs, movedBackMs, log } = options;
    this.chainId = chain.chainId;
    this.events = new HeadEvents(chain.chainId, log);
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
            checkEveryMs: socketReadEveryMs(movedBackMs),
            wanted: () => this.poller.wanted,
            count: (method, outcome) => this.count(method, outcome),
            log,
          });
    this.doubt = new HeadDoubt({
      chainId: chain.chainId,
      endpoints: chain.endpoints,
      boundMs: movedBackMs,
      record: this.record,
      wanted: () => this.poller.wanted,
      observe: (header) => this.observe(header, "check"),
      serially: (step) => this.serially(step),
      movedBack: (replaced) => {
        this.headSeenAt = Date.now();
        this.events.movedBack(this.record.head, replaced);
      },
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
      await this.events.nextChange(wait, signal);
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

  headAge(hash: Hex): number | undefined {
    return this.record.head?.hash === hash ? this.events.ageOf(hash) : undefined;
  }

  refresh(signal?: AbortSignal): Promise<BlockHeader> {
    return this.poller.read(signal);
  }

  waitForChange(ms: number, signal?: AbortSignal): Promise<void> {
    return this.events.waitForChange(ms, signal);
  }

  onReplaced(listener: (hashes: readonly Hex[]) => void): void {
    this.events.onReplaced(listener);
  }

  onHead(listener: (head: BlockHeader) => void): () => void {
    return this.events.onHead(listener);
  }

  hold(): () => void {
    return this.poller.hold();
  }

  status(): HeadStatus {
    const head = this.record.head;
    return headStatusOf({ chainId: this.chainId, socket: this.subscription, polling: this.poller.polling, head, headSeenAt: this.headSeenAt, blockTimeMs: this.record.blockTimeMs(), counts: this.events.counts });
  }

  async start(): Promise<void> {
    await this.subscription?.start();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.doubt.close();
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

  private observe(header: BlockHeader, from: "push" | "poll" | "check"): Promise<void> {
    return this.serially(() => this.apply(header, from));
  }

  /** Runs `step` once every observation before it is done: the record sees one change at a time. */
  private serially(step: () => void | Promise<void>): Promise<void> {
    this.observing = this.observing
      .then(step)
      .catch((error: unknown) => this.options.log?.warn({ chainId: this.chainId, err: error }, "head follower: a header could not be followed"));
    return this.observing;
  }

  private async apply(header: BlockHeader, from: "push" | "poll" | "check"): Promise<void> {
    const seen = this.record.observe(header);
    if (seen.kind === "lagging") {
      const head = this.record.head;
      if (head !== undefined && header.number < head.number) this.doubt.older(header);
      return;
    }
    this.doubt.confirmed();
    if (seen.kind === "known") {
      this.headSeenAt = Date.now();
      return;
    }
    this.headSeenAt = Date.now();
    this.events.newHead();
    if (seen.replaced.length > 0) this.events.reorganised(seen.head, seen.replaced, from);
    let next = seen.needsAncestor;
    for (let steps = 0; next !== undefined && steps < MAX_ANCESTOR_WALK && !this.closed; steps++) {
      const ancestor = await headerFromAny(this.options.chain.endpoints, next);
      if (ancestor === undefined) break;
      const linked = this.record.link(ancestor);
      if (linked.replaced.length > 0) this.events.replaced(linked.replaced);
      next = linked.connected ? undefined : linked.next;
    }
    this.events.moved(this.record.head);
  }
}
