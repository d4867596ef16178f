// How a quoter is set up: its chains, the search strategy and its limits, the deadline, the answers kept, where
// warnings go, how heads are followed (a follower per chain).
import type { ChainRegistry } from "../chain/rpc/client.ts";
import { createHeadFollower, type HeadFollower } from "../chain/head/follower.ts";
import { SETTINGS } from "../config.ts";
import type { AnswerCacheLimits } from "./answerCache.ts";
import type { SearchSharing } from "./replicas/sharedSearches.ts";
import { followerLog, type ServiceLogger } from "./warnings.ts";

export type SearchStrategy = "single-call" | "sequential";

export interface QuoterOptions {
  readonly chains: ChainRegistry;
  /** Default "single-call": the whole quote in one eth_call where the endpoint runs deployless calls. */
  readonly strategy?: SearchStrategy;
  /** Gas of the single-call search (default 30,000,000). */
  readonly searchGasCap?: bigint;
  /** The most candidates a search=exact quote quotes (default 32). */
  readonly exactMaxCandidates?: number;
  /** The most one quote may take, the wait for its block and all endpoints included, before it is a 503 (default 10,000 ms). */
  readonly deadlineMs?: number;
  /** Where warnings go; inside a quote opened by the HTTP layer, that request's logger (with its request id). */
  readonly logger?: ServiceLogger;
  /** Answers kept by block (default off). */
  readonly answerCache?: AnswerCacheLimits;
  /** Polling of a chain without a WebSocket endpoint: the longest interval, in ms (HEAD_POLL_MS's default). */
  readonly headPollMs?: number;
  /** How long every endpoint may report an older head before the head moved back, in ms (HEAD_MOVED_BACK_MS's default). */
  readonly headMovedBackMs?: number;
  /** Timeout of a request over a chain's WebSocket, in ms (RPC_TIMEOUT_MS's default). */
  readonly rpcTimeoutMs?: number;
  /** Searches shared with other replicas through Redis (REDIS_URL); absent: each search is this process's own. */
  readonly sharing?: SearchSharing;
}

/** A head follower per chain, as the options say; `onReplaced` hears the blocks each chain replaced. */
export function followChains(options: QuoterOptions, onReplaced: (chainId: number, hashes: readonly string[]) => void): Map<number, HeadFollower> {
  const followers = new Map<number, HeadFollower>();
  for (const chain of options.chains.values()) {
    const follower = createHeadFollower({
      chain,
      pollMs: options.headPollMs ?? SETTINGS.HEAD_POLL_MS.default,
      movedBackMs: options.headMovedBackMs ?? SETTINGS.HEAD_MOVED_BACK_MS.default,
      timeoutMs: options.rpcTimeoutMs ?? SETTINGS.RPC_TIMEOUT_MS.default,
      ...(chain.endpoints[0]?.observer ? { observer: chain.endpoints[0].observer } : {}),
      ...(options.logger ? { log: followerLog(options.logger) } : {}),
    });
    follower.onReplaced((hashes) => onReplaced(chain.chainId, hashes));
    followers.set(chain.chainId, follower);
  }
  return followers;
}
