// The RPC endpoints of each configured chain: one JSON-RPC target per URL, in fallback order, sharing one
// limiter of in-flight requests per chain.
import { SETTINGS, redactUrl } from "../config.ts";
import { createLimiter, type Limiter } from "./limiter.ts";
import { rpcTarget, type RpcTarget } from "./transport.ts";

export interface ChainEndpoint {
  readonly chainId: number;
  /** For logs: the URL without credentials, path or query (they often carry API keys). */
  readonly label: string;
  /** Where its JSON-RPC requests go (src/chain/transport.ts). */
  readonly target: RpcTarget;
  /** Shared by every endpoint of the chain. */
  readonly limiter: Limiter;
  /** Told of every JSON-RPC request this endpoint made, once it has an outcome (metrics, per-quote counts). */
  readonly observer?: RpcObserver;
}

/** The JSON-RPC methods the quoter sends. */
export type RpcMethod = "eth_call" | "eth_blockNumber";

/**
 * How one JSON-RPC request ended: answered (`ok`), answered with a revert (semantics §1), answered with a
 * refusal of a deployless call (the probe only, semantics §7), or not answered properly (`transport_failure`).
 */
export type RpcOutcome = "ok" | "reverted" | "refused" | "transport_failure";

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
  const endpoints = urls.map((url) => ({
    chainId,
    label: redactUrl(url),
    target: rpcTarget(url, options.timeoutMs),
    limiter,
    ...(options.observer ? { observer: options.observer } : {}),
  }));
  return { chainId, endpoints };
}

export type ChainRegistry = ReadonlyMap<number, ChainClient>;

export function createChainRegistry(rpcUrls: ReadonlyMap<number, readonly string[]>, options: ChainClientOptions): ChainRegistry {
  return new Map([...rpcUrls].map(([chainId, urls]) => [chainId, createChainClient(chainId, urls, options)]));
}
