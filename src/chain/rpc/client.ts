// The RPC endpoints of each configured chain: one JSON-RPC target per URL, in fallback order, sharing one
// limiter of in-flight requests per chain.
import { SETTINGS, redactUrl } from "../../config.ts";
import { createLimiter, type Limiter } from "./limiter.ts";
import { rpcTarget, type RpcTarget } from "./transport.ts";

/**
 * What the service has learnt of one endpoint while using it: whether it serves the configured chain (checked
 * with eth_chainId before its first use and again after it failed), and until when it asked to be left alone
 * (a rate limit's `Retry-After`).
 */
export interface EndpointState {
  /** `ok` once eth_chainId named the configured chain; the other chain's id when it named another. */
  chainId: "unchecked" | "ok" | { readonly other: number };
  /** The check in flight, shared by the quotes that wait for it, and when the last one ended (epoch ms). */
  checking?: Promise<void> | undefined;
  checkedAt?: number;
  /** Epoch ms before which no request is sent to it. */
  restingUntil: number;
  /** It refused an EIP-1898 block object (`{ blockHash }`): its calls name the block by number, checked by hash. */
  blocksByNumber?: boolean;
  /** Whether it runs eth_simulateV1 (semantics §12): absent until a trade asked it; false once it refused the method. */
  simulates?: boolean;
}

/** Where an endpoint says what the service learnt of it (once per endpoint). */
export interface EndpointLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface ChainEndpoint {
  readonly chainId: number;
  /** For logs: the URL without credentials, path or query (they often carry API keys). */
  readonly label: string;
  /** Where it is configured, for messages a user acts on: `RPC_URL_10`, or `RPC_URL_10 (URL 2 of 3)`. */
  readonly source: string;
  readonly state: EndpointState;
  /** Where its JSON-RPC requests go (src/chain/rpc/transport.ts). */
  readonly target: RpcTarget;
  /** Shared by every endpoint of the chain. */
  readonly limiter: Limiter;
  /** Told of every JSON-RPC request this endpoint made, once it has an outcome (metrics, per-quote counts). */
  readonly observer?: RpcObserver;
  readonly log?: EndpointLog;
}

/**
 * The JSON-RPC methods the quoter sends: a quote's (eth_simulateV1 for a trade, semantics §12), and its head
 * follower's (the block headers and the chain id).
 */
export type RpcMethod = "eth_call" | "eth_simulateV1" | "eth_blockNumber" | "eth_getBlockByNumber" | "eth_getBlockByHash" | "eth_chainId" | "eth_subscribe";

/**
 * How one JSON-RPC request ended: answered (`ok`), answered with a revert (semantics §1), answered with a
 * refusal of a deployless call (the probe only, semantics §7), answered that the node does not have the block
 * (`unknown_block`: it lags, or the block was replaced), or not answered properly (`transport_failure`).
 */
export type RpcOutcome = "ok" | "reverted" | "refused" | "unknown_block" | "transport_failure";

export interface RpcEvent {
  readonly chainId: number;
  readonly method: RpcMethod;
  readonly outcome: RpcOutcome;
}

export type RpcObserver = (event: RpcEvent) => void;

export interface ChainClient {
  readonly chainId: number;
  /** In the order of RPC_URL_<chainId>: a quote that cannot reach one moves to the next. */
  readonly endpoints: readonly ChainEndpoint[];
  /** RPC_WS_URL_<chainId>: where the chain's new heads are pushed, when configured. */
  readonly webSocket?: { readonly url: string; readonly label: string; readonly source: string };
}

export interface ChainClientOptions {
  /** Per JSON-RPC request timeout in milliseconds. */
  readonly timeoutMs: number;
  /** JSON-RPC requests in flight per chain (RPC_MAX_IN_FLIGHT's default when absent). */
  readonly maxInFlight?: number;
  /** JSON-RPC requests waiting for a slot per chain before new ones are refused (RPC_MAX_QUEUED's default when absent). */
  readonly maxQueued?: number;
  /** Told of every JSON-RPC request made (not of those the limiter refused before sending). */
  readonly observer?: RpcObserver;
  /** The most bytes one JSON-RPC answer may have (RPC_MAX_RESPONSE_BYTES's default when absent). */
  readonly maxResponseBytes?: number;
  /** RPC_WS_URL_<chainId> of each chain that has one. */
  readonly webSocketUrls?: ReadonlyMap<number, string>;
  /** Where the URLs come from, as messages name it (default `RPC_URL_<chainId>`; `--rpc` for the command line). */
  readonly source?: string;
  /** Where each endpoint's warnings go (none by default). */
  readonly log?: EndpointLog;
}

/**
 * No retries: a quote must be pinned to one block and answered promptly, so a failing endpoint is the next URL
 * of the list (for the whole quote) or a 503, never a silent second try. No CCIP-Read either: the quoter only
 * ever calls the market group.
 */
export function createChainClient(chainId: number, urls: readonly string[], options: ChainClientOptions): ChainClient {
  const limiter = createLimiter(
    chainId,
    options.maxInFlight ?? SETTINGS.RPC_MAX_IN_FLIGHT.default,
    options.maxQueued ?? SETTINGS.RPC_MAX_QUEUED.default,
  );
  const variable = options.source ?? `RPC_URL_${chainId}`;
  const endpoints = urls.map((url, index) => ({
    chainId,
    label: redactUrl(url),
    source: urls.length === 1 ? variable : `${variable} (URL ${index + 1} of ${urls.length})`,
    state: { chainId: "unchecked", restingUntil: 0 } satisfies EndpointState as EndpointState,
    target: rpcTarget(url, options.timeoutMs, options.maxResponseBytes ?? SETTINGS.RPC_MAX_RESPONSE_BYTES.default),
    limiter,
    ...(options.observer ? { observer: options.observer } : {}),
    ...(options.log ? { log: options.log } : {}),
  }));
  const ws = options.webSocketUrls?.get(chainId);
  return { chainId, endpoints, ...(ws ? { webSocket: { url: ws, label: redactUrl(ws), source: `RPC_WS_URL_${chainId}` } } : {}) };
}

export type ChainRegistry = ReadonlyMap<number, ChainClient>;

export function createChainRegistry(rpcUrls: ReadonlyMap<number, readonly string[]>, options: ChainClientOptions): ChainRegistry {
  return new Map([...rpcUrls].map(([chainId, urls]) => [chainId, createChainClient(chainId, urls, options)]));
}
