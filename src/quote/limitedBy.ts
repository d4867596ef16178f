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

/** Which search found the size: the bisection, with the top of its range [0, cap], or the exact search. */
export type SearchedRange = { readonly search: "bisection"; readonly cap: bigint } | { readonly search: "exact" };

/**
 * The reason of the smallest size above `size` (unsigned) that the search quoted and found too large. When there
 * is none:
 * - the bisection: "collateral" when it converged to the top of [0, cap] (its mids never reach cap itself, so the
 *   top is reached when cap - 1 was quoted and fits: high - low <= 1 with high still cap); else "search";
 * - the exact search: "liquidity" at 2^255-1, the largest size a quote takes; else "search" (it reached
 *   EXACT_MAX_CANDIDATES before quoting any size too large: `exact: false` with no `upperBound`).
 */
export function limitedBy(size: bigint, trace: readonly TraceEntry[], range: SearchedRange): LimitedBy {
  let smallestAbove: { size: bigint; reason: LimitedBy } | undefined;
  let tooLarge = false;
  let largestFitting = 0n;
  for (const entry of trace) {
    const magnitude = entry.size < 0n ? -entry.size : entry.size;
    const reason = reasonOf(entry.outcome);
    if (reason === undefined) {
      if (magnitude > largestFitting) largestFitting = magnitude;
      continue;
    }
    tooLarge = true;
    if (magnitude > size && (smallestAbove === undefined || magnitude < smallestAbove.size)) smallestAbove = { size: magnitude, reason };
  }
  if (smallestAbove !== undefined) return smallestAbove.reason;
  if (range.search === "bisection") return !tooLarge && range.cap - largestFitting <= 1n ? "collateral" : "search";
  return size === maxInt256 ? "liquidity" : "search";
}
