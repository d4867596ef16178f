// Why a found position is not larger (semantics §5 `limitedBy`), read from the search's record alone: the one place
// both searches, both strategies, batches and depth ladders take it from. The searchers on chain record each
// candidate's raw quote; which rule a quote breaks is decided here, by §4's classification (search.ts).
import { maxInt256 } from "viem";
import type { Outcome, TraceEntry } from "./search.ts";

/** What stopped the position from being larger. */
export type LimitedBy = "expectedPrice" | "collateral" | "liquidity" | "search";

export const LIMITED_BY: readonly LimitedBy[] = ["expectedPrice", "collateral", "liquidity", "search"];

/**
 * The reason each too-large outcome gives. A candidate's outcome is the first of §4's checks it fails (reverted,
 * then over budget, then beyond expectedPrice), so this is also the order where several apply.
 */
const REASON: Partial<Record<Outcome, LimitedBy>> = {
  reverted: "liquidity",
  "over-budget": "collateral",
  "beyond-expected": "expectedPrice",
};

/** The reason a candidate's outcome gives, if it is too large (none when it fits or falls short of priceLimit). */
export function reasonOf(outcome: Outcome): LimitedBy | undefined {
  return REASON[outcome];
}

/**
 * Which search found the size: the bisection, or the exact search with whether its answer is proven (the quotes
 * of maxSize and maxSize + 1 both made).
 */
export type SearchedRange = { readonly search: "bisection" } | { readonly search: "exact"; readonly proven: boolean };

/**
 * Semantics §5: the reason of the smallest size above `size` (unsigned) that the search quoted and found too large.
 * - The exact search: a proven answer's is maxSize + 1's ("liquidity" at 2^255-1, the largest size a quote takes,
 *   above which nothing can be quoted); an unproven one ran out of candidates first: "search", the only answer that
 *   says it.
 * - The bisection, when no size above its answer was found too large: "collateral". Every step then went up towards
 *   the top of its range, collateralAvailable / price, which the budget sets (a larger budget raises it; more
 *   iterations could only add less than one step of it).
 */
export function limitedBy(size: bigint, trace: readonly TraceEntry[], range: SearchedRange): LimitedBy {
  if (range.search === "exact" && !range.proven) return "search";
  let smallestAbove: { size: bigint; reason: LimitedBy } | undefined;
  for (const entry of trace) {
    const magnitude = entry.size < 0n ? -entry.size : entry.size;
    const reason = reasonOf(entry.outcome);
    if (reason === undefined || magnitude <= size) continue;
    if (smallestAbove === undefined || magnitude < smallestAbove.size) smallestAbove = { size: magnitude, reason };
  }
  if (smallestAbove !== undefined) return smallestAbove.reason;
  return range.search === "bisection" ? "collateral" : size === maxInt256 ? "liquidity" : "search";
}
