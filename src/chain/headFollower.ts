// Each chain's head, followed (semantics §11): its number and hash, every new head and every replaced block.
// With RPC_WS_URL_<chainId>, new heads are pushed over viem's WebSocket transport (eth_subscribe newHeads), with a
// reconnect after a backoff and the chain id checked on each connection; without it, or while the socket is down,
// the latest block is polled through the chain's HTTP endpoints while the chain is asked about (at half its block
// time, at most HEAD_POLL_MS apart), and not at all once nobody has asked for a while. Every header, pushed or
// polled, goes through one ChainRecord, which tells a new head, a lagging endpoint and a reorg apart.
import { createPublicClient, webSocket, type Hex, type PublicClient, type WebSocketTransport } from "viem";
import { outsideQuote } from "../observability/quoteStats.ts";
import { headerByHash, latestHeader, readHeader, ensureChainId, type BlockHeader } from "./blocks.ts";
import { createChainRecord, type Observation } from "./chainRecord.ts";
import type { ChainClient, RpcMethod, RpcObserver } from "./client.ts";
import { ChainUnavailableError, EndpointsFailedError, type EndpointFailure } from "./errors.ts";
import { quantity } from "./call.ts";

/** How a chain's head is followed now: pushed, polled, or not at all (nobody asked for a while). */
export type FollowMode = "subscription" | "polling" | "idle";

export interface HeadStatus {
  readonly chainId: number;
  readonly followedBy: FollowMode;
  /** The WebSocket endpoint's state, when one is configured. */
  readonly webSocket?: "connected" | "connecting" | "wrong-chain";
  /** The chain the WebSocket endpoint serves, when it is another. */
  readonly webSocketChainId?: number;
  readonly head?: { readonly blockNumber: string; readonly blockHash: Hex; readonly ageMs: number };
  /** The mean block time the polling follows, when known. */
  readonly blockTimeMs?: number;
  /** Since start: new heads followed, reorgs seen, and the blocks they replaced. */
  readonly newHeads: number;
  readonly reorgs: number;
  readonly replacedBlocks: number;
}

export interface FollowerLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface HeadFollowerOptions {
  readonly chain: ChainClient;
  /** The longest interval between two polls of the latest block while the chain is asked about (HEAD_POLL_MS). */
  readonly pollMs: number;
  /** Polling stops this long after the last quote of the chain (default 30 s). */
  readonly idleMs?: number;
  /** Per request over the WebSocket, in ms. */
  readonly timeoutMs: number;
  readonly observer?: RpcObserver;
  readonly log?: FollowerLog;
}

/** The most the follower polls: at least this long apart, whatever the block time. */
const MIN_POLL_MS = 100;
const DEFAULT_IDLE_MS = 30_000;
/** Reconnect backoff of the WebSocket: from the first delay, doubling, to the last. */
const RECONNECT_FIRST_MS = 250;
const RECONNECT_MAX_MS = 30_000;
/** How often a connected WebSocket is asked its chain id: a socket that died silently is found within this. */
const SOCKET_CHECK_MS = 15_000;
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
  status(): HeadStatus;
  /** Connects the WebSocket, when one is configured (resolves once the first attempt ended). */
  start(): Promise<void>;
  close(): Promise<void>;
}

export function createHeadFollower({ chain, pollMs, idleMs = DEFAULT_IDLE_MS, timeoutMs, observer, log }: HeadFollowerOptions): HeadFollower {
  const { chainId } = chain;
  const record = createChainRecord();
  const replacedListeners: ((hashes: readonly Hex[]) => void)[] = [];
  let headSeenAt = 0;
  const counts = { newHeads: 0, reorgs: 0, replacedBlocks: 0 };
  let closed = false;
  /** Serializes observations: the record sees one header at a time, and ancestors are walked in between. */
  let observing: Promise<void> = Promise.resolve();
  let changed = deferred();

  const count = (method: RpcMethod, outcome: "ok" | "transport_failure" = "ok") => observer?.({ chainId, method, outcome });

  function observe(header: BlockHeader, from: "push" | "poll"): Promise<void> {
    observing = observing.then(() => apply(header, from)).catch((error: unknown) => log?.warn({ chainId, err: error }, "head follower: a header could not be followed"));
    return observing;
  }

  async function apply(header: BlockHeader, from: "push" | "poll"): Promise<void> {
    const seen = record.observe(header);
    if (seen.kind === "known" || seen.kind === "lagging") {
      if (seen.kind === "known") headSeenAt = Date.now();
      return;
    }
    headSeenAt = Date.now();
    counts.newHeads++;
    announce(seen, from);
    let next = seen.needsAncestor;
    for (let steps = 0; next !== undefined && steps < MAX_ANCESTOR_WALK && !closed; steps++) {
      const ancestor = await fetchAncestor(next);
      if (ancestor === undefined) break;
      const linked = record.link(ancestor);
      if (linked.replaced.length > 0) replacedNow(linked.replaced);
      next = linked.connected ? undefined : linked.next;
    }
    const moved = changed;
    changed = deferred();
    moved.resolve();
  }

  function announce(seen: Extract<Observation, { head: BlockHeader }>, from: string): void {
    if (seen.replaced.length === 0) return;
    counts.reorgs++;
    log?.warn({ chainId, blockNumber: seen.head.number.toString(), blockHash: seen.head.hash, replaced: seen.replaced, from }, "chain reorganised: answers of the replaced blocks are dropped");
    replacedNow(seen.replaced);
  }

  function replacedNow(hashes: readonly Hex[]): void {
    counts.replacedBlocks += hashes.length;
    for (const listener of replacedListeners) listener(hashes);
  }

  /** An ancestor by hash, from the first endpoint that has it; undefined when none does. */
  async function fetchAncestor(hash: Hex): Promise<BlockHeader | undefined> {
    for (const endpoint of chain.endpoints) {
      try {
        await ensureChainId(endpoint);
        const found = await headerByHash(endpoint, hash);
        if (found !== undefined) return found;
      } catch {
        // the next endpoint
      }
    }
    return undefined;
  }

  // -- Polling: the latest block through the HTTP endpoints, while the chain is asked about.
  let lastAskedAt = 0;
  let pollTimer: NodeJS.Timeout | undefined;
  let lastPollOk = 0;
  let refreshing: Promise<BlockHeader> | undefined;

  function pollInterval(): number {
    const blockTime = record.blockTimeMs();
    return blockTime === undefined ? pollMs : Math.min(pollMs, Math.max(MIN_POLL_MS, Math.floor(blockTime / 2)));
  }

  const polling = () => pollTimer !== undefined;

  function keepPolling(): void {
    if (closed || polling() || socketLive()) return;
    if (Date.now() - lastAskedAt > idleMs) return;
    pollTimer = outsideQuote(() =>
      setTimeout(() => {
        void refresh()
          .catch(() => undefined)
          .finally(() => {
            pollTimer = undefined;
            keepPolling();
          });
      }, pollInterval()),
    );
    pollTimer.unref();
  }

  function refresh(signal?: AbortSignal): Promise<BlockHeader> {
    refreshing ??= outsideQuote(() => readLatest()).finally(() => {
      refreshing = undefined;
    });
    const shared = refreshing;
    if (signal === undefined) return shared;
    return Promise.race([shared, aborted(signal)]);
  }

  /** The latest block of the first endpoint that answers it, observed before it is returned; else every failure. */
  async function readLatest(): Promise<BlockHeader> {
    const failures: EndpointFailure[] = [];
    for (const endpoint of chain.endpoints) {
      try {
        await ensureChainId(endpoint);
        const latest = await latestHeader(endpoint);
        lastPollOk = Date.now();
        await observe(latest, "poll");
        return record.head ?? latest;
      } catch (error) {
        if (!(error instanceof ChainUnavailableError)) throw error;
        error.source ??= endpoint.source;
        failures.push({ endpoint, error });
      }
    }
    throw new EndpointsFailedError(chainId, failures);
  }

  /** Live: a head that is being kept up to date, by a connected socket or by polls that answer. */
  function live(): boolean {
    if (record.head === undefined) return false;
    if (socketLive()) return true;
    return polling() && Date.now() - lastPollOk < 2 * pollInterval() + timeoutMs;
  }

  // -- The WebSocket: newHeads pushed, reconnected with a backoff.
  const ws = chain.webSocket;
  let socket: { client: PublicClient<WebSocketTransport>; rpc: Closable; checkTimer: NodeJS.Timeout } | undefined;
  let socketState: "connected" | "connecting" | "wrong-chain" | undefined = ws ? "connecting" : undefined;
  let socketChainId: number | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let reconnects = 0;

  const socketLive = () => socketState === "connected";

  async function connect(): Promise<void> {
    if (ws === undefined || closed) return;
    if (socketState !== "wrong-chain") socketState = "connecting";
    const client = createPublicClient({ transport: webSocket(ws.url, { reconnect: false, keepAlive: false, retryCount: 0, timeout: timeoutMs }) });
    let rpc: Closable | undefined;
    try {
      rpc = await client.transport.getRpcClient();
      const id = await client.request({ method: "eth_chainId" });
      count("eth_chainId");
      if (quantity(id) !== BigInt(chainId)) {
        socketState = "wrong-chain";
        socketChainId = Number(quantity(id));
        log?.warn({ chainId, endpoint: ws.label, servesChain: Number(quantity(id)) }, `${ws.source} serves another chain: new heads are polled instead`);
        rpc.close();
        return retryLater(RECONNECT_MAX_MS);
      }
      await client.transport.subscribe({
        params: ["newHeads"],
        onData(data) {
          const header = readHeader((data as { result?: unknown }).result);
          if (header !== undefined) void observe(header, "push");
        },
        onError() {
          void lost(client);
        },
      });
      count("eth_subscribe");
      const latest = readHeader(await client.request({ method: "eth_getBlockByNumber", params: ["latest", false] }));
      count("eth_getBlockByNumber");
      if (latest !== undefined) await observe(latest, "push");
      if (closed) return rpc.close();
      const checkTimer = setInterval(() => void checkSocket(client), SOCKET_CHECK_MS);
      checkTimer.unref();
      socket = { client, rpc, checkTimer };
      socketState = "connected";
      if (reconnects > 0) log?.info({ chainId, endpoint: ws.label }, "new heads: WebSocket subscription restored");
      reconnects = 0;
      stopPolling();
    } catch (error) {
      count("eth_subscribe", "transport_failure");
      if (reconnects === 0) log?.warn({ chainId, endpoint: ws.label, reason: describe(error) }, "new heads: WebSocket unavailable, polling meanwhile");
      rpc?.close();
      retryLater();
    }
  }

  /** The socket is asked its chain id now and then: a dead one is replaced, one serving another chain dropped. */
  async function checkSocket(client: PublicClient<WebSocketTransport>): Promise<void> {
    try {
      const id = await client.request({ method: "eth_chainId" });
      count("eth_chainId");
      if (quantity(id) !== BigInt(chainId)) throw new Error(`the socket now serves chain ${String(quantity(id))}`);
    } catch {
      await lost(client);
    }
  }

  async function lost(client: PublicClient<WebSocketTransport>): Promise<void> {
    if (socket?.client !== client) return;
    // Forgotten before it is closed: closing it reports the closure again, to this very function.
    const gone = socket;
    socket = undefined;
    clearInterval(gone.checkTimer);
    gone.rpc.close();
    socketState = "connecting";
    log?.warn({ chainId, endpoint: ws?.label }, "new heads: WebSocket lost, reconnecting (polling meanwhile)");
    retryLater();
    if (Date.now() - lastAskedAt <= idleMs) keepPolling();
  }

  function retryLater(delay?: number): void {
    if (closed || reconnectTimer !== undefined) return;
    const wait = delay ?? Math.min(RECONNECT_FIRST_MS * 2 ** reconnects, RECONNECT_MAX_MS);
    reconnects++;
    reconnectTimer = outsideQuote(() =>
      setTimeout(() => {
        reconnectTimer = undefined;
        void connect();
      }, wait),
    );
    reconnectTimer.unref();
  }

  function stopPolling(): void {
    if (pollTimer !== undefined) clearTimeout(pollTimer);
    pollTimer = undefined;
  }

  return {
    chainId,
    get head() {
      return record.head;
    },
    async headFor({ minBlock, fresh = false, signal }) {
      lastAskedAt = Date.now();
      keepPolling();
      if (fresh || !live()) await refresh(signal);
      let wait = 25;
      while (minBlock !== undefined && (record.head === undefined || record.head.number < minBlock)) {
        signal.throwIfAborted();
        // The push may come first; an endpoint's latest block may be newer still.
        await Promise.race([changed.promise, sleep(wait), aborted(signal)]);
        if (!socketLive() || record.head === undefined || record.head.number < minBlock) await refresh(signal).catch(() => undefined);
        wait = Math.min(wait * 2, 500);
      }
      signal.throwIfAborted();
      if (record.head === undefined) throw new EndpointsFailedError(chainId, []);
      return record.head;
    },
    isReplaced: (hash) => record.isReplaced(hash),
    refresh,
    async waitForChange(ms, signal) {
      await Promise.race([changed.promise, sleep(ms), ...(signal ? [aborted(signal).catch(() => undefined)] : [])]);
    },
    onReplaced(listener) {
      replacedListeners.push(listener);
    },
    status() {
      const head = record.head;
      const blockTimeMs = record.blockTimeMs();
      return {
        chainId,
        followedBy: socketLive() ? "subscription" : polling() || refreshing !== undefined ? "polling" : "idle",
        ...(socketState ? { webSocket: socketState } : {}),
        ...(socketState === "wrong-chain" && socketChainId !== undefined ? { webSocketChainId: socketChainId } : {}),
        ...(head ? { head: { blockNumber: head.number.toString(), blockHash: head.hash, ageMs: Date.now() - headSeenAt } } : {}),
        ...(blockTimeMs === undefined ? {} : { blockTimeMs }),
        ...counts,
      };
    },
    start: () => outsideQuote(() => connect()),
    async close() {
      closed = true;
      stopPolling();
      if (reconnectTimer !== undefined) clearTimeout(reconnectTimer);
      if (socket) {
        const open = socket;
        socket = undefined;
        socketState = undefined;
        clearInterval(open.checkTimer);
        open.rpc.close();
      }
    },
  };
}

/** viem's socket client: closing it closes the socket and forgets it (the next connection opens a new one). */
type Closable = { close(): void };

function describe(error: unknown): string {
  return error instanceof Error ? (error as { shortMessage?: string }).shortMessage ?? error.name : "unknown failure";
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}
