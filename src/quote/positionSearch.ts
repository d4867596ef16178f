// Semantics §13: a held position's modification searched as a new position is: a candidate is the trade t (signed by
// direction), the position quoted at current + t. Its range adds |current| when the trade is against the position;
// its collateral is the signed delta, compared with the budget after both are shifted by the position's offset, the
// same integers contracts/HeldPositionSearch.sol compares (_hold, _budget, _shifted), so that the searcher on chain and the
// service choose the same candidates. Pure.
import { maxInt256, maxUint256 } from "viem";
import { abs } from "./exactMath.ts";
import { D18 } from "./fixedPoint.ts";
import { checkExpectedDiffersFromCurrent, defaultPriceLimit, type Checked } from "./quoteAnswer.ts";
import type { PositionRequest } from "./positionRequest.ts";
import { computeCap, inferDirection, type CandidateQuote, type Direction, type SearchInput, type TraceEntry } from "./search.ts";

/** What a quote of a modification answers (quoteModifyTraderPosition), in 18-decimal units and D18 prices. */
export type ModifyQuote = { readonly collateralDelta: bigint; readonly closePnL: bigint; readonly fillPrice: bigint; readonly priceAfter: bigint };

/** A candidate's quote as the searches read it (the delta shifted, as requiredCollateral), with the quote itself. */
export type HeldQuote = CandidateQuote & { readonly modify: ModifyQuote };

/** The position as the search needs it, read at the block. */
export type HeldPosition = { readonly positionId: bigint; readonly marketId: bigint; readonly current: bigint; readonly offset: bigint };

/** What an open position's requirement already holds of a new one's (the group's rounding, 2 wei). */
const COLLATERAL_ROUNDING = 2n;
/** The largest offset (so that a shifted delta fits 256 bits on chain). */
const MAX_OFFSET = 2n ** 254n;

/** Whether a trade in `direction` reduces (or turns around) a position of size `current`. */
export function isAgainst(current: bigint, direction: Direction): boolean {
  return direction === "LONG" ? current < 0n : current > 0n;
}

/**
 * The offset of a position: the group's rounding, plus, for a trade against it, the credit of closing it at the
 * range's width (floor(|current| × (max − min) / 10^18), at most 2^254). Past the close, and all along when adding,
 * the shifted delta is then what a new position of the trade requires on the reference group: the exact search's
 * loss model guesses from that. It changes no comparison (both sides move by it).
 */
export function positionOffset(current: bigint, direction: Direction, minPrice: bigint, maxPrice: bigint): bigint {
  if (!isAgainst(current, direction)) return COLLATERAL_ROUNDING;
  const width = maxPrice > minPrice ? maxPrice - minPrice : 0n;
  const credit = (abs(current) * width) / D18;
  return COLLATERAL_ROUNDING + (credit > MAX_OFFSET ? MAX_OFFSET : credit);
}

/** The budget the candidates are compared with, shifted by the offset (saturated at 2^256 − 1). */
export function shiftedBudget(collateralAvailable: bigint, offset: bigint): bigint {
  const sum = collateralAvailable + offset;
  return sum > maxUint256 ? maxUint256 : sum;
}

/** A signed delta shifted by the offset, 0 where that is negative (within any budget, as the delta is). */
export function shiftedDelta(collateralDelta: bigint, offset: bigint): bigint {
  const sum = collateralDelta + offset;
  return sum < 0n ? 0n : sum;
}

/** The new size of a trade; none past int256 either way (then not quoted: it counts as a revert without data). */
export function targetOf(current: bigint, signedTrade: bigint): bigint | undefined {
  const target = current + signedTrade;
  return abs(target) > maxInt256 ? undefined : target;
}

/** The direction of a request at `currentPrice` (§3.8), known before the position's offset. */
export function positionDirection(request: Pick<PositionRequest, "expectedPrice">, currentPrice: bigint): Direction {
  return inferDirection(request.expectedPrice, currentPrice);
}

/**
 * §3.7 to §3.9 and §13's range: what the searches need. The range is [0, collateral / price], plus |current| for a
 * trade against the position; the budget is shifted by the position's offset.
 */
export function planPositionSearch(request: PositionRequest, currentPrice: bigint, held: Pick<HeldPosition, "current" | "offset">): Checked<SearchInput> {
  const unequal = checkExpectedDiffersFromCurrent(request.expectedPrice, currentPrice);
  if (unequal !== undefined) return { ok: false, error: unequal };
  const direction = positionDirection(request, currentPrice);
  const top = computeCap(request.collateralAvailable, currentPrice) + (isAgainst(held.current, direction) ? abs(held.current) : 0n);
  return {
    ok: true,
    value: {
      direction,
      cap: top > maxInt256 ? maxInt256 : top,
      maxIterations: request.maxIterations,
      expectedPrice: request.expectedPrice,
      priceLimit: defaultPriceLimit(request.priceLimit, currentPrice),
      collateralAvailable: shiftedBudget(request.collateralAvailable, held.offset),
    },
  };
}

/** A modification's quote as the searches read it: its delta shifted by the offset. */
export function heldQuote(modify: ModifyQuote, offset: bigint): HeldQuote {
  return { requiredCollateral: shiftedDelta(modify.collateralDelta, offset), fillPrice: modify.fillPrice, priceAfter: modify.priceAfter, modify };
}

/** A trace read back in the position's own numbers: each quote's collateral the signed delta, as the trader sees it. */
export function unshiftedTrace(trace: readonly TraceEntry[]): TraceEntry[] {
  return trace.map((entry) => {
    const modify = (entry.quote as HeldQuote | undefined)?.modify;
    return modify === undefined ? entry : { ...entry, quote: { ...modify, requiredCollateral: modify.collateralDelta } as CandidateQuote };
  });
}
