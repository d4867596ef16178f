// The integer arithmetic the exact search's rule is written in (src/quote/exactRule.ts), each operation as
// contracts/ExactSearchRule.sol performs it: floored divisions, bounded to 256 bits where the chain's are.
import { maxInt256, maxUint256 } from "viem";

export const D18 = 10n ** 18n;
export const D36 = 10n ** 36n;

/** The largest D18 price whose scaled square (p * 10^36) fits 256 bits, as it must on chain. */
const MAX_SCALED_PRICE = maxUint256 / D36;

/**
 * 1 / sqrt(price), scaled: affine in size over one liquidity range (§4b). 10^54 / floor(sqrt(p * 10^36)), both
 * rounded down; none for a zero price or one above {@link MAX_SCALED_PRICE} (10^41 D18: no market's).
 */
export function inverseSqrtPrice(priceD18: bigint): bigint | undefined {
  if (priceD18 <= 0n || priceD18 > MAX_SCALED_PRICE) return undefined;
  return 10n ** 54n / sqrt(priceD18 * D36);
}

/**
 * floor(sqrt(n)) for n >= 0, by Newton's method from 2^ceil(bits/2), a start at or above the root: the iterates then
 * fall to it in a handful of steps (starting from n took about bits/2 halvings first).
 */
export function sqrt(n: bigint): bigint {
  if (n === 0n) return 0n;
  const bits = n.toString(16).length * 4;
  let x = 1n << BigInt((bits + 1) >> 1);
  let y = (x + n / x) >> 1n;
  while (y < x) {
    x = y;
    y = (x + n / x) >> 1n;
  }
  return x;
}

/** floor(x * y / z) for x, y >= 0 and z > 0, when it fits 256 bits (as mulDiv on chain); else none. */
export function mulDiv(x: bigint, y: bigint, z: bigint): bigint | undefined {
  const result = (x * y) / z;
  return result > maxUint256 ? undefined : result;
}

/**
 * Where the line through (s1, y1) and (s2, y2), s1 < s2, reaches `target`: s1 + |target - y1| * (s2 - s1) /
 * |y2 - y1| (rounded up: the first size at or past the target on the line; at most maxInt256), when the target lies
 * on the side the line moves to. Else none.
 */
export function interpolate(s1: bigint, y1: bigint, s2: bigint, y2: bigint, target: bigint): bigint | undefined {
  const rise = y2 - y1;
  const needed = target - y1;
  if (rise === 0n || (needed !== 0n && needed < 0n !== rise < 0n)) return undefined;
  const step = (abs(needed) * (s2 - s1) + abs(rise) - 1n) / abs(rise);
  const size = s1 + step;
  return size > maxInt256 ? maxInt256 : size;
}


export function abs(value: bigint): bigint {
  return value < 0n ? -value : value;
}
