// Where the exact search of semantics §4b stands, and how each of its steps moves it: the state its rule
// (src/quote/exactRule.ts) chooses from, and the record* steps, in the order and under the names of
// contracts/ExactSearchRule.sol's (closed, recordEdge, recordBelow, recordAbove, recordRevert, _stepAbove, _latest,
// rangeEndOf). Pure: a step returns the state it moves to, where the Solidity moves its own in memory.
import { maxInt256 } from "viem";
import { priceD18FromSqrtX96Down } from "./priceMath.ts";
import type { CandidateQuote, Direction } from "./search.ts";

/** Below this (10^-12 of a token) the real contracts revert on rounding between sizes that fill (§4b). */
export const DUST = 10n ** 6n;

/** What the rule reads of the request and the market. */
export type ExactRuleInput = {
  readonly direction: Direction;
  /** collateral / currentPrice (§4): the first candidate unless the price edge is nearer. */
  readonly cap: bigint;
  readonly currentPrice: bigint;
  readonly expectedPrice: bigint;
  readonly collateralAvailable: bigint;
  /**
   * The settlement price at which a position in the trade's direction loses the most: the market's minimum price
   * for a LONG, its maximum for a SHORT (getMarket's minPriceD18, maxPriceD18). The loss model reads it.
   */
  readonly worstPrice: bigint;
  /** The pool's fee tier, in pips (getMarket's feeRate). */
  readonly feeRate: bigint;
  /** The pool's liquidity in range at the block (its `liquidity()`); 0 where it could not be read. */
  readonly liquidity: bigint;
};

/**
 * The input as the rule's `prepare` leaves it, as the Solidity's Input after its prepare: the current price's scaled
 * 1/sqrt (every estimate starts from it), the budget's first guess by the pool's own range, and whether to read the
 * price edge before the first quote.
 */
export type PreparedInput = ExactRuleInput & {
  readonly currentRoot: bigint | undefined;
  readonly poolBudget: bigint | undefined;
  readonly edgeFirst: boolean;
};

/** A quoted size; above the interval, a revert may tell the price the market's range ends at (`rangeEnd`). */
export type Known = { readonly size: bigint; readonly quote?: CandidateQuote; readonly rangeEnd?: bigint };

/**
 * The price edge (src/chain/searchers/priceEdge.ts) as the search knows it: asked for or not, and its size when the market's
 * QuoterV2 answered one (none when the market names no QuoterV2, or the call failed).
 */
export type EdgeKnowledge = { readonly asked: boolean; readonly size?: bigint };

/**
 * Where the exact search stands when it chooses its next step: the largest size quoted below the top of the
 * feasible interval (`low`), the smallest quoted above it (`high`), the quote made before the latest one (`prior`:
 * with the latest, the two points a secant runs through), how many quotes in a row landed on one side (positive
 * below, negative above; only guided quotes count), how many were quoted, and the price edge. The next step depends
 * on nothing else, so a searcher on chain continues the same search from here.
 */
export type ExactState = {
  readonly low?: Known;
  readonly high?: Known;
  readonly prior?: Known;
  readonly streak: number;
  readonly quoted: number;
  readonly edge: EdgeKnowledge;
};

/** The search's next step: read the price edge, or quote a size (guided: chosen by an estimate). */
export type ExactStep = { readonly kind: "edge" } | { readonly kind: "quote"; readonly size: bigint; readonly guided: boolean };

/** A search that has done nothing yet. */
export const START: ExactState = { streak: 0, quoted: 0, edge: { asked: false } };

/** Whether the top of the feasible interval is known to the wei (or nothing lies above the largest size). */
export function closed({ low, high }: Pick<ExactState, "low" | "high">): boolean {
  return low?.size === maxInt256 || (high !== undefined && (low === undefined ? high.size <= DUST : high.size - low.size <= 1n));
}

/** The price edge read (its size, or none). */
export function recordEdge(state: ExactState, size: bigint | undefined): ExactState {
  return { ...state, edge: size === undefined ? { asked: true } : { asked: true, size } };
}

/** A quote that raised the low side (feasible, or short of priceLimit); an unguided one starts the streak afresh. */
export function recordBelow(state: ExactState, guided: boolean, size: bigint, quote: CandidateQuote): ExactState {
  const streak = guided && state.streak > 0 ? state.streak + 1 : 1;
  return { ...state, prior: latest(state), low: { size, quote }, streak, quoted: state.quoted + 1 };
}

/** A quote over the budget or beyond expectedPrice. */
export function recordAbove(state: ExactState, guided: boolean, size: bigint, quote: CandidateQuote): ExactState {
  return stepAbove(state, guided, { size, quote });
}

/** A size that reverted, with the D18 price its revert says the market's range ends at, if any. */
export function recordRevert(state: ExactState, guided: boolean, size: bigint, rangeEnd: bigint | undefined): ExactState {
  return stepAbove(state, guided, rangeEnd === undefined ? { size } : { size, rangeEnd });
}

function stepAbove(state: ExactState, guided: boolean, high: Known): ExactState {
  const streak = guided && state.streak < 0 ? state.streak - 1 : -1;
  return { ...state, prior: latest(state), high, streak, quoted: state.quoted + 1 };
}

/** The latest quote: the side the streak is on (none at the start). */
export function latest(state: ExactState): Known | undefined {
  return state.streak > 0 ? state.low : state.streak < 0 ? state.high : undefined;
}

/**
 * The D18 price where the market's range ends, from a PoolPriceOutOfRange bound (a sqrt price X96) of at most 49
 * digits (a uint160's), rounded down as the group rounds its prices; else none.
 */
export function rangeEndOf(bound: bigint): bigint | undefined {
  if (bound < 0n || bound >= 10n ** 49n) return undefined;
  return priceD18FromSqrtX96Down(bound);
}
