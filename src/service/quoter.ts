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
import { SETTINGS } from "../config.ts";
import { DEFAULT_SEARCH_GAS_CAP } from "../chain/searcher.ts";
import { checkExpectedPrice, type QuoteResponseBody } from "../quote/quoteAnswer.ts";
import { marketNotFound } from "../quote/quoteErrors.ts";
import { DEFAULT_EXACT_MAX_CANDIDATES } from "../quote/exactSearch.ts";
import { unconfiguredChainDetail } from "../quote/explain.ts";
import type { QuoteRequest } from "../quote/request.ts";
import { answerAtEndpoint, type Searched } from "./answerAtBlock.ts";
import { createAnswerCache, type AnswerCache, type AnswerCacheLimits } from "./answerCache.ts";
import type { QuoteOptions, QuoteRecord, QuoterService } from "./api.ts";
import { createCoalescer, quoteKey } from "./coalescer.ts";
import { withDeadline } from "./deadline.ts";
import { toQuoteError, type Progress } from "./unavailable.ts";
import { createEndpointStrategy, type EndpointStrategy } from "./endpointStrategy.ts";
import { firstAnswer } from "./fallback.ts";
import { warningsTo, type ServiceLogger, type Warn } from "./warnings.ts";

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


export function createQuoter(options: QuoterOptions): QuoterService {
  return new Quoter(options);
}

/**
 * A chain quote's context: its chain, the chain's head follower, the request and its key at a block, where its
 * warnings go and the record the caller reads after.
 */
type ChainQuote = {
  readonly chain: ChainClient;
  readonly follower: HeadFollower;
  readonly request: QuoteRequest;
  readonly key: string;
  readonly warn: Warn;
  readonly record: QuoteRecord | undefined;
};

class Quoter implements QuoterService {
  private readonly chains: ChainRegistry;
  private readonly exactMaxCandidates: number;
  private readonly deadlineMs: number;
  private readonly warn: Warn;
  private readonly endpoints: EndpointStrategy;
  private readonly coalescer = createCoalescer<Searched>();
  private readonly answers: AnswerCache<QuoteResponseBody>;
  private readonly followers = new Map<number, HeadFollower>();

  constructor(options: QuoterOptions) {
    const { chains, strategy = "single-call", searchGasCap = DEFAULT_SEARCH_GAS_CAP, logger } = options;
    this.chains = chains;
    this.exactMaxCandidates = options.exactMaxCandidates ?? DEFAULT_EXACT_MAX_CANDIDATES;
    this.deadlineMs = options.deadlineMs ?? SETTINGS.QUOTE_DEADLINE_MS.default;
    this.warn = warningsTo(logger);
    this.endpoints = createEndpointStrategy({ singleCall: strategy === "single-call", searchGasCap, exactMaxCandidates: this.exactMaxCandidates, warn: this.warn });
    this.answers = createAnswerCache<QuoteResponseBody>(options.answerCache ?? { maxEntries: 0, maxBytes: 0 });
    for (const chain of chains.values()) {
      const follower = createHeadFollower({
        chain,
        pollMs: options.headPollMs ?? SETTINGS.HEAD_POLL_MS.default,
        timeoutMs: options.rpcTimeoutMs ?? SETTINGS.RPC_TIMEOUT_MS.default,
        ...(chain.endpoints[0]?.observer ? { observer: chain.endpoints[0].observer } : {}),
        ...(logger ? { log: followerLog(logger) } : {}),
      });
      follower.onReplaced((hashes) => this.answers.drop(chain.chainId, hashes));
      this.followers.set(chain.chainId, follower);
    }
  }

  async quote(request: QuoteRequest, options: QuoteOptions = {}): Promise<QuoteResponseBody> {
    const notPositive = checkExpectedPrice(request.expectedPrice);
    if (notPositive) throw notPositive;
    const chain = this.chains.get(request.chainId);
    if (!chain) throw marketNotFound([unconfiguredChainDetail(request.chainId)]);
    const progress: Progress = { stage: "head" };
    const follower = this.followers.get(chain.chainId)!;
    const warn = options.log ? warningsTo(options.log) : this.warn;
    const quote = { chain, follower, request, key: quoteKey(request), warn, record: options.record };
    try {
      return await withDeadline(this.deadlineMs, (signal) => this.quoteAtHead(quote, options, signal, progress));
    } catch (error) {
      const context = { chainId: request.chainId, deadlineMs: this.deadlineMs, minBlock: request.minBlock, progress, newest: follower.head, warn };
      throw toQuoteError(error, context);
    }
  }

  probe(): Promise<void> {
    return this.endpoints.probe([...this.chains.values()].flatMap((chain) => chain.endpoints));
  }

  async start(): Promise<void> {
    await Promise.all([...this.followers.values()].map((follower) => follower.start()));
  }

  async close(): Promise<void> {
    await Promise.all([...this.followers.values()].map((follower) => follower.close()));
  }

  heads(): HeadStatus[] {
    return [...this.followers.values()].map((follower) => follower.status());
  }

  follow(chainId: number): HeadFollower | undefined {
    return this.followers.get(chainId);
  }

  /** At the chain's head (at least `minBlock`): the kept answer of an identical request there, or a search. */
  private async quoteAtHead(quote: ChainQuote, options: QuoteOptions, signal: AbortSignal, progress: Progress): Promise<QuoteResponseBody> {
    const { chain, follower, request, key, record } = quote;
    for (let attempt = 0; ; attempt++) {
      progress.stage = request.minBlock === undefined ? "head" : "minBlock";
      const fresh = options.noCache === true && attempt === 0;
      const head = await follower.headFor({ minBlock: request.minBlock, fresh, signal }).catch((error: unknown) => {
        if (error instanceof EndpointsFailedError) warnFailures(error, quote.warn);
        throw error;
      });
      progress.head = head;
      if (options.noCache !== true) {
        const cached = this.answers.get(chain.chainId, head.hash, key);
        if (record) recordCacheLookup(record, cached, head);
        if (cached !== undefined) return cached;
      }
      progress.stage = "search";
      const searched = await this.searchOnce(quote, head, signal, attempt, progress);
      // Not answered at this head (the endpoint lagged), or the chain replaced the block while it was searched.
      if (searched === undefined || follower.isReplaced(head.hash)) continue;
      if (record) recordSearch(record, searched, head);
      if (!searched.answer.ok) throw searched.answer.error;
      const answer = searched.answer.value;
      if (this.answers.enabled) this.answers.set(chain.chainId, head.hash, key, answer, 2 * (key.length + JSON.stringify(answer).length));
      return answer;
    }
  }

  /** The search at `head`, shared with identical requests; undefined when an endpoint did not have the block yet. */
  private async searchOnce(quote: ChainQuote, head: BlockHeader, signal: AbortSignal, attempt: number, progress: Progress): Promise<Searched | undefined> {
    let started = false;
    const start = (shared: AbortSignal) => {
      started = true;
      return this.searchAt(quote, head, shared);
    };
    try {
      return await this.coalescer.run(`${head.hash}\n${quote.key}`, start, signal);
    } catch (error) {
      if (!(error instanceof EndpointsFailedError && error.lagging)) throw error;
      // An endpoint does not have the head yet (it lags), or no longer (a reorg the follower is about to see):
      // ask again at the head once it moved, or the endpoint had a moment to catch up. Never at an older block.
      progress.stage = "lagging";
      progress.failure = error;
      void quote.follower.refresh().catch(() => undefined);
      await quote.follower.waitForChange(Math.min(25 * 2 ** attempt, 500), signal);
      signal.throwIfAborted();
      return undefined;
    } finally {
      // A joiner made no RPC request: its record says so, and takes the search's facts with its answer.
      if (!started && quote.record) quote.record.coalesced = true;
    }
  }

  /**
   * The first endpoint's answer at `head` that is not a failure of the chain, in the endpoint's strategy; its RPC
   * requests count in the record of the quote that started it.
   */
  private searchAt(quote: ChainQuote, head: BlockHeader, signal: AbortSignal): Promise<Searched> {
    const context = { block: head, signal, tally: quote.record, exactMaxCandidates: this.exactMaxCandidates };
    return firstAnswer(quote.chain.endpoints, (endpoint) => answerAtEndpoint(this.endpoints, endpoint, quote.request, context), signal, quote.warn);
  }
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

/** Whether the quote was answered from the cache, and then what it answered (its log line, the hit rate). */
function recordCacheLookup(record: QuoteRecord, cached: QuoteResponseBody | undefined, head: BlockHeader): void {
  record.cache = cached === undefined ? "miss" : "hit";
  if (cached === undefined) return;
  record.direction = cached.direction;
  record.blockNumber = head.number;
  record.blockHash = head.hash;
}

/** What the search that answered did (an earlier attempt's facts, at another head, are replaced). */
function recordSearch(record: QuoteRecord, { facts }: Searched, head: BlockHeader): void {
  delete record.direction;
  delete record.candidates;
  delete record.stoppedBy;
  Object.assign(record, facts, { blockHash: head.hash });
}
