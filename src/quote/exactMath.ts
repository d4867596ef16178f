// The integer arithmetic the exact search's rule is written in (src/quote/exactRule.ts) beyond priceMath.ts's, each
// operation as contracts/ExactSearchRule.sol performs it: bounded to 256 bits where the chain's are.
import { maxInt256, maxUint256 } from "viem";
import { mulDivUp, sqrtDown } from "./priceMath.ts";

export const D36 = 10n ** 36n;

/** The largest D18 price whose scaled square (p * 10^36) fits 256 bits, as it must on chain. */
const MAX_SCALED_PRICE = maxUint256 / D36;

/**
 * 1 / sqrt(price), scaled, rounded down twice: 10^54 / sqrtDown(p * 10^36), the quotient rounded down (so at or above
 * floor(10^36 / sqrt(p))). Affine in size over one liquidity range (§4b). None for a zero price or one above
 * {@link MAX_SCALED_PRICE} (10^41 D18: no market's).
 */
export function inverseSqrtPrice(priceD18: bigint): bigint | undefined {
  if (priceD18 <= 0n || priceD18 > MAX_SCALED_PRICE) return undefined;
  return 10n ** 54n / sqrtDown(priceD18 * D36);
}

/**
 * Where the line through (s1, y1) and (s2, y2), 0 <= s1 < s2, reaches `target`: s1 + |target - y1| * (s2 - s1) /
 * |y2 - y1|, the quotient rounded up (the first size at or past the target on the line), at most maxInt256; when the
 * target lies on the side the line moves to. Else none.
 */
export function interpolate(s1: bigint, y1: bigint, s2: bigint, y2: bigint, target: bigint): bigint | undefined {
  const rise = y2 - y1;
  const needed = target - y1;
  if (rise === 0n || (needed !== 0n && needed < 0n !== rise < 0n)) return undefined;
  const step = mulDivUp(abs(needed), s2 - s1, abs(rise));
  // A step past 2^256 - 1 (where the chain's mulDiv stops) is past maxInt256 too.
  if (step === undefined) return maxInt256;
  const size = s1 + step;
  return size > maxInt256 ? maxInt256 : size;
}

export function abs(value: bigint): bigint {
  return value < 0n ? -value : value;
}
