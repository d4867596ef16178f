// Semantics §3.5 to §5 over the reads of one block: the same decisions whichever strategy fetched them.
import {
  type MarketCheck,
  interpretCollateralAsset,
  interpretCollateralDecimals,
  interpretMarket,
  interpretPoolLiquidity,
  interpretQuote,
  interpretReferencePrice,
} from "../chain/searchers/marketGroup.ts";
import type { Hex } from "viem";
import type { RawCall, ReadContext } from "../chain/rpc/call.ts";
import type { ChainEndpoint } from "../chain/rpc/client.ts";
import type { MarketReader, SearchPosition } from "../chain/searchers/marketReader.ts";
import { interpretEdge, planEdge } from "../chain/searchers/priceEdge.ts";
import { SearcherUnsupportedError, type Facts } from "../chain/searchers/searcher.ts";
import { buildAnswer, planSearch, type QuoteResponseBody } from "../quote/quoteAnswer.ts";
import { currentPriceNotFound, marketNotFound, marketSettled, type QuoteError } from "../quote/quoteErrors.ts";
import { DEFAULT_EXACT_MAX_CANDIDATES, runExactSearch, type ExactSearchResult } from "../quote/exactSearch.ts";
import type { PositionResponseBody } from "../quote/positionAnswer.ts";
import type { LiquidityResponseBody } from "../quote/liquidityAnswer.ts";
import type { ExactState } from "../quote/exactState.ts";
import type { QuoteRequest } from "../quote/request.ts";
import { err, type Result } from "../quote/result.ts";
import { runSearch, type Direction, type Evaluation, type SearchInput, type SearchResult } from "../quote/search.ts";
import type { EndpointStrategy } from "./endpointStrategy.ts";

/** What one search did at its block: its log line and metrics tell it. */
export interface SearchFacts {
  readonly blockNumber: bigint;
  /** Absent when the quote ended before its direction was known (no market, no price...). */
  readonly direction?: Direction;
  /** Candidates quoted; absent when no search ran. */
  readonly candidates?: number;
  /** The revert that stopped the search at once, saying nothing of size (a market settled, ended, not started). */
  readonly stoppedBy?: string;
}

/** A quote's answer at one block (the 200 body, or the error the user gets) and what its search did. */
export interface Searched {
  readonly answer: Result<AnswerBody, QuoteError>;
  readonly facts: SearchFacts;
  /**
   * The market group's collateral token the search read at the block, when it names one: what a trade approves and
   * reads (semantics §12); null when it names none. Not in the answer, nor passed between replicas (undefined there).
   */
  readonly collateralAsset?: Hex | null;
}

/** The answer of a quote: a new position's, a held one's (semantics §13), or a new liquidity position's (§14). */
export type AnswerBody = QuoteResponseBody | PositionResponseBody | LiquidityResponseBody;

/** The answer to `request` from `reader`'s block: the market, its price, the search, the body or its error. */
export async function answerFrom(reader: MarketReader, request: QuoteRequest, exactMaxCandidates = DEFAULT_EXACT_MAX_CANDIDATES): Promise<Searched> {
  return searchMarket(reader, request, exactMaxCandidates, {
    marketId: request.marketId,
    plan: (currentPrice) => planSearch(request, currentPrice),
    interpret: interpretQuote,
    build: (currentPrice, direction, result, decimals) => buildAnswer(request, currentPrice, reader.block, direction, result, decimals),
  });
}

/**
 * How one market is searched besides its reads: its id, the search's plan from the price and the market, how a
 * candidate's raw quote reads, and the answer from the search's result.
 */
export interface MarketSearch {
  readonly marketId: bigint;
  plan(currentPrice: bigint, market: Extract<MarketCheck, { kind: "found" }>): Result<SearchInput, QuoteError>;
  interpret(raw: RawCall): Evaluation;
  build(currentPrice: bigint, direction: Direction, result: SearchResult | ExactSearchResult, collateralDecimals: number): Result<AnswerBody, QuoteError>;
}

/** Semantics §3.5 to §5 on one market, at `reader`'s block, as `how` says. */
export async function searchMarket(
  reader: MarketReader,
  request: Pick<QuoteRequest, "search" | "expectedPrice">,
  exactMaxCandidates: number,
  how: MarketSearch,
): Promise<Searched> {
  const blockNumber = reader.block.number;
  const marketAnswer = await reader.market();
  const market = interpretMarket(marketAnswer, how.marketId, reader.block);
  if (market.kind === "missing") return { answer: err(marketNotFound([{ param: market.param, message: market.reason }])), facts: { blockNumber } };
  if (market.settled) return { answer: err(marketSettled()), facts: { blockNumber } };

  const currentPrice = interpretReferencePrice(await reader.referencePrice());
  if (currentPrice === undefined) return { answer: err(currentPriceNotFound()), facts: { blockNumber } };
  const plan = how.plan(currentPrice, market);
  if (!plan.ok) return { answer: plan, facts: { blockNumber } };
  const { asset: collateralAsset, decimals: collateralDecimals } = await readCollateral(reader);

  let candidates = 0;
  const quote = async (size: bigint, at: SearchPosition) => {
    candidates++;
    return how.interpret(await reader.quote(size, at));
  };
  const { direction } = plan.value;
  let result;
  if (request.search === "exact") {
    const exactMarket = {
      worstPrice: direction === "LONG" ? market.minPrice : market.maxPrice,
      feeRate: market.feeRate,
      liquidity: interpretPoolLiquidity(await reader.poolLiquidity(market.pool)),
    };
    const edgeCall = planEdge(marketAnswer, direction, request.expectedPrice);
    const input = { ...plan.value, ...exactMarket, currentPrice, maxCandidates: exactMaxCandidates };
    const at = (state: ExactState) => ({ search: "exact" as const, state, market: exactMarket, edgeCall });
    const readEdge = async (state: ExactState) => (edgeCall === undefined ? undefined : interpretEdge(await reader.edge({ ...at(state), edgeCall })));
    result = await runExactSearch(input, (size, state) => quote(size, at(state)), readEdge);
  } else {
    result = await runSearch(plan.value, (size, point) => quote(size, { search: "bisection", point }));
  }
  reader.done?.();
  const answer = how.build(currentPrice, direction, result, collateralDecimals);
  const stoppedBy = result.kind === "market-settled" || result.kind === "no-valid-size" ? result.revertName : undefined;
  const facts = { blockNumber, direction, candidates, ...(stoppedBy === undefined ? {} : { stoppedBy }) };
  return { answer, facts, collateralAsset: collateralAsset ?? null };
}

/** Semantics §3.6, §10: the collateral token at the pinned block, and its decimals; 18 where they cannot be read. */
export async function readCollateral(reader: Pick<MarketReader, "collateralGroup" | "collateralDecimals">): Promise<{ asset: Hex | undefined; decimals: number }> {
  const asset = interpretCollateralAsset(await reader.collateralGroup());
  return { asset, decimals: interpretCollateralDecimals(asset === undefined ? undefined : await reader.collateralDecimals(asset)) };
}

/**
 * One endpoint's answer to `request` at the context's block: its reads, in the way the endpoint takes, then the
 * decisions above (from the facts a batch `searched` already, when given). A single call whose resumed call turns out
 * not to be the searcher's is done again call by call (and the endpoint is quoted so from then on).
 */
export async function answerAtEndpoint(
  strategy: EndpointStrategy,
  endpoint: ChainEndpoint,
  request: QuoteRequest,
  context: ReadContext & { readonly exactMaxCandidates?: number; readonly searched?: Facts | undefined },
): Promise<Searched> {
  const first = await strategy.readerAt(endpoint, request, context, context.searched);
  try {
    return await answerFrom(first.reader, request, context.exactMaxCandidates);
  } catch (error) {
    if (!(error instanceof SearcherUnsupportedError && first.singleCall)) throw error;
    strategy.notSearcher(endpoint, error);
    const again = await strategy.readerAt(endpoint, request, context);
    return answerFrom(again.reader, request, context.exactMaxCandidates);
  }
}
