// Semantics §14: a new liquidity position's range, aligned to the pool's spacing within the market's bounds, and its
// search: candidates chosen by liquidityRule.ts, each the requirement createLiquidityPosition names for the tokens of
// L, until the largest L that fits and L + 1 that does not are both quoted. Pure: the candidates are asked of `quote`.
import { formatD18 } from "./fixedPoint.ts";
import type { LiquidityRequest } from "./liquidityRequest.ts";
import { learn, MAX_LIQUIDITY, NEW_RULE, nextLiquidity, type LiquidityRule } from "./liquidityRule.ts";
import { invalidQueryParameters, type QuoteError } from "./quoteErrors.ts";
import { err, ok, type Result } from "./result.ts";
import { alignDown, alignUp, priceAtTick, sqrtRatioAtTick, tickAtPrice } from "./tickMath.ts";

/** The ticks the request's prices give, before alignment; absent: the market's bound. */
export type AskedTicks = { readonly lower?: number; readonly upper?: number };

export function askedTicks(request: Pick<LiquidityRequest, "lowerPrice" | "upperPrice">): AskedTicks {
  return {
    ...(request.lowerPrice === undefined ? {} : { lower: tickAtPrice(request.lowerPrice) }),
    ...(request.upperPrice === undefined ? {} : { upper: tickAtPrice(request.upperPrice) }),
  };
}

/** The market's bound ticks and its pool's spacing, read at the block. */
export type RangeBounds = { readonly minTick: number; readonly maxTick: number; readonly spacing: number };

/** The range a position is minted in: its ticks and the pool's sqrt prices of them. */
export type LiquidityRange = { readonly lowerTick: number; readonly upperTick: number; readonly sqrtLower: bigint; readonly sqrtUpper: bigint };

const pricesOf = (low: number, high: number) => `[${formatD18(priceAtTick(low))}, ${formatD18(priceAtTick(high))}]`;

/** The aligned range, or the 400 that names the market's bounds as prices (contracts/LiquiditySearcher.sol's checks). */
export function planRange(asked: AskedTicks, bounds: RangeBounds): Result<LiquidityRange, QuoteError> {
  const { minTick, maxTick, spacing } = bounds;
  const lower = asked.lower === undefined ? minTick : alignDown(asked.lower, spacing);
  const upper = asked.upper === undefined ? maxTick : alignUp(asked.upper, spacing);
  const within = `the market's range is ${pricesOf(minTick, maxTick)} (ticks ${minTick} to ${maxTick}, spacing ${spacing})`;
  const refuse = (param: string, message: string) => err(invalidQueryParameters([{ param, message }]));
  if (lower < minTick) return refuse("lowerPrice", `is below the market's lowest price once aligned (tick ${lower}): ${within}`);
  if (upper > maxTick) return refuse("upperPrice", `is above the market's highest price once aligned (tick ${upper}): ${within}`);
  if (lower >= upper) return refuse("upperPrice", `must be above lowerPrice: the range is empty once aligned to the tick spacing (ticks ${lower} to ${upper}); ${within}`);
  return ok({ lowerTick: lower, upperTick: upper, sqrtLower: sqrtRatioAtTick(lower), sqrtUpper: sqrtRatioAtTick(upper) });
}

/** A candidate as the chain answered it: the tokens of L and the requirement its mint named, or a revert. */
export type LiquidityOutcome =
  | { readonly kind: "required"; readonly amount0: bigint; readonly amount1: bigint; readonly required: bigint }
  | { readonly kind: "reverted"; readonly data: string; readonly errorName?: string; readonly errorArgs?: Record<string, string> };

export type LiquidityTraceEntry = { readonly liquidity: bigint; readonly outcome: LiquidityOutcome };

export type LiquidityCandidate = { readonly liquidity: bigint; readonly amount0: bigint; readonly amount1: bigint; readonly required: bigint };

/** How the search ended: the largest L that fits (with L + 1 quoted, or 2^128 - 1), none (L = 1 needs more), or a revert. */
export type LiquiditySearchResult =
  | { readonly kind: "found"; readonly best: LiquidityCandidate; readonly trace: readonly LiquidityTraceEntry[] }
  | { readonly kind: "insufficient"; readonly least: bigint; readonly trace: readonly LiquidityTraceEntry[] }
  | { readonly kind: "reverted"; readonly liquidity: bigint; readonly outcome: Extract<LiquidityOutcome, { kind: "reverted" }>; readonly trace: readonly LiquidityTraceEntry[] };

/**
 * The search of `budget` from the group's quote `first`, asking `quote` for each candidate in the rule's order. Ends
 * at a proof (the bracket one apart), or at the first candidate that is not a requirement.
 */
export async function runLiquiditySearch(budget: bigint, first: bigint, quote: (liquidity: bigint) => Promise<LiquidityOutcome>): Promise<LiquiditySearchResult> {
  const trace: LiquidityTraceEntry[] = [];
  const fitting = new Map<bigint, LiquidityCandidate>();
  let rule: LiquidityRule = NEW_RULE;
  for (let next = nextLiquidity(rule, budget, first); next !== undefined; next = nextLiquidity(rule, budget, first)) {
    const { liquidity } = next;
    const outcome = await quote(liquidity);
    trace.push({ liquidity, outcome });
    if (outcome.kind === "reverted") return { kind: "reverted", liquidity, outcome, trace };
    if (outcome.required <= budget) fitting.set(liquidity, { liquidity, ...outcome });
    rule = learn(next.rule, liquidity, outcome.required, budget);
  }
  const best = fitting.get(rule.lo);
  if (best === undefined) return { kind: "insufficient", least: rule.hiRequired, trace };
  return { kind: "found", best, trace };
}

export { MAX_LIQUIDITY };
