// The explorer's exact numbers: every price, size and amount the API sends is read into a BigInt (prices in
// 10^-18 units) and shown with string arithmetic, never through a floating-point Number.

/** 10^18: one unit of a price. */
export const E18 = 10n ** 18n;

/** A decimal text (`-1.5`, `1030`, `2.5e3`) as a BigInt of 10^-18 units; null when it is not one or is finer. */
export function parseD18(text) {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d{1,4}))?$/.exec(String(text ?? "").trim());
  if (!match) return null;
  const [, sign, whole, fraction = "", exponent = "0"] = match;
  const shift = 18 + Number(exponent) - fraction.length;
  let digits = BigInt(whole + fraction);
  if (shift >= 0) digits *= 10n ** BigInt(shift);
  else {
    const unit = 10n ** BigInt(-shift);
    if (digits % unit !== 0n) return null;
    digits /= unit;
  }
  return sign ? -digits : digits;
}

/** A whole number (wei, a size) as a BigInt; null otherwise. */
export function parseInteger(text) {
  return /^-?\d+$/.test(String(text ?? "").trim()) ? BigInt(String(text).trim()) : null;
}

/** 10^-18 units as the shortest exact decimal: 45898437500000000n -> "0.0458984375". */
export function formatD18(value) {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const fraction = (magnitude % E18).toString().padStart(18, "0").replace(/0+$/, "");
  const text = fraction ? `${magnitude / E18}.${fraction}` : `${magnitude / E18}`;
  return negative ? `-${text}` : text;
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

/** Rounds a positive 10^-18 value to `digits` significant digits, for labels only ("about" is said by callers). */
export function roundSignificant(value, digits = 6) {
  const length = abs(value).toString().length;
  if (length <= digits) return value;
  const unit = 10n ** BigInt(length - digits);
  return ((value + unit / 2n) / unit) * unit;
}

/** A Uniswap sqrt price (Q64.96) as a 10^-18 price, rounded to nearest. */
export function sqrtX96ToD18(sqrtPrice) {
  const q192 = 2n ** 192n;
  return (sqrtPrice * sqrtPrice * E18 + q192 / 2n) / q192;
}
