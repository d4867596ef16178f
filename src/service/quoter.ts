// One quote, in the order of semantics §3: checks that need only the request, then the block (the chain's head as
// its follower knows it, at least `minBlock`, semantics §11), then the chain reads (all at that block of one
// endpoint, through a MarketReader of either strategy), then the search. Identical requests at one block share one
// search and its kept answer; an answer of a block the chain replaced is never given: the quote starts again at the
// new head. A transport failure moves the whole quote to the next endpoint, or ends in 503: it is never a search
// outcome.
import type { ChainClient, ChainRegistry } from "../chain/client.ts";
import type { BlockHeader } from "../chain/blocks.ts";
import { EndpointsFailedError } from "../chain/chainErrors.ts";
import { createHeadFollower, type HeadFollower, type HeadStatus } from "../chain/headFollower.ts";
import { ChainOverloadedError } from "../chain/limiter.ts";
import { SETTINGS } from "../config.ts";
import { DEFAULT_SEARCH_GAS_CAP } from "../chain/searcher.ts";
import { checkExpectedPrice, type QuoteResponseBody } from "../quote/quoteAnswer.ts";
import { DEFAULT_RETRY_AFTER_SECONDS, marketNotFound, rpcUnavailable, type ErrorDetail } from "../quote/quoteErrors.ts";
import { DEFAULT_EXACT_MAX_CANDIDATES } from "../quote/exactSearch.ts";
import { unconfiguredChainDetail } from "../quote/explain.ts";
import type { QuoteRequest } from "../quote/request.ts";
import { currentQuoteStats } from "../observability/quoteStats.ts";
import { answerFrom } from "./answerAtBlock.ts";
import { createAnswerCache, type AnswerCacheLimits } from "./answerCache.ts";
import type { QuoteOptions, QuoterService } from "./api.ts";
import { createCoalescer, quoteKey } from "./coalescer.ts";
import { QuoteDeadlineError, withDeadline } from "./deadline.ts";
import { createEndpointStrategy } from "./endpointStrategy.ts";
import { firstAnswer } from "./fallback.ts";
import { quoteWarnings, type ServiceLogger, type Warn } from "./warnings.ts";

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
  /** Timeout of a request over a chain's WebSocket, in ms (RPC_TIMEOUT_MS's default). */
  readonly rpcTimeoutMs?: number;
}

/** Where a quote stands, for the details of the 503 it ends in when its deadline passes. */
type Progress = { stage: "head" | "minBlock" | "search" | "lagging"; head?: BlockHeader; failure?: EndpointsFailedError };

export function createQuoter({
  chains,
  strategy = "single-call",
  searchGasCap = DEFAULT_SEARCH_GAS_CAP,
  exactMaxCandidates = DEFAULT_EXACT_MAX_CANDIDATES,
  deadlineMs = SETTINGS.QUOTE_DEADLINE_MS.default,
  logger,
  answerCache = { maxEntries: 0, maxBytes: 0 },
  headPollMs = SETTINGS.HEAD_POLL_MS.default,
  rpcTimeoutMs = SETTINGS.RPC_TIMEOUT_MS.default,
}: QuoterOptions): QuoterService {
  const warn = quoteWarnings(logger);
  const endpoints = createEndpointStrategy({ singleCall: strategy === "single-call", searchGasCap, exactMaxCandidates, warn });
  const coalescer = createCoalescer<QuoteResponseBody>();
  const answers = createAnswerCache<QuoteResponseBody>(answerCache);
  const followers = new Map<number, HeadFollower>();
  for (const chain of chains.values()) {
    const follower = createHeadFollower({
      chain,
      pollMs: headPollMs,
      timeoutMs: rpcTimeoutMs,
      ...(chain.endpoints[0]?.observer ? { observer: chain.endpoints[0].observer } : {}),
      ...(logger ? { log: followerLog(logger) } : {}),
    });
    follower.onReplaced((hashes) => answers.drop(chain.chainId, hashes));
    followers.set(chain.chainId, follower);
  }

  /** The first endpoint's answer at `head` that is not a failure of the chain, in the endpoint's strategy. */
  function searchAt(chain: ChainClient, request: QuoteRequest, head: BlockHeader, signal: AbortSignal): Promise<QuoteResponseBody> {
    return firstAnswer(
      chain.endpoints,
      (endpoint) => endpoints.answerAt(endpoint, request, head, signal, (reader) => answerFrom(reader, request, exactMaxCandidates)),
      signal,
      warn,
    );
  }

  /** At the chain's head (at least `minBlock`): the kept answer of an identical request there, or a search. */
  async function quoteAtHead(
    chain: ChainClient,
    follower: HeadFollower,
    request: QuoteRequest,
    options: QuoteOptions,
    signal: AbortSignal,
    progress: Progress,
  ): Promise<QuoteResponseBody> {
    const key = quoteKey(request);
    for (let attempt = 0; ; attempt++) {
      progress.stage = request.minBlock === undefined ? "head" : "minBlock";
      const head = await follower.headFor({ minBlock: request.minBlock, fresh: options.noCache === true && attempt === 0, signal }).catch((error: unknown) => {
        if (error instanceof EndpointsFailedError) warnFailures(error, warn);
        throw error;
      });
      progress.head = head;
      if (options.noCache !== true) {
        const cached = answers.get(chain.chainId, head.hash, key);
        noteCacheLookup(cached);
        if (cached !== undefined) return cached;
      }
      progress.stage = "search";
      let answer: QuoteResponseBody;
      try {
        answer = await coalescer.run(`${head.hash}\n${key}`, (shared) => searchAt(chain, request, head, shared), signal);
      } catch (error) {
        if (!(error instanceof EndpointsFailedError && error.lagging)) throw error;
        // An endpoint does not have the head yet (it lags), or no longer (a reorg the follower is about to see):
        // ask again at the head once it moved, or the endpoint had a moment to catch up. Never at an older block.
        progress.stage = "lagging";
        progress.failure = error;
        void follower.refresh().catch(() => undefined);
        await follower.waitForChange(Math.min(25 * 2 ** attempt, 500), signal);
        signal.throwIfAborted();
        continue;
      }
      // The chain replaced the block while it was searched: the answer is of no block any more.
      if (follower.isReplaced(head.hash)) continue;
      if (answers.enabled) answers.set(chain.chainId, head.hash, key, answer, 2 * (key.length + JSON.stringify(answer).length));
      return answer;
    }
  }

  return {
    async quote(request, options = {}) {
      const notPositive = checkExpectedPrice(request.expectedPrice);
      if (notPositive) throw notPositive;
      const chain = chains.get(request.chainId);
      if (!chain) throw marketNotFound([unconfiguredChainDetail(request.chainId)]);
      const progress: Progress = { stage: "head" };
      const follower = followers.get(chain.chainId)!;
      try {
        return await withDeadline(deadlineMs, (signal) => quoteAtHead(chain, follower, request, options, signal, progress));
      } catch (error) {
        throw toQuoteError(error, { chainId: request.chainId, deadlineMs, minBlock: request.minBlock, progress, newest: follower.head, warn });
      }
    },
    probe() {
      return endpoints.probe([...chains.values()].flatMap((chain) => chain.endpoints));
    },
    async start() {
      await Promise.all([...followers.values()].map((follower) => follower.start()));
    },
    async close() {
      await Promise.all([...followers.values()].map((follower) => follower.close()));
    },
    heads(): HeadStatus[] {
      return [...followers.values()].map((follower) => follower.status());
    },
  };
}

/** Each endpoint that failed to give the chain's latest block, as the quote's own warnings (with its request id). */
function warnFailures(error: EndpointsFailedError, warn: Warn): void {
  for (const { endpoint, error: failure } of error.failures) {
    warn({ chainId: endpoint.chainId, endpoint: endpoint.label, reason: failure.reason }, "RPC endpoint failed");
  }
}

function followerLog(logger: ServiceLogger) {
  const info = (logger as { info?: ServiceLogger["warn"] }).info;
  return {
    warn: (fields: Record<string, unknown>, message: string) => logger.warn(fields, message),
    info: (fields: Record<string, unknown>, message: string) => (info ? info.call(logger, fields, message) : undefined),
  };
}

/** Whether the quote running now was answered from the cache, and then what it answered (its log line, the hit rate). */
function noteCacheLookup(cached: QuoteResponseBody | undefined): void {
  const stats = currentQuoteStats();
  if (!stats) return;
  stats.cache = cached === undefined ? "miss" : "hit";
  if (cached === undefined) return;
  stats.direction = cached.direction;
  stats.blockNumber = BigInt(cached.blockNumber);
}

/**
 * The chain did not answer in time, its request queue is full, or no endpoint answered: 503, never a partial
 * answer, with details that say what was waited for and what each endpoint did.
 */
function toQuoteError(
  error: unknown,
  context: { chainId: number; deadlineMs: number; minBlock: bigint | undefined; progress: Progress; newest: BlockHeader | undefined; warn: Warn },
): unknown {
  const { chainId, deadlineMs, progress, warn } = context;
  if (error instanceof QuoteDeadlineError) {
    warn({ chainId, deadlineMs, stage: progress.stage }, "quote deadline passed");
    return rpcUnavailable(DEFAULT_RETRY_AFTER_SECONDS, deadlineDetails(context));
  }
  if (error instanceof ChainOverloadedError) {
    warn({ chainId }, "RPC queue full: quote refused");
    return rpcUnavailable(DEFAULT_RETRY_AFTER_SECONDS, [
      { param: "chainId", message: "too many RPC requests are waiting for this chain; retry later" },
    ]);
  }
  if (error instanceof EndpointsFailedError) return rpcUnavailable(error.retryAfterSeconds, [...error.details]);
  return error;
}

function deadlineDetails({
  chainId,
  deadlineMs,
  minBlock,
  progress,
  newest,
}: {
  chainId: number;
  deadlineMs: number;
  minBlock: bigint | undefined;
  progress: Progress;
  newest: BlockHeader | undefined;
}): ErrorDetail[] {
  const within = `within QUOTE_DEADLINE_MS (${deadlineMs} ms)`;
  const seen = newest ? `block ${newest.number}` : "none";
  if (progress.stage === "minBlock" && minBlock !== undefined) {
    return [
      {
        param: "minBlock",
        message: `chain ${chainId} did not reach block ${minBlock} ${within}: the newest block seen is ${newest?.number ?? "none"}; retry once the block is mined, or check that the transaction is on chain ${chainId}`,
      },
    ];
  }
  if (progress.stage === "lagging" && progress.head && progress.failure) {
    return [
      {
        param: "chainId",
        message: `no endpoint of chain ${chainId} served its head, block ${progress.head.number} (${progress.head.hash}), ${within}; an endpoint that lags behind the chain cannot answer at its newest block`,
      },
      ...progress.failure.details,
    ];
  }
  return [{ param: "chainId", message: `chain ${chainId} did not answer ${within} (the newest block seen: ${seen})` }];
}
