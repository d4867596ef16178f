// The explorer's exact numbers: every price, size and amount the API sends is read into a BigInt (prices in
// 10^-18 units) and shown with string arithmetic, never through a floating-point Number. The fixed-point and price
// rules are the service's own (src/quote/fixedPoint.ts and priceMath.ts, served as modules), so the page reads
// numbers as the API does.
import { D18, formatD18, parseDecimalD18, roundSignificant } from "./lib/fixedPoint.js";
import { priceD18FromSqrtX96Nearest } from "./lib/priceMath.js";

/** 10^18: one unit of a price. */
export const E18 = D18;

export { formatD18, priceD18FromSqrtX96Nearest, roundSignificant };

/** A decimal text (`-1.5`, `1030`, `2.5e3`) as a BigInt of 10^-18 units, by the API's own rule; null when it is not one. */
export function parseD18(text) {
  const parsed = parseDecimalD18(String(text ?? "").trim());
  return parsed.ok ? parsed.value : null;
}

/** A whole number (wei, a size) as a BigInt; null otherwise. */
export function parseInteger(text) {
  return /^-?\d+$/.test(String(text ?? "").trim()) ? BigInt(String(text).trim()) : null;
}

export const abs = (v) => (v < 0n ? -v : v);
export const minBig = (values) => values.reduce((a, b) => (b < a ? b : a));
export const maxBig = (values) => values.reduce((a, b) => (b > a ? b : a));

/** A size or an amount in wei, with its value in 10^18 units: "45898437500000000 wei (0.0458984375 × 10^18)". */
export function wei(value) {
  return `${value} wei (${formatD18(value)} × 10^18)`;
}

/** part / whole as a percentage with two decimals, rounded down, in BigInt: (45898437500000000n, 46392895919600201n) -> "98.93%". */
export function percentOf(part, whole) {
  if (whole === 0n) return "n/a";
  const hundredths = (part * 10000n) / whole;
  if (hundredths === 0n && part !== 0n) return "under 0.01%";
  return `${hundredths / 100n}.${(hundredths % 100n).toString().padStart(2, "0")}%`;
}
