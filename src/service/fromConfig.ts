// The chain clients and the quoter as the configuration sets them up: one place for `npm start` and `quoter quote`.
import { createChainRegistry, type ChainRegistry, type RpcObserver } from "../chain/rpc/client.ts";
import type { Config } from "../config.ts";
import type { QuoterService } from "./api.ts";
import { createQuoter, type QuoterOptions } from "./quoter.ts";

export function createQuoterFromConfig(
  config: Config,
  rpcUrls: ReadonlyMap<number, readonly string[]>,
  options: {
    readonly observer?: RpcObserver;
    readonly logger?: QuoterOptions["logger"];
    /** The WebSocket endpoints to use instead of the configuration's (the embedded chain's own). */
    readonly webSocketUrls?: ReadonlyMap<number, string>;
    /** Where the URLs come from, when not from RPC_URL_<chainId> (the command line's `--rpc`). */
    readonly source?: string;
    /** Searches shared with other replicas (REDIS_URL). */
    readonly sharing?: QuoterOptions["sharing"];
  } = {},
): { chains: ChainRegistry; quoter: QuoterService } {
  const chains = createChainRegistry(rpcUrls, {
    timeoutMs: config.rpcTimeoutMs,
    maxResponseBytes: config.rpcMaxResponseBytes,
    webSocketUrls: options.webSocketUrls ?? config.rpcWsUrls,
    ...(options.source ? { source: options.source } : {}),
    maxInFlight: config.rpcMaxInFlight,
    maxQueued: config.rpcMaxQueued,
    ...(options.observer ? { observer: options.observer } : {}),
    ...(options.logger ? { log: options.logger } : {}),
  });
  const quoter = createQuoter({
    chains,
    strategy: config.searchStrategy,
    searchGasCap: config.searchGasCap,
    exactMaxCandidates: config.exactMaxCandidates,
    deadlineMs: config.quoteDeadlineMs,
    headPollMs: config.headPollMs,
    headMovedBackMs: config.headMovedBackMs,
    rpcTimeoutMs: config.rpcTimeoutMs,
    answerCache: { maxEntries: config.answerCacheEntries, maxBytes: config.answerCacheMaxBytes },
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.sharing ? { sharing: options.sharing } : {}),
  });
  return { chains, quoter };
}
