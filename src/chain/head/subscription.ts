// A chain's new heads pushed over its WebSocket endpoint (RPC_WS_URL_<chainId>): viem's WebSocket transport,
// eth_subscribe newHeads, the chain id checked on each connection and now and then after, and a reconnect after a
// backoff when the socket fails or dies silently. Every header goes to the follower; whether the push is live
// decides whether the follower polls.
import { createPublicClient, webSocket, type PublicClient, type WebSocketTransport } from "viem";
import { readHeader, type BlockHeader } from "./blocks.ts";
import { quantity } from "../rpc/call.ts";
import type { ChainClient, RpcMethod } from "../rpc/client.ts";
import type { HeadLog } from "./log.ts";

/** Reconnect backoff: from the first delay, doubling, to the last. */
const RECONNECT_FIRST_MS = 250;
const RECONNECT_MAX_MS = 30_000;
/** How often a connected socket is asked its chain id: a socket that died silently is found within this. */
const SOCKET_CHECK_MS = 15_000;

export type SocketState = "connected" | "connecting" | "wrong-chain";

export interface HeadSubscriptionOptions {
  readonly chainId: number;
  readonly ws: NonNullable<ChainClient["webSocket"]>;
  /** Per request over the socket, in ms. */
  readonly timeoutMs: number;
  /** Each header pushed (and the latest block read on connecting), in order. */
  readonly onHeader: (header: BlockHeader) => Promise<void>;
  /** The push became live (stop polling) or was lost (poll meanwhile). */
  readonly onLive: (live: boolean) => void;
  /**
   * While the chain is `wanted`, the socket's latest block is read this often and told like a pushed one: a node
   * whose head moved back (a revert, a restart) pushes nothing.
   */
  readonly checkEveryMs: number;
  readonly wanted: () => boolean;
  readonly count: (method: RpcMethod, outcome?: "ok" | "transport_failure") => void;
  readonly log?: HeadLog | undefined;
}

/** viem's socket client: closing it closes the socket and forgets it (the next connection opens a new one). */
type Closable = { close(): void };
type Socket = {
  readonly client: PublicClient<WebSocketTransport>;
  readonly rpc: Closable;
  readonly checkTimer: NodeJS.Timeout;
  readonly headTimer: NodeJS.Timeout;
};

export class HeadSubscription {
  state: SocketState = "connecting";
  /** The chain the endpoint serves, when it is another. */
  otherChainId: number | undefined;
  private socket: Socket | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnects = 0;
  private closed = false;

  constructor(private readonly options: HeadSubscriptionOptions) {}

  get live(): boolean {
    return this.state === "connected";
  }

  /** Connects (resolves once this attempt ended, connected or not; a failed one is retried later). */
  start(): Promise<void> {
    return this.connect();
  }

  close(): void {
    this.closed = true;
    if (this.reconnectTimer !== undefined) clearTimeout(this.reconnectTimer);
    const open = this.socket;
    this.socket = undefined;
    if (open) stopTimers(open);
    open?.rpc.close();
  }

  private async connect(): Promise<void> {
    const { ws, chainId, timeoutMs, count, log } = this.options;
    if (this.closed) return;
    if (this.state !== "wrong-chain") this.state = "connecting";
    const client = createPublicClient({ transport: webSocket(ws.url, { reconnect: false, keepAlive: false, retryCount: 0, timeout: timeoutMs }) });
    let rpc: Closable | undefined;
    try {
      rpc = await client.transport.getRpcClient();
      if (!(await this.servesTheChain(client))) {
        rpc.close();
        return this.retryLater(RECONNECT_MAX_MS);
      }
      await this.subscribe(client);
      if (this.closed) return rpc.close();
      const checkTimer = setInterval(() => void this.check(client), SOCKET_CHECK_MS);
      checkTimer.unref();
      const headTimer = setInterval(() => void this.readHead(client), this.options.checkEveryMs);
      headTimer.unref();
      this.socket = { client, rpc, checkTimer, headTimer };
      this.state = "connected";
      if (this.reconnects > 0) log?.info({ chainId, endpoint: ws.label }, "new heads: WebSocket subscription restored");
      this.reconnects = 0;
      this.options.onLive(true);
    } catch (error) {
      count("eth_subscribe", "transport_failure");
      if (this.reconnects === 0) log?.warn({ chainId, endpoint: ws.label, reason: describe(error) }, "new heads: WebSocket unavailable, polling meanwhile");
      rpc?.close();
      this.retryLater();
    }
  }

  /** Its chain id is the chain's; else it is noted (and said once), and the socket is not used. */
  private async servesTheChain(client: PublicClient<WebSocketTransport>): Promise<boolean> {
    const { ws, chainId, count, log } = this.options;
    const id = quantity(await client.request({ method: "eth_chainId" }));
    count("eth_chainId");
    if (id === BigInt(chainId)) return true;
    this.state = "wrong-chain";
    this.otherChainId = Number(id);
    log?.warn({ chainId, endpoint: ws.label, servesChain: Number(id) }, `${ws.source} serves another chain: new heads are polled instead`);
    return false;
  }

  /** newHeads from now on, then the latest block (a head mined before the subscription took is not missed). */
  private async subscribe(client: PublicClient<WebSocketTransport>): Promise<void> {
    const { count, onHeader } = this.options;
    await client.transport.subscribe({
      params: ["newHeads"],
      onData: (data) => {
        const header = readHeader((data as { result?: unknown }).result);
        if (header !== undefined) void onHeader(header);
      },
      onError: () => void this.lost(client),
    });
    count("eth_subscribe");
    const latest = readHeader(await client.request({ method: "eth_getBlockByNumber", params: ["latest", false] }));
    count("eth_getBlockByNumber");
    if (latest !== undefined) await onHeader(latest);
  }

  /** Asked its chain id now and then: a dead socket is replaced, one now serving another chain dropped. */
  private async check(client: PublicClient<WebSocketTransport>): Promise<void> {
    try {
      const id = await client.request({ method: "eth_chainId" });
      this.options.count("eth_chainId");
      if (quantity(id) !== BigInt(this.options.chainId)) throw new Error(`the socket now serves chain ${String(quantity(id))}`);
    } catch {
      this.lost(client);
    }
  }

  /** The socket's latest block, told as if pushed, while the chain is asked about. */
  private async readHead(client: PublicClient<WebSocketTransport>): Promise<void> {
    if (!this.options.wanted()) return;
    try {
      const latest = readHeader(await client.request({ method: "eth_getBlockByNumber", params: ["latest", false] }));
      this.options.count("eth_getBlockByNumber");
      if (latest !== undefined && this.socket?.client === client) await this.options.onHeader(latest);
    } catch {
      this.lost(client);
    }
  }

  private lost(client: PublicClient<WebSocketTransport>): void {
    if (this.socket?.client !== client) return;
    // Forgotten before it is closed: closing it reports the closure again, to this very method.
    const gone = this.socket;
    this.socket = undefined;
    stopTimers(gone);
    gone.rpc.close();
    this.state = "connecting";
    this.options.log?.warn({ chainId: this.options.chainId, endpoint: this.options.ws.label }, "new heads: WebSocket lost, reconnecting (polling meanwhile)");
    this.retryLater();
    this.options.onLive(false);
  }

  private retryLater(delay?: number): void {
    if (this.closed || this.reconnectTimer !== undefined) return;
    const wait = delay ?? Math.min(RECONNECT_FIRST_MS * 2 ** this.reconnects, RECONNECT_MAX_MS);
    this.reconnects++;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, wait);
    this.reconnectTimer.unref();
  }
}

function stopTimers(socket: Socket): void {
  clearInterval(socket.checkTimer);
  clearInterval(socket.headTimer);
}

function describe(error: unknown): string {
  return error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.name) : "unknown failure";
}
