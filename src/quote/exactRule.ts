// The rule by which the exact search of semantics §4b chooses its next step, from where it stands (its state,
// src/quote/exactState.ts) alone: written in integers, every division rounding down, and bounded to 256 bits, because contracts/ExactSearchRule.sol runs the same rule on chain, function for function, so that the
// searcher quotes exactly the candidates the service asks for (test/contracts/exactSearchRule.test.ts asks both the
// same questions).
import { maxInt256 } from "viem";
import { estimateTop } from "./exactEstimates.ts";
import { DUST, type ExactRuleInput, type ExactState, type ExactStep } from "./exactState.ts";
import { poolBudgetTop, poolPriceTop } from "./lossModel.ts";
import { sqrtDown } from "./priceMath.ts";

/**
 * The input with what the pool's own range says before any quote, worked out once per search: whether to read the
 * price edge first ({@link edgeFirst}), and the budget's first guess ({@link poolBudgetTop}).
 */
export type PreparedInput = ExactRuleInput & { readonly edgeFirst: boolean; readonly poolBudget: bigint | undefined };

export function prepareExactRule(input: ExactRuleInput): PreparedInput {
  const poolBudget = poolBudgetTop(input);
  const price = poolPriceTop(input);
  return { ...input, poolBudget, edgeFirst: price === undefined || poolBudget === undefined || price <= poolBudget + poolBudget / 8n };
}

/** Whether a quote found the price binding: the size known too large went past expectedPrice, or reverted. */
function priceFoundBinding(input: ExactRuleInput, state: ExactState): boolean {
  const quote = state.high?.quote;
  if (state.high === undefined) return false;
  if (quote === undefined) return true;
  return input.direction === "LONG" ? quote.priceAfter > input.expectedPrice : quote.priceAfter < input.expectedPrice;
}

/** A bracket wider than this ratio is split at its geometric mean, not its midpoint. */
const GEOMETRIC_RATIO = 2n ** 16n;

/**
 * Where a bracket is split when no estimate guides: near its geometric mean while it spans more than 2^16
 * (sqrtDown(bottom) * sqrtDown(top), which fits 256 bits where bottom * top would not), else its midpoint.
 */
function split(bottom: bigint, top: bigint): bigint {
  return top / GEOMETRIC_RATIO > bottom ? sqrtDown(bottom) * sqrtDown(top) : (bottom + top) / 2n;
}

/**
 * The next step, within (low, high) and at least DUST. The price edge is read before the first quote where the pool's
 * range says the price may bind first, else once a quote finds it binding (never twice). The first size is the pool's
 * budget guess (the cap without one), or the price edge where it is smaller. Then the size just before the estimated
 * first size too large:
 * - narrow: kept to the bracket's middle half, and halfway from the second quote in a row on one side (the edge lies
 *   anywhere within a rounding there);
 * - steady (a secant, the loss model, a window or a gallop near the budget's edge): as it is;
 * - otherwise (regula falsi's lines, the price's): from the third quote in a row on one side, moved on by 1, 2, 4,
 *   ... units while quotes keep landing on that side (`streak`), and at least as far as the last quote missed the
 *   estimate by (doubling), but never past the bracket's split point.
 * A good estimate closes the bracket in two or three quotes, a poor one costs no more than a bisection of the
 * bracket. With no estimate: doubling up when nothing above is known, else the split point. While nothing fills and
 * no estimate guides, once the bracket above DUST is narrow enough to be halved (at most DUST * 2^16), DUST itself.
 */
export function nextExactStep(input: PreparedInput, state: ExactState): ExactStep {
  const { low, high, streak, quoted } = state;
  // The price edge first unless the pool's range says the budget binds well before the price (its price edge more than
  // an eighth past its budget edge); else once a quote finds the price binding.
  if (!state.edge.asked && (quoted === 0 ? input.edgeFirst : priceFoundBinding(input, state))) return { kind: "edge" };
  const floor = low === undefined ? DUST : low.size + 1n;
  const ceiling = high === undefined ? maxInt256 : high.size - 1n;
  const middle = high === undefined ? undefined : split(low === undefined ? DUST : low.size, high.size);
  const estimate = quoted === 0 ? undefined : estimateTop(input, state);
  let size: bigint;
  let guided = false;
  const edge = state.edge.size;
  if (quoted === 0) {
    // The budget's first guess: the pool's own range's, else the cap. The price edge where it is nearer: the price
    // binds first there, or nearly.
    const first = input.poolBudget === undefined ? input.cap : input.poolBudget - 1n;
    size = edge !== undefined && edge < first ? edge : first;
  } else if (estimate?.narrow && low !== undefined && high !== undefined) {
    guided = true;
    const quarter = (high.size - low.size) / 4n;
    size = streak >= 2 || streak <= -2 ? (low.size + high.size) / 2n : estimate.size - 1n;
    if (size < low.size + quarter) size = low.size + quarter;
    if (size > high.size - quarter) size = high.size - quarter;
  } else if (estimate !== undefined) {
    guided = true;
    size = estimate.size - 1n;
    const run = streak < 0 ? -streak : streak;
    if (!estimate.steady) {
      // Estimates that keep landing on one side converge from that side only (regula falsi): from the third in a
      // row, go past the estimate by 1, 2, 4, ... units, and at least as far as the last quote missed it, doubled.
      if (run >= 3) {
        const doubling = 2n ** BigInt(Math.min(run, 257) - 3);
        const gap = streak < 0 ? high!.size - estimate.size : low !== undefined ? estimate.size - low.size : 0n;
        const far = gap > 0n ? gap * doubling : 0n;
        const overshoot = far > estimate.unit * doubling ? far : estimate.unit * doubling;
        size = streak > 0 ? size + overshoot : size - overshoot;
      }
      if (middle !== undefined && (streak > 0 ? size > middle : streak < 0 && size < middle)) size = middle;
    }
  } else if (low === undefined && high !== undefined && high.size / GEOMETRIC_RATIO <= DUST) {
    // Nothing fills yet, nothing guides, and what is left above DUST would be halved: DUST itself, which either
    // proves that no size fills (it goes too far too) or gives the interval its bottom.
    size = DUST;
  } else {
    size = middle ?? low!.size * 2n;
  }
  return { kind: "quote", size: size < floor ? floor : size > ceiling ? ceiling : size, guided };
}

