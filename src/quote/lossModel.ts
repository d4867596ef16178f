// The loss model the exact search's rule steers by (semantics §4b): a position's requirement, its loss at the worst
// settlement price, along a Uniswap v3 pool's curve within one liquidity range; from the latest quote, and from the
// pool's own range before any quote. As contracts/ExactSearchRule.sol computes it, function for function in its
// order (Curve, _quoteCurve, _poolCurve, _lossModelTop, _poolBudgetTop, _poolPriceTop, _slopeUnit, _newton, _modelAt).
import { maxInt256, maxUint256 } from "viem";
import { abs, D36, inverseSqrtPrice } from "./exactMath.ts";
import { latest, type ExactRuleInput, type ExactState, type Known, type PreparedInput } from "./exactState.ts";
import { D18 } from "./fixedPoint.ts";
import { mulDivDown } from "./priceMath.ts";

/** Newton steps on the loss model: enough to converge from any quote on one range. */
const MODEL_STEPS = 8;

/** 2^255: doubled values at or above it leave 256 bits. */
export const HALF_RANGE = 1n << 255n;

/** The loss model's values and its distance to the target stay below 2^253, so that their sums fit an int256. */
const MODEL_BOUND = 1n << 253n;

/** What the loss model reads of the input: the request, the market, and the current price's scaled 1/sqrt. */
type RootedInput = ExactRuleInput & Pick<PreparedInput, "currentRoot">;

/** Parts of a million: the unit of a v3 fee tier. */
const PIPS = 1_000_000n;

/** The scale of 1/sqrt(price) (see inverseSqrtPrice): a v3 pool moves it by size * SCALE / L within a range. */
const SCALE = 10n ** 27n;

/**
 * The wei a market group adds to every requirement against rounding (the real group's 2, which the reference group
 * copies): the pool's model, anchored on no quote, leaves it to the target.
 */
const REQUIREMENT_ROUNDING = 2n;

/**
 * A trade's curve on one liquidity range of a Uniswap v3 pool, as the loss model reads it: u(s), the scaled 1/sqrt of
 * the price after a trade of s, is affine in s (u(0) = a, the current price's; moving by `kNum / kDen` per wei, down
 * for a LONG, up for a SHORT), and the trade's average fill price moves as sqrt(price after): fill(s) = fill(r) *
 * u(r) / u(s), given at one size r by `fillRef` (10^-36) and `uRef`; and the worst settlement price at 10^-36.
 */
type Curve = {
  readonly long: boolean;
  readonly a: bigint;
  readonly kNum: bigint;
  readonly kDen: bigint;
  readonly fillRef: bigint;
  readonly uRef: bigint;
  readonly worst36: bigint;
};

/**
 * The curve through a quoted side: u from the current price's to the quote's priceAfter over its size, the fill at
 * the quote's fillPrice. None where the quote gives no curve (a revert, a price the scale refuses, no price move) or a
 * price at 10^-36 leaves 256 bits.
 */
function quoteCurve(input: RootedInput, side: Known | undefined): Curve | undefined {
  const quote = side?.quote;
  if (side === undefined || quote === undefined) return undefined;
  const a = input.currentRoot;
  const b = inverseSqrtPrice(quote.priceAfter);
  const fillRef = quote.fillPrice * D18;
  if (a === undefined || b === undefined || a === b || fillRef > maxUint256) return undefined;
  const worst36 = input.worstPrice * D18;
  if (worst36 > maxUint256) return undefined;
  return { long: input.direction === "LONG", a, kNum: abs(a - b), kDen: side.size, fillRef, uRef: b, worst36 };
}

/**
 * The curve of the pool's own range at the block, before any quote: u moves by SCALE / liquidity per wei (a v3 pool
 * moves 1/sqrt(price) by size / L within a range), the fill starts at the current price with the pool's fee, paid
 * on a LONG's quote (price / (1 - fee)) and on a SHORT's base (price * (1 - fee)). None without the liquidity.
 */
function poolCurve(input: RootedInput): Curve | undefined {
  const a = input.currentRoot;
  const worst36 = input.worstPrice * D18;
  if (a === undefined || input.liquidity === 0n || input.feeRate >= PIPS || worst36 > maxUint256) return undefined;
  const long = input.direction === "LONG";
  const fillRef = long ? mulDivDown(input.currentPrice * D18, PIPS, PIPS - input.feeRate) : mulDivDown(input.currentPrice * D18, PIPS - input.feeRate, PIPS);
  if (fillRef === undefined) return undefined;
  return { long, a, kNum: SCALE, kDen: input.liquidity, fillRef, uRef: a, worst36 };
}

/**
 * Where requiredCollateral first reaches `target` by the loss model on the latest quote's curve, its value shifted
 * to pass through the quote's own requiredCollateral: Newton's method from the quote.
 */
export function lossModelTop(input: RootedInput, state: ExactState, target: bigint): bigint | undefined {
  const last = latest(state);
  const curve = quoteCurve(input, last);
  if (curve === undefined) return undefined;
  const anchor = modelAt(curve, last!.size);
  const distance = target - last!.quote!.requiredCollateral;
  if (anchor === undefined || abs(distance) >= MODEL_BOUND) return undefined;
  return newton(curve, distance + anchor.value, last!.size, anchor);
}

/** The budget's first size too large by the loss model on the pool's range, before any quote: Newton's method from 0. */
export function poolBudgetTop(input: RootedInput): bigint | undefined {
  const curve = poolCurve(input);
  const target = input.collateralAvailable === maxUint256 ? maxUint256 : input.collateralAvailable + 1n;
  if (curve === undefined || target >= MODEL_BOUND) return undefined;
  const origin = modelAt(curve, 0n);
  return origin === undefined ? undefined : newton(curve, target - REQUIREMENT_ROUNDING, 0n, origin);
}

/**
 * The size at which the price reaches expectedPrice on the pool's range at the block: 1/sqrt(price) moves by size /
 * L, a SHORT's base paying the fee on top. None without the liquidity, or where the scale refuses a price.
 */
export function poolPriceTop(input: RootedInput): bigint | undefined {
  const a = input.currentRoot;
  const t = inverseSqrtPrice(input.expectedPrice);
  if (a === undefined || t === undefined || input.liquidity === 0n || input.feeRate >= PIPS) return undefined;
  const moved = mulDivDown(input.liquidity, abs(a - t), SCALE);
  if (moved === undefined) return undefined;
  return input.direction === "LONG" ? moved : mulDivDown(moved, PIPS, PIPS - input.feeRate);
}

/** The wei one unit of requiredCollateral spans at a quoted side, by the loss model's slope there (at least 1). */
export function slopeUnit(input: RootedInput, side: Known): bigint {
  const curve = quoteCurve(input, side);
  const here = curve === undefined ? undefined : modelAt(curve, side.size);
  if (here === undefined || here.slope <= 0n) return 1n;
  const unit = D36 / here.slope;
  return unit > 0n ? unit : 1n;
}

/**
 * Newton's method on the loss model from `start`, where the model is worth `here`, towards `goal`: the first size at
 * or past it (one wei past the root), once a step is a wei or none, or after MODEL_STEPS. None where the slope is not
 * positive, a size leaves (0, 2^255-1] or a value its bounds.
 */
function newton(curve: Curve, goal: bigint, start: bigint, here: { value: bigint; slope: bigint }): bigint | undefined {
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
    const next = modelAt(curve, size);
    if (next === undefined) return undefined;
    here = next;
  }
  return size < maxInt256 ? size + 1n : maxInt256;
}

/**
 * The loss model at s on a curve: the requirement, the loss at the worst settlement price (s * (fill(s) - min) for a
 * LONG, s * (max - fill(s)) for a SHORT: how a market group values the collateral a position needs), signed (the model
 * may say a gain), and its slope in 10^-36 per wei. Prices held to 10^-36 (at 10^-18 a size of 10^18 would turn the
 * fill's last unit into a wei); every product floored (mulDivDown). None where a value leaves its bounds.
 */
function modelAt(curve: Curve, s: bigint): { value: bigint; slope: bigint } | undefined {
  const { worst36 } = curve;
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
