// The rule by which the exact search of semantics §4b chooses its next step, from where it stands (its state,
// src/quote/exactState.ts) alone: written in integers, every division rounding down but an interpolation's step
// (rounded up: the first size at or past its target), and bounded to 256 bits, because contracts/ExactSearchRule.sol
// runs the same rule on chain, so that the searcher quotes exactly the candidates the service asks for
// (test/contracts/exactSearchRule.test.ts asks both the same questions). The two read line by line:
// {@link ExactSearchRule} is the library's surface under its names, and each of its private functions has a twin of
// its name without the underscore (prepare, next, narrowed, guided, split here; the estimates in exactEstimates.ts,
// the loss model in lossModel.ts). Where the Solidity saturates a value or guards a uint against going below 0
// (_before, _doubled, _shifted), the TypeScript's unbounded integers need no twin: the bracket's bounds cut the size
// back alike.
import { maxInt256 } from "viem";
import { inverseSqrtPrice } from "./exactMath.ts";
import { estimateTop, type Estimate } from "./exactEstimates.ts";
import {
  closed,
  DUST,
  rangeEndOf,
  recordAbove,
  recordBelow,
  recordEdge,
  recordRevert,
  type ExactRuleInput,
  type ExactState,
  type ExactStep,
  type PreparedInput,
} from "./exactState.ts";
import { poolBudgetTop, poolPriceTop } from "./lossModel.ts";
import { sqrtDown } from "./priceMath.ts";

/** A bracket wider than this ratio is split at its geometric mean, not its midpoint. */
const GEOMETRIC_RATIO = 2n ** 16n;

/**
 * Works out once per search what the pool's own range says before any quote: the current price's scaled 1/sqrt, the
 * budget's first guess ({@link poolBudgetTop}), and whether to read the price edge first (unless the pool's price
 * edge lies more than an eighth past that guess).
 */
function prepare(input: ExactRuleInput): PreparedInput {
  const rooted = { ...input, currentRoot: inverseSqrtPrice(input.currentPrice) };
  const poolBudget = poolBudgetTop(rooted);
  const price = poolPriceTop(rooted);
  return { ...rooted, poolBudget, edgeFirst: price === undefined || poolBudget === undefined || price <= poolBudget + poolBudget / 8n };
}

/**
 * The next step, within (low, high) and at least DUST. The price edge is read before the first quote where the pool's
 * range says the price may bind first, else once a quote finds it binding (never twice). The first size is the pool's
 * budget guess (the cap without one), or the price edge where it is smaller. Then the size just before the estimated
 * first size too large ({@link narrowed} in a narrow bracket, else {@link guided}). A good estimate closes the
 * bracket in two or three quotes, a poor one costs no more than a bisection of the bracket. With no estimate: doubling
 * up when nothing above is known, else the split point. While nothing fills and no estimate guides, once the bracket
 * above DUST is narrow enough to be halved (at most DUST * 2^16), DUST itself.
 */
function next(input: PreparedInput, state: ExactState): ExactStep {
  const { low, high } = state;
  if (!state.edge.asked && (state.quoted === 0 ? input.edgeFirst : priceFoundBinding(input, state))) return { kind: "edge" };
  const floor = low === undefined ? DUST : low.size + 1n;
  const ceiling = high === undefined ? maxInt256 : high.size - 1n;
  let size: bigint;
  let byEstimate = false;
  if (state.quoted === 0) {
    // The budget's first guess (the pool's range's, else the cap); the price edge where it is nearer.
    const first = input.poolBudget === undefined ? input.cap : input.poolBudget - 1n;
    size = state.edge.size !== undefined && state.edge.size < first ? state.edge.size : first;
  } else {
    const estimate = estimateTop(input, state);
    if (estimate?.narrow && low !== undefined && high !== undefined) {
      byEstimate = true;
      size = narrowed(state, estimate);
    } else if (estimate !== undefined) {
      byEstimate = true;
      size = guided(state, estimate);
    } else if (low === undefined && high !== undefined && high.size / GEOMETRIC_RATIO <= DUST) {
      // Nothing fills yet, nothing guides, and what is left above DUST would be halved: DUST itself, which either
      // proves that no size fills (it goes too far too) or gives the interval its bottom.
      size = DUST;
    } else {
      size = high !== undefined ? split(low === undefined ? DUST : low.size, high.size) : low!.size * 2n;
    }
  }
  return { kind: "quote", size: size < floor ? floor : size > ceiling ? ceiling : size, guided: byEstimate };
}

/**
 * In a narrow bracket: just before the estimate, halfway from the second quote in a row on one side (the edge lies
 * anywhere within a rounding there), and kept to the bracket's middle half.
 */
function narrowed(state: ExactState, estimate: Estimate): bigint {
  const [low, high] = [state.low!.size, state.high!.size];
  const quarter = (high - low) / 4n;
  const repeated = state.streak >= 2 || state.streak <= -2;
  let size = repeated ? (low + high) / 2n : estimate.size - 1n;
  if (size < low + quarter) size = low + quarter;
  if (size > high - quarter) size = high - quarter;
  return size;
}

/**
 * Just before the estimate. A steady one (a secant, the loss model, a window or a gallop near the budget's edge) as it
 * is; regula falsi's lines (the price's), which keep landing on one side, from the third quote in a row there moved on
 * by 1, 2, 4, ... units, and at least as far as the last quote missed the estimate by (doubling), but never past the
 * bracket's split point.
 */
function guided(state: ExactState, estimate: Estimate): bigint {
  const { low, high, streak } = state;
  let size = estimate.size - 1n;
  if (estimate.steady) return size;
  const run = streak < 0 ? -streak : streak;
  if (run >= 3) {
    const doubling = 2n ** BigInt(Math.min(run, 257) - 3);
    const gap = streak < 0 ? high!.size - estimate.size : low !== undefined ? estimate.size - low.size : 0n;
    const far = gap > 0n ? gap * doubling : 0n;
    const near = estimate.unit * doubling;
    const overshoot = far > near ? far : near;
    size = streak > 0 ? size + overshoot : size - overshoot;
  }
  if (high !== undefined && streak !== 0) {
    const middle = split(low === undefined ? DUST : low.size, high.size);
    if (streak > 0 ? size > middle : size < middle) size = middle;
  }
  return size;
}

/**
 * Where a bracket is split when no estimate guides: near its geometric mean while it spans more than 2^16
 * (sqrtDown(bottom) * sqrtDown(top), which fits 256 bits where bottom * top would not), else its midpoint.
 */
function split(bottom: bigint, top: bigint): bigint {
  return top / GEOMETRIC_RATIO > bottom ? sqrtDown(bottom) * sqrtDown(top) : (bottom + top) / 2n;
}

/** Whether a quote found the price binding: the size known too large went past expectedPrice, or reverted. */
function priceFoundBinding(input: ExactRuleInput, state: ExactState): boolean {
  const quote = state.high?.quote;
  if (state.high === undefined) return false;
  if (quote === undefined) return true;
  return input.direction === "LONG" ? quote.priceAfter > input.expectedPrice : quote.priceAfter < input.expectedPrice;
}

/** The rule as contracts/ExactSearchRule.sol's library offers it, under the same names. */
export const ExactSearchRule = { closed, recordEdge, recordBelow, recordAbove, recordRevert, rangeEndOf, prepare, next } as const;
