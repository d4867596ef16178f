// One quote, in the order of semantics §3: checks that need only the request, then the chain reads (all at
// one block of one endpoint, through a MarketReader of either strategy), then the search. A transport
// failure moves the whole quote to the next endpoint, or ends in 503: it is never a search outcome.
import type { ChainEndpoint, ChainRegistry } from "../chain/client.ts";
import { ChainUnavailableError } from "../chain/errors.ts";
import { ChainOverloadedError } from "../chain/limiter.ts";
import { sequentialReader } from "../chain/sequential.ts";
import { DEFAULT_SEARCH_GAS_CAP, SearcherUnsupportedError, probeDeployless, singleCallReader } from "../chain/singleCall.ts";
import { checkExpectedPrice, type QuoteResponseBody } from "../quote/answer.ts";
import { DEFAULT_RETRY_AFTER_SECONDS, marketNotFound, rpcUnavailable } from "../quote/errors.ts";
import { unconfiguredChainDetail } from "../quote/explain.ts";
import type { QuoteRequest } from "../quote/request.ts";
import { DEFAULT_EXACT_MAX_CANDIDATES } from "../quote/exactSearch.ts";
import { answerFrom } from "./answer.ts";
import { QuoteDeadlineError, withDeadline } from "./deadline.ts";
import { firstAnswer } from "./fallback.ts";
import type { QuoterService } from "./api.ts";
import { createCoalescer, quoteKey } from "./coalescer.ts";
import { quoteWarnings, type ServiceLogger } from "./warnings.ts";

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
  /** Per endpoint: can it run the single-call search? Absent: not yet known. */
  const deployless = new Map<ChainEndpoint, boolean>();
  const coalescer = createCoalescer<QuoteResponseBody>();

  async function canRunSingleCall(endpoint: ChainEndpoint): Promise<boolean> {
    if (strategy === "sequential") return false;
    const known = deployless.get(endpoint);
    if (known !== undefined) return known;
    const runs = await probeDeployless(endpoint, searchGasCap);
    if (!runs) quoteSequentially(endpoint, "the probe");
    else if (!deployless.has(endpoint)) deployless.set(endpoint, true);
    return deployless.get(endpoint)!;
  }

  /** Remembers, once per endpoint, that it cannot run the searcher: it is quoted sequentially from now on. */
  function quoteSequentially(endpoint: ChainEndpoint, decidedBy: string, error?: Error): void {
    if (deployless.get(endpoint) === false) return;
    deployless.set(endpoint, false);
    warn(
      { chainId: endpoint.chainId, endpoint: endpoint.label, decidedBy, ...(error ? { reason: error.message } : {}) },
      "endpoint does not run the deployless searcher: quoting sequentially",
    );
  }

  /** One quote's answer from one endpoint, in one deployless call where it can, else call by call. */
  async function answerAt(endpoint: ChainEndpoint, request: QuoteRequest, signal: AbortSignal): Promise<QuoteResponseBody> {
    if (await canRunSingleCall(endpoint)) {
      try {
        return await answerFrom(await singleCallReader(endpoint, request, searchGasCap, signal, exactMaxCandidates), request, exactMaxCandidates);
      } catch (error) {
        if (!(error instanceof SearcherUnsupportedError)) throw error;
        quoteSequentially(endpoint, "a quote's answer", error);
      }
    }
    return answerFrom(await sequentialReader(endpoint, request.marketAddress, request.marketId, signal), request, exactMaxCandidates);
  }

  async function quoteWithDeadline(endpoints: readonly ChainEndpoint[], request: QuoteRequest): Promise<QuoteResponseBody> {
    try {
      return await withDeadline(deadlineMs, (signal) => firstAnswer(endpoints, (endpoint) => answerAt(endpoint, request, signal), signal, warn));
    } catch (error) {
      throw toQuoteError(error, request.chainId);
    }
  }

  function toQuoteError(error: unknown, chainId: number): unknown {
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

  return {
    async quote(request) {
      const notPositive = checkExpectedPrice(request.expectedPrice);
      if (notPositive) throw notPositive;
      const chain = chains.get(request.chainId);
      if (!chain) throw marketNotFound([unconfiguredChainDetail(request.chainId)]);

      return coalescer.run(quoteKey(request), () => quoteWithDeadline(chain.endpoints, request));
    },
    async probe() {
      const endpoints = [...chains.values()].flatMap((chain) => chain.endpoints);
      await Promise.all(
        endpoints.map((endpoint) =>
          canRunSingleCall(endpoint).catch((error: unknown) => {
            if (!(error instanceof ChainUnavailableError || error instanceof ChainOverloadedError)) throw error;
          }),
        ),
      );
    },
  };
}
