// One viem public client per configured chain, speaking plain JSON-RPC over HTTP.
import { createPublicClient, fallback, http, type PublicClient, type Transport } from "viem";

export interface ChainClient {
  readonly chainId: number;
  readonly client: PublicClient<Transport>;
}

export interface ChainClientOptions {
  /** Per-request timeout in milliseconds. */
  readonly timeoutMs: number;
}

/**
 * Retries are off: a quote must be pinned to one block and answered promptly, so a failing endpoint is a
 * 503 (or the next URL of the list), never a silent second try. CCIP-Read is off: the quoter only ever
 * calls the market group.
 */
export function createChainClient(chainId: number, urls: readonly string[], options: ChainClientOptions): ChainClient {
  const transports = urls.map((url) => http(url, { retryCount: 0, timeout: options.timeoutMs }));
  const transport = transports.length === 1 ? transports[0]! : fallback(transports, { retryCount: 0, rank: false });
  const client = createPublicClient({ transport, ccipRead: false, cacheTime: 0, pollingInterval: 1_000 });
  return { chainId, client };
}

export type ChainRegistry = ReadonlyMap<number, ChainClient>;

export function createChainRegistry(rpcUrls: ReadonlyMap<number, readonly string[]>, options: ChainClientOptions): ChainRegistry {
  return new Map([...rpcUrls].map(([chainId, urls]) => [chainId, createChainClient(chainId, urls, options)]));
}
