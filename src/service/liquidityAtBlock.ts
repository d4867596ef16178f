// Semantics §14 over the reads of one block: the market (as a quote's, §3.5 and §3.6), the pool's sqrt price and tick
// spacing, the range aligned within the market's bounds, the group's own quote and whether its tokens mint with the
// budget, then the search, each candidate the requirement its mint names. The same decisions whichever strategy
// fetched the reads.
import type { ReadContext } from "../chain/rpc/call.ts";
import type { ChainEndpoint } from "../chain/rpc/client.ts";
import { interpretBounds, interpretCandidate, interpretGroupQuote, interpretMintRequirement, interpretSqrtPrice, type MintPrices } from "../chain/searchers/liquidityGroup.ts";
import type { LiquidityReader } from "../chain/searchers/liquidityReader.ts";
import { interpretMarket, interpretReferencePrice } from "../chain/searchers/marketGroup.ts";
import { SearcherUnsupportedError } from "../chain/searchers/searcher.ts";
import { SearcherMismatchError } from "../chain/searchers/singleCall.ts";
import { buildLiquidityAnswer, type GroupQuoteJson } from "../quote/liquidityAnswer.ts";
import type { LiquidityRequest } from "../quote/liquidityRequest.ts";
import { askedTicks, planRange, runLiquiditySearch } from "../quote/liquiditySearch.ts";
import { atBlock, currentPriceNotFound, marketNotFound, marketSettled, type QuoteError } from "../quote/quoteErrors.ts";
import { err } from "../quote/result.ts";
import { readCollateral, type Searched } from "./answerAtBlock.ts";
import type { EndpointStrategy } from "./endpointStrategy.ts";

/** The answer to `request` from `reader`'s block. */
export async function liquidityAnswerFrom(reader: LiquidityReader, request: LiquidityRequest): Promise<Searched> {
  const blockNumber = reader.block.number;
  const stop = (error: QuoteError): Searched => ({ answer: err(error), facts: { blockNumber } });
  const marketAnswer = await reader.market();
  const market = interpretMarket(marketAnswer, request.marketId, reader.block);
  if (market.kind === "missing") return stop(marketNotFound([{ param: market.param, message: market.reason }]));
  if (market.settled) return stop(marketSettled());
  const currentPrice = interpretReferencePrice(await reader.referencePrice());
  if (currentPrice === undefined) return stop(currentPriceNotFound());
  const sqrtPrice = interpretSqrtPrice(await reader.sqrtPrice());
  const bounds = interpretBounds(marketAnswer, await reader.spacing(market.pool));
  if (sqrtPrice === undefined || bounds === undefined) {
    const message = `the market's pool ${market.pool} gives no sqrt price or tick spacing ${atBlock(reader.block)}: no liquidity can be quoted in it`;
    return stop(currentPriceNotFound([{ param: "marketId", message }]));
  }
  const range = planRange(askedTicks(request), bounds);
  if (!range.ok) return stop(range.error);
  const { asset, decimals } = await readCollateral(reader);
  const at: MintPrices = { marketId: request.marketId, sqrtPrice, range: range.value };
  const groupQuote = await groupQuoteOf(reader, at, request.collateralAvailable);
  const result = await runLiquiditySearch(request.collateralAvailable, BigInt(groupQuote?.liquidity ?? 0), async (liquidity) => {
    const calls = await reader.candidate(at, liquidity);
    return interpretCandidate(calls.tokens, calls.mint);
  });
  reader.done?.();
  const answer = buildLiquidityAnswer(request, { currentPrice, sqrtPrice, range: range.value, groupQuote, collateralDecimals: decimals, block: reader.block }, result);
  const stoppedBy = result.kind === "reverted" ? result.outcome.errorName : undefined;
  return { answer, facts: { blockNumber, candidates: result.trace.length, ...(stoppedBy === undefined ? {} : { stoppedBy }) }, collateralAsset: asset ?? null };
}

/** The group's own quote for the budget, and whether its tokens mint with it; null when the quote reverted. */
async function groupQuoteOf(reader: LiquidityReader, at: MintPrices, budget: bigint): Promise<GroupQuoteJson | null> {
  const quote = interpretGroupQuote(await reader.groupQuote(at, budget));
  if (quote === undefined) return null;
  const required = interpretMintRequirement(await reader.groupMint(at, quote.amount0, quote.amount1));
  return {
    liquidity: quote.liquidity.toString(),
    amountBaseToken: quote.amount0.toString(),
    amountQuoteToken: quote.amount1.toString(),
    fits: typeof required === "bigint" && required <= budget,
  };
}

/**
 * One endpoint's answer at the context's block, read in the way the endpoint takes. A single call whose answer turns
 * out not to be the searcher's (or to differ from the rule here) is done again call by call.
 */
export async function liquidityAnswerAtEndpoint(strategy: EndpointStrategy, endpoint: ChainEndpoint, request: LiquidityRequest, context: ReadContext): Promise<Searched> {
  const first = await strategy.liquidityReaderAt(endpoint, request, context);
  try {
    return await liquidityAnswerFrom(first.reader, request);
  } catch (error) {
    if (!((error instanceof SearcherUnsupportedError || error instanceof SearcherMismatchError) && first.singleCall)) throw error;
    strategy.notSearcher(endpoint, error);
    const again = await strategy.liquidityReaderAt(endpoint, request, context);
    return liquidityAnswerFrom(again.reader, request);
  }
}
