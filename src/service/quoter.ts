// One quote, in the order of semantics §3: checks that need only the request, then the chain reads (all at
// one block of one endpoint, through a MarketReader of either strategy), then the search. A transport
// failure moves the whole quote to the next endpoint, or ends in 503: it is never a search outcome.
import type { ChainClient, ChainRegistry } from "../chain/client.ts";
import { ChainOverloadedError } from "../chain/limiter.ts";
import { DEFAULT_SEARCH_GAS_CAP } from "../chain/searcher.ts";
import { checkExpectedPrice, type QuoteResponseBody } from "../quote/answer.ts";
import { DEFAULT_RETRY_AFTER_SECONDS, marketNotFound, rpcUnavailable } from "../quote/errors.ts";
import { DEFAULT_EXACT_MAX_CANDIDATES } from "../quote/exactSearch.ts";
import { unconfiguredChainDetail } from "../quote/explain.ts";
import type { QuoteRequest } from "../quote/request.ts";
import { answerFrom } from "./answer.ts";
import type { QuoterService } from "./api.ts";
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
  /** The most one quote may take, all endpoints included, before it is a 503 (default 10,000 ms). */
  readonly deadlineMs?: number;
  /** Where warnings go; inside a quote opened by the HTTP layer, that request's logger (with its request id). */
  readonly logger?: ServiceLogger;
}

export function createQuoter({
  chains,
  strategy = "single-call",
  searchGasCap = DEFAULT_SEARCH_GAS_CAP,
  exactMaxCandidates = DEFAULT_EXACT_MAX_CANDIDATES,
  deadlineMs = 10_000,
  logger,
}: QuoterOptions): QuoterService {
  const warn = quoteWarnings(logger);
  const endpoints = createEndpointStrategy({ singleCall: strategy === "single-call", searchGasCap, exactMaxCandidates, warn });
  const coalescer = createCoalescer<QuoteResponseBody>();

  /** Within the deadline, the first endpoint's answer that is not a transport failure, in its strategy. */
  async function quoteOnChain(chain: ChainClient, request: QuoteRequest): Promise<QuoteResponseBody> {
    const answer = (signal: AbortSignal) =>
      firstAnswer(
        chain.endpoints,
        (endpoint) => endpoints.answerAt(endpoint, request, signal, (reader) => answerFrom(reader, request, exactMaxCandidates)),
        signal,
        warn,
      );
    try {
      return await withDeadline(deadlineMs, answer);
    } catch (error) {
      throw toQuoteError(error, request.chainId, deadlineMs, warn);
    }
  }

  return {
    async quote(request) {
      const notPositive = checkExpectedPrice(request.expectedPrice);
      if (notPositive) throw notPositive;
      const chain = chains.get(request.chainId);
      if (!chain) throw marketNotFound([unconfiguredChainDetail(request.chainId)]);
      return coalescer.run(quoteKey(request), () => quoteOnChain(chain, request));
    },
    probe() {
      return endpoints.probe([...chains.values()].flatMap((chain) => chain.endpoints));
    },
  };
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
