// One quote, in the order of semantics §3: checks that need only the request, then the block (the chain's head as
// its follower knows it, at least `minBlock`, semantics §11), then the chain reads (all at that block of one
// endpoint, through a MarketReader of either strategy), then the search. Identical requests at one block share one
// search and its kept answer (across replicas too, through Redis: searches.ts); an answer of a block the chain
// replaced is never given: the quote starts again at the new head. A transport failure moves the whole quote to
// the next endpoint, or ends in 503: it is never a search outcome.
import type { RpcTally } from "../chain/rpc/call.ts";
import type { ChainRegistry } from "../chain/rpc/client.ts";
import type { BlockHeader, HeadFollower, HeadStatus } from "../chain/head/follower.ts";
import { signalsFor } from "../chain/rpc/waiting.ts";
import { SETTINGS } from "../config.ts";
import { DEFAULT_SEARCH_GAS_CAP } from "../chain/searchers/searcher.ts";
import type { QuoteResponseBody } from "../quote/quoteAnswer.ts";
import { marketNotFound, quoteErrorAsResult, type QuoteError } from "../quote/quoteErrors.ts";
import type { PositionResponseBody } from "../quote/positionAnswer.ts";
import { checkAnyRequest, type AnyQuoteRequest, type PositionRequest } from "../quote/positionRequest.ts";
import type { LiquidityRequest } from "../quote/liquidityRequest.ts";
import type { LiquidityResponseBody } from "../quote/liquidityAnswer.ts";
import type { AnswerBody } from "./answerAtBlock.ts";
import { err, ok, type Result } from "../quote/result.ts";
import { DEFAULT_EXACT_MAX_CANDIDATES } from "../quote/exactSearch.ts";
import { unconfiguredChainDetail } from "../quote/explain.ts";
import type { QuoteRequest } from "../quote/request.ts";
import { plannedRequests, type LadderPlan } from "../quote/depthRequest.ts";
import { createAnswerCache, type AnswerCache } from "./answerCache.ts";
import type { BatchAnswer, MarketAt, PricedAnswer, QuoteOptions, QuoterService } from "./api.ts";
import { followChains, type QuoterOptions } from "./quoterOptions.ts";
import { quoteKey } from "./coalescer.ts";
import { withDeadline } from "./deadline.ts";
import { toQuoteError, type Progress } from "./unavailable.ts";
import { createEndpointStrategy, type EndpointStrategy } from "./endpointStrategy.ts";
import { searchLadder, searchTogether, type Presearched } from "./searchTogether.ts";
import { headFor, newerThanNotFound, readPriceAt } from "./atHead.ts";
import { recordCacheLookup, recordSearch } from "./quoteRecording.ts";
import { warningsTo, type Warn } from "./warnings.ts";
import { Searches, type ChainQuote } from "./searches.ts";
import { Trades } from "./trades.ts";

export type { QuoterOptions, SearchStrategy } from "./quoterOptions.ts";

export function createQuoter(options: QuoterOptions): QuoterService {
  return new Quoter(options);
}

class Quoter implements QuoterService {
  private readonly chains: ChainRegistry;
  private readonly exactMaxCandidates: number;
  private readonly deadlineMs: number;
  private readonly warn: Warn;
  private readonly endpoints: EndpointStrategy;
  private readonly answers: AnswerCache<AnswerBody>;
  private readonly followers: Map<number, HeadFollower>;
  private readonly searches: Searches;
  private readonly trades = new Trades();

  constructor(options: QuoterOptions) {
    const { chains, strategy = "single-call", searchGasCap = DEFAULT_SEARCH_GAS_CAP, logger } = options;
    this.chains = chains;
    this.exactMaxCandidates = options.exactMaxCandidates ?? DEFAULT_EXACT_MAX_CANDIDATES;
    this.deadlineMs = options.deadlineMs ?? SETTINGS.QUOTE_DEADLINE_MS.default;
    this.warn = warningsTo(logger);
    this.endpoints = createEndpointStrategy({ singleCall: strategy === "single-call", searchGasCap, exactMaxCandidates: this.exactMaxCandidates, warn: this.warn });
    this.answers = createAnswerCache<AnswerBody>(options.answerCache ?? { maxEntries: 0, maxBytes: 0 });
    this.followers = followChains(options, (chainId, hashes) => this.answers.drop(chainId, hashes));
    this.searches = new Searches(this.endpoints, this.exactMaxCandidates, options.sharing);
  }

  quote = (request: QuoteRequest, options: QuoteOptions = {}) => this.answer(request, options) as Promise<QuoteResponseBody>;
  /** Semantics §13: the same question of a held position (its market and its owner read at the block). */
  quotePosition = (request: PositionRequest, options: QuoteOptions = {}) => this.answer(request, options) as Promise<PositionResponseBody>;
  /** Semantics §14: the largest liquidity a budget mints in a range, proven. */
  quoteLiquidity = (request: LiquidityRequest, options: QuoteOptions = {}) => this.answer(request, options) as Promise<LiquidityResponseBody>;

  private async answer(request: AnyQuoteRequest, options: QuoteOptions): Promise<AnswerBody> {
    const notPositive = checkAnyRequest(request);
    if (notPositive) throw notPositive;
    return this.onChain(request.chainId, request.minBlock, options, (on, signal, progress) => {
      const quote = { ...on, request, key: quoteKey(request), record: options.record };
      return this.quoteAtHead(quote, options, signal, progress);
    });
  }

  /**
   * `run` on the chain's follower, with the quote's warnings, within the deadline: a chain not configured is 404,
   * and a failure of the chain (its deadline, its endpoints) the 503 that says what was waited for.
   */
  private async onChain<T>(
    chainId: number,
    minBlock: bigint | undefined,
    options: QuoteOptions,
    run: (on: Pick<ChainQuote, "chain" | "follower" | "warn">, signal: AbortSignal, progress: Progress) => Promise<T>,
  ): Promise<T> {
    const chain = this.chains.get(chainId);
    if (!chain) throw marketNotFound([unconfiguredChainDetail(chainId)]);
    const follower = this.followers.get(chainId)!;
    const warn = options.log ? warningsTo(options.log) : this.warn;
    const progress: Progress = { stage: "head" };
    try {
      return await withDeadline(this.deadlineMs, (signal) => run({ chain, follower, warn }, signal, progress));
    } catch (error) {
      throw toQuoteError(error, { chainId, deadlineMs: this.deadlineMs, minBlock, progress, newest: follower.head, warn });
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
  private async quoteAtHead(quote: ChainQuote, options: QuoteOptions, signal: AbortSignal, progress: Progress): Promise<AnswerBody> {
    for (let attempt = 0; ; attempt++) {
      const head = await headFor(quote, quote.request.minBlock, options.noCache === true && attempt === 0, signal, progress);
      const answer = await this.answerAtHead(quote, head, options, signal, attempt, progress);
      // Not answered at this head (the endpoint lagged, the chain replaced the block), or not found where a newer one may have it.
      if (answer === undefined || (await newerThanNotFound(quote.follower, head, [answer], signal, progress))) continue;
      if (!answer.ok) throw answer.error;
      const traded = await this.trades.withTrade(quote, head, answer.value, signal, attempt, progress);
      if (traded !== undefined) return traded;
    }
  }

  /** The answer at `head`: kept, or searched (and kept); undefined when it must be asked again (lag, a reorg). */
  private async answerAtHead(
    quote: ChainQuote,
    head: BlockHeader,
    options: QuoteOptions,
    signal: AbortSignal,
    attempt: number,
    progress: Progress,
  ): Promise<Result<AnswerBody, QuoteError> | undefined> {
    const { chain, follower, key, record } = quote;
    if (options.noCache !== true) {
      const cached = this.answers.get(chain.chainId, head.hash, key);
      if (record) recordCacheLookup(record, cached, head);
      if (cached !== undefined) return ok(cached);
    }
    progress.stage = "search";
    const searched = await this.searches.once(quote, head, options.noCache === true, signal, attempt, progress);
    if (searched === undefined || follower.isReplaced(head.hash)) return undefined;
    if (record) recordSearch(record, searched, head);
    this.trades.noteAsset(chain.chainId, head.hash, quote.request.marketAddress, searched.collateralAsset);
    const { answer } = searched;
    if (answer.ok && this.answers.enabled) this.answers.set(chain.chainId, head, key, answer.value, 2 * (key.length + JSON.stringify(answer.value).length));
    return answer;
  }

  /**
   * Every request (all of one chain) answered at one block, the newest head at least every `minBlock` asked: each
   * its body or its error; a block replaced meanwhile starts them all again at the new head.
   */
  async quoteBatch(requests: readonly AnyQuoteRequest[], options: QuoteOptions = {}): Promise<BatchAnswer> {
    const minBlock = requests.reduce<bigint | undefined>((most, { minBlock: asked }) => (asked !== undefined && (most === undefined || asked > most) ? asked : most), undefined);
    return this.onChain(requests[0]?.chainId ?? 0, minBlock, options, async (on, signal, progress) => {
      for (let attempt = 0; ; attempt++) {
        const head = await headFor(on, minBlock, options.noCache === true && attempt === 0, signal, progress);
        const settled = await this.settleAll(on, requests, head, options, signal, progress);
        if (settled !== undefined && !(await newerThanNotFound(on.follower, head, settled.answers, signal, progress))) return { head, ...settled };
      }
    });
  }

  /**
   * At the chain's head (at least `market.minBlock`): the market's reference price and the quotes `plan` makes of it
   * (a ladder's levels), all answered at that block; a block replaced meanwhile starts again at the new head. A
   * spaced ladder is read and searched in one call where the endpoint runs the ladder searcher; else the price is
   * read first.
   */
  async quoteAtPrice(market: MarketAt, plan: LadderPlan, options: QuoteOptions = {}): Promise<PricedAnswer> {
    return this.onChain(market.chainId, market.minBlock, options, async (on, signal, progress) => {
      for (let attempt = 0; ; attempt++) {
        const head = await headFor(on, market.minBlock, options.noCache === true && attempt === 0, signal, progress);
        const tally: RpcTally = { rpcRequests: 0 };
        progress.stage = "search";
        const together = "levels" in plan ? await searchLadder(this.endpoints, on.chain, plan, { block: head, signal, tally }) : undefined;
        const read = together ?? (await readPriceAt(on, market, head, signal, attempt, progress));
        const settled = read && (await this.settleAll(on, plannedRequests(plan, read.price), head, options, signal, progress, together && { searched: together.searched, tally }));
        // A ladder's levels are new positions' quotes.
        if (settled !== undefined && !(await newerThanNotFound(on.follower, head, settled.answers, signal, progress))) return { head, price: read!.price, ...settled } as PricedAnswer;
      }
    });
  }

  /**
   * Every request answered at exactly `head`, those that need a search searched together (with the gas of their
   * candidates there), or from the facts a ladder's call `presearched`; undefined once it is replaced.
   */
  private async settleAll(
    on: Pick<ChainQuote, "chain" | "follower" | "warn">,
    requests: readonly AnyQuoteRequest[],
    head: BlockHeader,
    options: QuoteOptions,
    signal: AbortSignal,
    progress: Progress,
    presearched?: { readonly searched: ReadonlyMap<string, Presearched>; readonly tally: RpcTally },
  ) {
    const quotes = requests.map((request) => ({ ...on, request, key: quoteKey(request), record: undefined }));
    const tally = presearched?.tally ?? { rpcRequests: 0 };
    const searched = presearched?.searched ?? (await this.searchUnanswered(on, quotes, head, options, signal, tally));
    // Each quote waits on a signal of its own, all aborted with the request's through one listener on it.
    const each = signalsFor(signal, quotes.length);
    const answers = await Promise.all(
      quotes.map(async (quote, i) => {
        const own = each.signals[i]!;
        const answer = await this.settleAt({ ...quote, searched: searched.get(quote.key) }, head, options, own, progress);
        // Each trade is simulated on the block's state, apart from the others' (semantics §12); a taker that does not
        // own the position is that item's 400.
        const traded = answer?.ok ? await this.trades.withTrade(quote, head, answer.value, own, 0, progress).catch(quoteErrorAsResult) : answer;
        return traded === undefined || "ok" in traded ? traded : ok(traded);
      }),
    ).finally(each.done);
    if (answers.includes(undefined) || on.follower.isReplaced(head.hash)) return undefined;
    return { answers: answers as Result<AnswerBody, QuoteError>[], ...(tally.searchGas === undefined ? {} : { searchGas: tally.searchGas }) };
  }

  /** The quotes with no answer kept at `head` (here or by another replica), searched together. */
  private async searchUnanswered(on: Pick<ChainQuote, "chain">, quotes: readonly ChainQuote[], head: BlockHeader, options: QuoteOptions, signal: AbortSignal, tally: RpcTally) {
    const unanswered = quotes.filter(({ request, key }) => !checkAnyRequest(request) && (options.noCache === true || !this.answers.has(on.chain.chainId, head.hash, key)));
    // Answers another replica kept are read, not searched again (a fresh request takes none of them).
    const unkept = options.noCache === true ? unanswered : await this.searches.unkept(on.chain.chainId, head, unanswered);
    return searchTogether(this.endpoints, on.chain, unkept, { block: head, signal, tally });
  }

  /** One quote's answer at exactly `head` (asked again there while an endpoint lags); undefined once it is replaced. */
  private async settleAt(quote: ChainQuote, head: BlockHeader, options: QuoteOptions, signal: AbortSignal, progress: Progress) {
    const notPositive = checkAnyRequest(quote.request);
    if (notPositive) return err(notPositive);
    for (let attempt = 0; !quote.follower.isReplaced(head.hash); attempt++) {
      const answer = await this.answerAtHead(quote, head, options, signal, attempt, progress);
      if (answer !== undefined) return answer;
    }
    return undefined;
  }
}
