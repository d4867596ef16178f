// From numbers to the answer: the pre-search checks of semantics §3 that need only numbers,
// and the mapping of a search result to the 200 body of §5 or to its error (§5, §6, §7).
import type { Result } from "./result.ts";
import { formatD18 } from "./fixedPoint.ts";
import {
  expectedPriceEqualsCurrent,
  expectedPriceNotPositive,
  insufficientLiquidity,
  marketSettled,
  noValidSize,
  type QuoteError,
} from "./quoteErrors.ts";
import { DUST } from "./exactState.ts";
import type { ExactSearchResult } from "./exactSearch.ts";
import { equalPriceDetail, explainExactFailure, explainSearchFailure } from "./explain.ts";
import { limitedBy, type LimitedBy } from "./limitedBy.ts";
import type { QuoteRequest } from "./request.ts";
import type { TradeBody } from "./trade.ts";
import {
  computeCap,
  inferDirection,
  type CandidateQuote,
  type Direction,
  type Outcome,
  type SearchInput,
  type SearchResult,
  type TraceEntry,
} from "./search.ts";

export type TraceEntryJson = {
  size: string;
  outcome: Outcome;
  requiredCollateral?: string;
  fillPrice?: string;
  priceAfter?: string;
  revert?: string;
  revertArgs?: Readonly<Record<string, string>>;
};

export type QuoteResponseBody = {
  direction: Direction;
  maxSize: string;
  currentPrice: string;
  expectedPrice: string;
  collateralAvailable: string;
  requiredCollateral: string;
  maxCollateral: string;
  fillPrice: string;
  priceAfter: string;
  /** Why maxSize is not larger (§5): the rule the smallest size above it that the search quoted breaks. */
  limitedBy: LimitedBy;
  blockNumber: string;
  blockHash: `0x${string}`;
  iterations: number;
  collateralDecimals: number;
  /** search=exact only: whether maxSize is proven the largest (§4b), and if not the smallest size quoted too large. */
  exact?: boolean;
  upperBound?: string;
  trace?: TraceEntryJson[];
  /** With taker only (semantics §12): the transaction that opens maxSize, ready to sign, with what it needs first. */
  trade?: TradeBody;
};

export type Checked<T> = Result<T, QuoteError>;

/** §3.2: a parseable expectedPrice must be greater than 0. */
export function checkExpectedPrice(expectedPrice: bigint): QuoteError | undefined {
  return expectedPrice > 0n ? undefined : expectedPriceNotPositive();
}

/** §3.7: expectedPrice must differ from the current price (exact D18 equality). */
export function checkExpectedDiffersFromCurrent(expectedPrice: bigint, currentPrice: bigint): QuoteError | undefined {
  return expectedPrice === currentPrice ? expectedPriceEqualsCurrent([equalPriceDetail(currentPrice)]) : undefined;
}

/** §3.9: priceLimit defaults to the current price. */
export function defaultPriceLimit(priceLimit: bigint | undefined, currentPrice: bigint): bigint {
  return priceLimit ?? currentPrice;
}

/** §3.7 to §3.9 and the cap of §4: what the search needs, once the current price is known (> 0). */
export function planSearch(request: QuoteRequest, currentPrice: bigint): Checked<SearchInput> {
  const unequal = checkExpectedDiffersFromCurrent(request.expectedPrice, currentPrice);
  if (unequal !== undefined) return { ok: false, error: unequal };
  return {
    ok: true,
    value: {
      direction: inferDirection(request.expectedPrice, currentPrice),
      cap: computeCap(request.collateralAvailable, currentPrice),
      maxIterations: request.maxIterations,
      expectedPrice: request.expectedPrice,
      priceLimit: defaultPriceLimit(request.priceLimit, currentPrice),
      collateralAvailable: request.collateralAvailable,
    },
  };
}

/** A quote's collateral fields in a trace entry, after its size and outcome (a new position's: requiredCollateral). */
export type TraceCollateral = (quote: CandidateQuote) => Readonly<Record<string, string>>;
const requiredCollateralOf: TraceCollateral = (quote) => ({ requiredCollateral: quote.requiredCollateral.toString() });

/** §7: sizes and wei as decimal integer strings, prices in canonical D18 form. */
export function serializeTrace(trace: readonly TraceEntry[], collateral: TraceCollateral = requiredCollateralOf): TraceEntryJson[] {
  return trace.map((entry) => {
    const json: TraceEntryJson = { size: entry.size.toString(), outcome: entry.outcome };
    if (entry.quote !== undefined) {
      Object.assign(json, collateral(entry.quote));
      json.fillPrice = formatD18(entry.quote.fillPrice);
      json.priceAfter = formatD18(entry.quote.priceAfter);
    }
    if (entry.revert !== undefined) json.revert = entry.revert;
    if (entry.revertArgs !== undefined) json.revertArgs = entry.revertArgs;
    return json;
  });
}

/**
 * The detail naming the revert that stopped the search with no valid size; for a market past its end, when it
 * ended (semantics §9).
 */
function revertDetail(revertName: string, revertArgs?: Readonly<Record<string, string>>): { param: string; message: string } {
  const endTime = revertArgs?.marketEndTime;
  if (revertName === "ExpiredMarketNotSettled" && endTime !== undefined && /^\d+$/.test(endTime)) {
    return { param: "marketId", message: `the market ended at ${describeTime(BigInt(endTime))} and is not settled yet: no position can be opened (quote reverted with ExpiredMarketNotSettled)` };
  }
  if (revertName === "ExpiredMarket" || revertName === "ExpiredMarketNotSettled") {
    return { param: "marketId", message: `the market has ended: no position can be opened (quote reverted with ${revertName}())` };
  }
  return { param: "marketId", message: `quote reverted with ${revertName}()` };
}

/** Unix seconds, and the UTC date when it is one. */
function describeTime(seconds: bigint): string {
  const date = seconds <= 8_640_000_000_000n ? new Date(Number(seconds) * 1000).toISOString().replace(".000Z", "Z") : undefined;
  return date ? `${seconds} (${date})` : `${seconds}`;
}

/**
 * Semantics §10: `requiredCollateral` (18-decimal units) in the token's own units, rounded up: the collateral
 * limit `createTraderPosition` takes. Equal for an 18-decimal token.
 */
export function toTokenUnits(requiredCollateral: bigint, decimals: number): bigint {
  if (decimals >= 18) return requiredCollateral * 10n ** BigInt(decimals - 18);
  const unit = 10n ** BigInt(18 - decimals);
  // Towards +infinity for a signed amount too (a held position's delta, semantics §13): the tightest limit that passes.
  return requiredCollateral < 0n ? -(-requiredCollateral / unit) : (requiredCollateral + unit - 1n) / unit;
}

/** The block every read of a quote was made at (§3.4, §11): its number, and its hash in lower case. */
export type AnswerBlock = { readonly number: bigint; readonly hash: `0x${string}` };

/** Maps a finished search to the 200 body (fields in the order of §5) or to its error. */
export function buildAnswer(
  request: QuoteRequest,
  currentPrice: bigint,
  block: AnswerBlock,
  direction: Direction,
  result: SearchResult | ExactSearchResult,
  collateralDecimals: number,
  serialize: (trace: readonly TraceEntry[]) => unknown[] = serializeTrace,
): Checked<QuoteResponseBody> {
  const traceExtra = request.trace ? { trace: serialize(result.trace) } : undefined;
  const explain = (failed: Extract<ExactSearchResult, { kind: "no-valid-size" | "insufficient-liquidity" }>) =>
    failed.proven === undefined
      ? explainSearchFailure(request, currentPrice, direction, failed)
      : explainExactFailure(request, failed.trace, failed.proven, DUST);
  switch (result.kind) {
    case "found": {
      const range = "exact" in result ? ({ search: "exact", proven: result.exact } as const) : ({ search: "bisection" } as const);
      const body: QuoteResponseBody = {
        direction,
        maxSize: (direction === "LONG" ? result.size : -result.size).toString(),
        currentPrice: formatD18(currentPrice),
        expectedPrice: formatD18(request.expectedPrice),
        collateralAvailable: request.collateralAvailable.toString(),
        requiredCollateral: result.quote.requiredCollateral.toString(),
        maxCollateral: toTokenUnits(result.quote.requiredCollateral, collateralDecimals).toString(),
        fillPrice: formatD18(result.quote.fillPrice),
        priceAfter: formatD18(result.quote.priceAfter),
        limitedBy: limitedBy(result.size, result.trace, range),
        blockNumber: block.number.toString(),
        blockHash: block.hash,
        iterations: result.iterations,
        collateralDecimals,
      };
      if ("exact" in result) {
        body.exact = result.exact;
        if (result.upperBound !== undefined) body.upperBound = result.upperBound.toString();
      }
      if (traceExtra !== undefined) body.trace = traceExtra.trace as TraceEntryJson[];
      return { ok: true, value: body };
    }
    case "insufficient-liquidity":
      return { ok: false, error: insufficientLiquidity({ details: explain(result), extra: traceExtra }) };
    case "no-valid-size": {
      const details = result.revertName === undefined ? explain(result) : [revertDetail(result.revertName, result.revertArgs)];
      return { ok: false, error: noValidSize({ details, extra: traceExtra }) };
    }
    case "market-settled":
      return { ok: false, error: marketSettled() };
  }
}
