// A depth ladder: the exact quote (semantics §4b) at each level's price, all at one block, with the market's
// direction and price there. Listed prices are searched together at once (the price comes with the answers);
// spaced ones are planned from the price at that block (by the ladder searcher in the same call, where the endpoint
// runs it). A market that cannot be quoted at all (not found, settled, no price) is the request's error; prices on
// both sides of the current price are a 400.
import { MAX_ITERATIONS } from "../quote/limits.ts";
import type { DepthRequest } from "../quote/depthRequest.ts";
import { ladderPrices } from "../quote/depthRequest.ts";
import { formatD18, parseDecimalD18 } from "../quote/fixedPoint.ts";
import type { QuoteResponseBody } from "../quote/quoteAnswer.ts";
import { currentPriceNotFound, invalidQueryParameters, type QuoteError, type QuoteErrorKind } from "../quote/quoteErrors.ts";
import type { QuoteRequest } from "../quote/request.ts";
import type { Result } from "../quote/result.ts";
import type { Direction } from "../quote/search.ts";
import type { BatchAnswer, Quoter, QuoteOptions } from "./api.ts";

export interface DepthAnswer extends BatchAnswer {
  readonly direction: Direction;
  readonly currentPrice: bigint;
  readonly collateralAvailable: bigint;
}

/** Errors that say the market cannot be quoted at any price: one of them at every level is the request's. */
const MARKET_ERRORS: ReadonlySet<QuoteErrorKind> = new Set(["marketNotFound", "marketSettled", "currentPriceNotFound"]);

type Ladder = Pick<Quoter, "quoteBatch" | "quoteAtPrice">;

/** The ladder of `request`, or a thrown QuoteError (the market's, a 400 of its prices, the chain's 503). */
export async function quoteDepth(quoter: Ladder, request: DepthRequest, options: QuoteOptions = {}): Promise<DepthAnswer> {
  if (quoter.quoteBatch === undefined || quoter.quoteAtPrice === undefined) throw new Error("this quoter answers no ladder");
  const levelAt = (expectedPrice: bigint): QuoteRequest => ({
    chainId: request.chainId,
    marketAddress: request.marketAddress,
    marketId: request.marketId,
    expectedPrice,
    collateralAvailable: request.collateralAvailable,
    maxIterations: MAX_ITERATIONS,
    trace: false,
    search: "exact",
    ...(request.minBlock === undefined ? {} : { minBlock: request.minBlock }),
    ...(request.taker === undefined ? {} : { taker: request.taker }),
    ...(request.slippageBps === undefined ? {} : { slippageBps: request.slippageBps }),
    ...(request.deadlineSeconds === undefined ? {} : { deadlineSeconds: request.deadlineSeconds }),
  });
  const { ladder } = request;
  if ("prices" in ladder) {
    const levels = ladder.prices.map(levelAt);
    // A ladder's levels are new positions' quotes: their bodies are new positions'.
    const batch = (await quoter.quoteBatch(levels, options)) as BatchAnswer<QuoteResponseBody>;
    throwMarketError(batch.answers);
    const price = priceOf(batch.answers);
    // No level answered (each its own 400): the price is read, with the levels again, at one block.
    const answered = price === undefined ? await quoter.quoteAtPrice(request, { requests: levels }, options) : { ...batch, price };
    return ladderAnswer(request, ladder.prices, answered);
  }
  // Without a price the one level is at `to`, whose quote says why the market cannot be quoted.
  const priced = await quoter.quoteAtPrice(request, { farthest: levelAt(ladder.to), levels: ladder.levels }, options);
  throwMarketError(priced.answers);
  if (priced.price === undefined) throw currentPriceNotFound();
  if (priced.price === ladder.to) throw invalidQueryParameters([{ param: "to", message: `must differ from the current price (${formatD18(priced.price)})` }]);
  return ladderAnswer(request, ladderPrices(priced.price, ladder.to, ladder.levels), priced);
}

/** Every level failed alike for a reason of the market's: that is the answer to the whole request. */
function throwMarketError(answers: readonly Result<QuoteResponseBody, QuoteError>[]): void {
  const first = answers[0];
  if (first === undefined || first.ok || !MARKET_ERRORS.has(first.error.kind)) return;
  if (answers.every((answer) => !answer.ok && answer.error.kind === first.error.kind)) throw first.error;
}

/** The current price of the first level answered (its body says it exactly). */
function priceOf(answers: readonly Result<QuoteResponseBody, QuoteError>[]): bigint | undefined {
  const body = answers.find((answer) => answer.ok)?.value;
  if (body === undefined) return undefined;
  const price = parseDecimalD18(body.currentPrice);
  return price.ok ? price.value : undefined;
}

/** The ladder's answer at the current price `price`: its levels must all lie on one side of it. */
function ladderAnswer(request: DepthRequest, prices: readonly bigint[], batch: BatchAnswer & { readonly price: bigint | undefined }): DepthAnswer {
  const { price } = batch;
  if (price === undefined) throw currentPriceNotFound();
  const above = prices.find((p) => p > price);
  const below = prices.find((p) => p < price);
  const at = `the current price (${formatD18(price)})`;
  if (above !== undefined && below !== undefined) {
    throw invalidQueryParameters([{ param: "prices", message: `must all be on one side of ${at}: ${formatD18(above)} is above it, ${formatD18(below)} below` }]);
  }
  if (above === undefined && below === undefined) throw invalidQueryParameters([{ param: "prices", message: `must differ from ${at}` }]);
  return {
    head: batch.head,
    answers: batch.answers,
    ...(batch.searchGas === undefined ? {} : { searchGas: batch.searchGas }),
    direction: above !== undefined ? "LONG" : "SHORT",
    currentPrice: price,
    collateralAvailable: request.collateralAvailable,
  };
}
