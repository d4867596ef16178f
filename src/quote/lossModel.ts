// The loss model the exact search's rule steers by (semantics §4b): a position's requirement, its loss at the worst
// settlement price, along a Uniswap v3 pool's curve within one liquidity range; from the latest quote, and from the
// pool's own range before any quote. As contracts/ExactSearchRule.sol computes it.
import { maxInt256, maxUint256 } from "viem";
import { abs, D36, inverseSqrtPrice } from "./exactMath.ts";
import { D18 } from "./fixedPoint.ts";
import { mulDivDown } from "./priceMath.ts";
import { latestOf, type ExactRuleInput, type ExactState, type Known } from "./exactState.ts";

/** Newton steps on the loss model: enough to converge from any quote on one range. */
const MODEL_STEPS = 8;

/** 2^255: doubled values at or above it leave 256 bits. */
export const HALF_RANGE = 1n << 255n;

/** The loss model's values and its distance to the target stay below 2^253, so that their sums fit an int256. */
const MODEL_BOUND = 1n << 253n;

/**
 * A trade's curve on one liquidity range of a Uniswap v3 pool, as the loss model reads it: u(s), the scaled 1/sqrt of
 * the price after a trade of s, is affine in s (u(0) = a, the current price's; moving by `kNum / kDen` per wei, down
 * for a LONG, up for a SHORT), and the trade's average fill price moves as sqrt(price after): fill(s) = fill(r) *
 * u(r) / u(s), given at one size r by `fillRef` (10^-36) and `uRef`.
 */
type Curve = { readonly long: boolean; readonly a: bigint; readonly kNum: bigint; readonly kDen: bigint; readonly fillRef: bigint; readonly uRef: bigint };

/**
 * The curve through the latest quote: u from the current price's to the quote's priceAfter over its size, the fill
 * at the quote's fillPrice. None where the quote gives no curve (a revert, a price the scale refuses, no price move).
 */
function quoteCurve(input: ExactRuleInput, latest: Known | undefined): Curve | undefined {
  const quote = latest?.quote;
  if (latest === undefined || quote === undefined) return undefined;
  const a = inverseSqrtPrice(input.currentPrice);
  const b = inverseSqrtPrice(quote.priceAfter);
  const fillRef = quote.fillPrice * D18;
  if (a === undefined || b === undefined || a === b || fillRef > maxUint256) return undefined;
  return { long: input.direction === "LONG", a, kNum: abs(a - b), kDen: latest.size, fillRef, uRef: b };
}

/** Parts of a million: the unit of a v3 fee tier. */
const PIPS = 1_000_000n;

/**
 * The curve of the pool's own range at the block, before any quote: u moves by 10^27 / liquidity per wei (a v3 pool
 * moves 1/sqrt(price) by size / L within a range), the fill starts at the current price with the pool's fee, paid
 * on a LONG's quote (price / (1 - fee)) and on a SHORT's base (price * (1 - fee)). None without the liquidity.
 */
function poolCurve(input: ExactRuleInput): Curve | undefined {
  const a = inverseSqrtPrice(input.currentPrice);
  if (a === undefined || input.liquidity === 0n || input.feeRate >= PIPS) return undefined;
  const long = input.direction === "LONG";
  const fillRef = long ? mulDivDown(input.currentPrice * D18, PIPS, PIPS - input.feeRate) : mulDivDown(input.currentPrice * D18, PIPS - input.feeRate, PIPS);
  if (fillRef === undefined) return undefined;
  return { long, a, kNum: 10n ** 27n, kDen: input.liquidity, fillRef, uRef: a };
}

/**
 * The loss model at s on a curve: the requirement, the loss at the worst settlement price (s * (fill(s) - min) for a
 * LONG, s * (max - fill(s)) for a SHORT: how a market group values the collateral a position needs), signed (the model
 * may say a gain), and its slope in 10^-36 per wei. Prices held to 10^-36 (at 10^-18 a size of 10^18 would turn the
 * fill's last unit into a wei); every product floored (mulDivDown). None where a value leaves its bounds.
 */
function modelAt(curve: Curve, worst36: bigint, s: bigint): { value: bigint; slope: bigint } | undefined {
  const shift = mulDivDown(curve.kNum, s, curve.kDen);
  if (shift === undefined || (curve.long ? shift >= curve.a : curve.a + shift > maxUint256)) return undefined;
  const u = curve.long ? curve.a - shift : curve.a + shift;
  const fill = mulDivDown(curve.fillRef, curve.uRef, u);
  const marginal = fill === undefined ? undefined : mulDivDown(fill, curve.a, u);
  if (fill === undefined || marginal === undefined) return undefined;
  const margin = curve.long ? fill - worst36 : worst36 - fill;
  const value = mulDivDown(s, abs(margin), D36);
  if (value === undefined || value >= MODEL_BOUND) return undefined;
  return { value: margin < 0n ? -value : value, slope: curve.long ? marginal - worst36 : worst36 - marginal };
}

/**
 * Newton's method on the loss model from `start`, where the model is worth `here`, towards `goal`: the first size at
 * or past it (one wei past the root), once a step is a wei or none, or after MODEL_STEPS. None where the slope is not
 * positive, a size leaves (0, 2^255-1] or a value its bounds.
 */
function newton(curve: Curve, worst36: bigint, goal: bigint, start: bigint, here: { value: bigint; slope: bigint }): bigint | undefined {
  let size = start;
  for (let i = 0; i < MODEL_STEPS; i++) {
    if (here.slope <= 0n) return undefined;
    const gap = goal - here.value;
    const step = mulDivDown(abs(gap), D36, here.slope);
    if (step === undefined) return undefined;
    size = gap < 0n ? size - step : size + step;
    if (size <= 0n || size > maxInt256) return undefined;
    // A step of a wei or none: the model has converged (its own rounding is coarser than that).
    if (step <= 1n) break;
    const next = modelAt(curve, worst36, size);
    if (next === undefined) return undefined;
    here = next;
  }
  return size < maxInt256 ? size + 1n : maxInt256;
}

/** The worst settlement price at 10^-36, when it fits 256 bits. */
function worst36Of(input: ExactRuleInput): bigint | undefined {
  const worst36 = input.worstPrice * D18;
  return worst36 > maxUint256 ? undefined : worst36;
}

/**
 * Where requiredCollateral first reaches `target` by the loss model on the latest quote's curve, its value shifted
 * to pass through the quote's own requiredCollateral: Newton's method from the quote.
 */
export function lossModelTop(input: ExactRuleInput, state: ExactState, target: bigint): bigint | undefined {
  const latest = latestOf(state);
  const curve = quoteCurve(input, latest);
  const worst36 = worst36Of(input);
  if (curve === undefined || worst36 === undefined) return undefined;
  const anchor = modelAt(curve, worst36, latest!.size);
  const distance = target - latest!.quote!.requiredCollateral;
  if (anchor === undefined || abs(distance) >= MODEL_BOUND) return undefined;
  return newton(curve, worst36, distance + anchor.value, latest!.size, anchor);
}

/** The wei one unit of requiredCollateral spans at a quoted side, by the loss model's slope there (at least 1). */
export function slopeUnit(input: ExactRuleInput, side: Known): bigint {
  const curve = quoteCurve(input, side);
  const worst36 = worst36Of(input);
  const here = curve === undefined || worst36 === undefined ? undefined : modelAt(curve, worst36, side.size);
  if (here === undefined || here.slope <= 0n) return 1n;
  const unit = D36 / here.slope;
  return unit > 0n ? unit : 1n;
}

/**
 * The wei a market group adds to every requirement against rounding (the real group's 2, which the reference group
 * copies): the pool's model, anchored on no quote, leaves it to the target.
 */
const REQUIREMENT_ROUNDING = 2n;

/** The budget's first size too large by the loss model on the pool's range, before any quote: Newton's method from 0. */
export function poolBudgetTop(input: ExactRuleInput): bigint | undefined {
  const curve = poolCurve(input);
  const worst36 = worst36Of(input);
  const target = input.collateralAvailable === maxUint256 ? maxUint256 : input.collateralAvailable + 1n;
  if (curve === undefined || worst36 === undefined || target >= MODEL_BOUND) return undefined;
  const origin = modelAt(curve, worst36, 0n);
  return origin === undefined ? undefined : newton(curve, worst36, target - REQUIREMENT_ROUNDING, 0n, origin);
}

/**
 * The size at which the price reaches expectedPrice on the pool's range at the block: 1/sqrt(price) moves by size /
 * L, a SHORT's base paying the fee on top. None without the liquidity, or where the scale refuses a price.
 */
export function poolPriceTop(input: ExactRuleInput): bigint | undefined {
  const a = inverseSqrtPrice(input.currentPrice);
  const t = inverseSqrtPrice(input.expectedPrice);
  if (a === undefined || t === undefined || input.liquidity === 0n || input.feeRate >= PIPS) return undefined;
  const moved = mulDivDown(input.liquidity, abs(a - t), 10n ** 27n);
  if (moved === undefined) return undefined;
  return input.direction === "LONG" ? moved : mulDivDown(moved, PIPS, PIPS - input.feeRate);
}

