// One quote, in the order of semantics §3: checks that need only the request, then the chain reads (all at
// one block of one endpoint, through a MarketReader of either strategy), then the search. A transport
// failure moves the whole quote to the next endpoint, or ends in 503: it is never a search outcome.
import type { ChainClient, ChainRegistry } from "../chain/client.ts";
import { ChainOverloadedError } from "../chain/limiter.ts";
import { SETTINGS } from "../config.ts";
import { DEFAULT_SEARCH_GAS_CAP } from "../chain/searcher.ts";
import { checkExpectedPrice, type QuoteResponseBody } from "../quote/answer.ts";
import { DEFAULT_RETRY_AFTER_SECONDS, marketNotFound, rpcUnavailable } from "../quote/errors.ts";
import { DEFAULT_EXACT_MAX_CANDIDATES } from "../quote/exactSearch.ts";
import { unconfiguredChainDetail } from "../quote/explain.ts";
import type { QuoteRequest } from "../quote/request.ts";
import { currentQuoteStats } from "../observability/quoteStats.ts";
import { answerFrom } from "./answer.ts";
import { createAnswerCache, type AnswerCacheLimits } from "./answerCache.ts";
import type { QuoterService } from "./api.ts";
import { createCoalescer, quoteKey } from "./coalescer.ts";
import { QuoteDeadlineError, withDeadline } from "./deadline.ts";
import { createEndpointStrategy } from "./endpointStrategy.ts";
import { firstAnswer } from "./fallback.ts";
import { createHeadTracker } from "./headTracker.ts";
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
  /** The most one quote may take, all endpoints included, before it is a 503 (default 10,000 ms). */
  readonly deadlineMs?: number;
  /** Where warnings go; inside a quote opened by the HTTP layer, that request's logger (with its request id). */
  readonly logger?: ServiceLogger;
  /**
   * How long a chain's head, once a quote read it as the latest block, pins the quotes that follow (so that
   * identical requests in one block are answered from `answerCache`). Default 0: every quote reads the latest block.
   */
  readonly headMaxAgeMs?: number;
  /** Answers kept by block (default off). */
  readonly answerCache?: AnswerCacheLimits;
}

export function createQuoter({
  chains,
  strategy = "single-call",
  searchGasCap = DEFAULT_SEARCH_GAS_CAP,
  exactMaxCandidates = DEFAULT_EXACT_MAX_CANDIDATES,
  deadlineMs = SETTINGS.QUOTE_DEADLINE_MS.default,
  logger,
  headMaxAgeMs = 0,
  answerCache = { maxEntries: 0, maxBytes: 0 },
}: QuoterOptions): QuoterService {
  const warn = quoteWarnings(logger);
  const endpoints = createEndpointStrategy({ singleCall: strategy === "single-call", searchGasCap, exactMaxCandidates, warn });
  const coalescer = createCoalescer<QuoteResponseBody>();
  const heads = createHeadTracker(headMaxAgeMs);
  const answers = createAnswerCache<QuoteResponseBody>(answerCache);

  /** Within the deadline, the first endpoint's answer that is not a transport failure, in its strategy. */
  async function quoteOnChain(chain: ChainClient, request: QuoteRequest, block: bigint | undefined): Promise<QuoteResponseBody> {
    const answer = (signal: AbortSignal) =>
      firstAnswer(
        chain.endpoints,
        (endpoint) => endpoints.answerAt(endpoint, request, block, signal, (reader) => answerFrom(reader, request, exactMaxCandidates)),
        signal,
        warn,
      );
    try {
      return await withDeadline(deadlineMs, answer);
    } catch (error) {
      throw toQuoteError(error, request.chainId, deadlineMs, warn);
    }
  }

  /** At the chain's head while it is fresh, from the cache when this request was answered there; else a search. */
  async function quoteAtHead(chain: ChainClient, request: QuoteRequest, key: string): Promise<QuoteResponseBody> {
    const head = heads.fresh(chain.chainId);
    const cached = head === undefined ? undefined : answers.get(chain.chainId, head, key);
    noteCacheLookup(cached);
    if (cached !== undefined) return cached;
    const answer = await quoteOnChain(chain, request, head);
    const blockNumber = BigInt(answer.blockNumber);
    if (head === undefined) heads.confirm(chain.chainId, blockNumber);
    if (answers.enabled) answers.set(chain.chainId, blockNumber, key, answer, 2 * (key.length + JSON.stringify(answer).length));
    return answer;
  }

  return {
    async quote(request) {
      const notPositive = checkExpectedPrice(request.expectedPrice);
      if (notPositive) throw notPositive;
      const chain = chains.get(request.chainId);
      if (!chain) throw marketNotFound([unconfiguredChainDetail(request.chainId)]);
      const key = quoteKey(request);
      return coalescer.run(key, () => quoteAtHead(chain, request, key));
    },
    probe() {
      return endpoints.probe([...chains.values()].flatMap((chain) => chain.endpoints));
    },
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

/** The chain did not answer in time, or its request queue is full: 503, never a partial answer. */
function toQuoteError(error: unknown, chainId: number, deadlineMs: number, warn: Warn): unknown {
  if (error instanceof QuoteDeadlineError) {
    warn({ chainId, deadlineMs }, "quote deadline passed");
    return rpcUnavailable();
  }
  if (error instanceof ChainOverloadedError) {
    warn({ chainId }, "RPC queue full: quote refused");
    return rpcUnavailable(DEFAULT_RETRY_AFTER_SECONDS, [
      { param: "chainId", message: "too many RPC requests are waiting for this chain; retry later" },
    ]);
  }
  return error;
}
