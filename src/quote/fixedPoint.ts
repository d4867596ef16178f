// Fixed-point decimals, exact in bigint: prices are D18 (value × 10^18). Each function states its rounding; sqrt
// prices are priceMath.ts's. The module imports nothing but result.ts, so that the explorer page loads it as it is
// (served at /quoter/explorer/lib/): the browser's figures follow the same rules as the service's.
import { err, ok, type Result } from "./result.ts";

/** The outcome of a parse: the value, or the rule the text broke. Never thrown. */
export type Parsed<T> = Result<T, string>;

/** 10^18: one unit of a D18 fixed-point price. */
export const D18 = 10n ** 18n;

/** 2^256 - 1, viem's `maxUint256` (a test checks they agree): a module the browser loads cannot import viem. */
export const MAX_UINT256 = (1n << 256n) - 1n;
const MAX_UINT256_DIGITS = 78;
/** An exponent with more digits than this is larger than any string JavaScript can hold. */
const HUGE_EXPONENT_DIGITS = 15;

/** §2's decimal number, as the route schema states it; its groups are the fraction and the exponent. */
export const DECIMAL_PATTERN = "^-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$";
const DECIMAL = new RegExp(DECIMAL_PATTERN);

const DECIMAL_FORMAT_RULE =
  "must be a decimal number: optional '-', digits, optional '.' and digits, optional exponent (e.g. 1, 0.5, 1e-7)";
const D18_GRANULARITY_RULE = "must be a whole number of 10^-18";
const D18_MAGNITUDE_RULE = "must be at most (2^256-1)/10^18";

/** The digits without their leading zeros ("" for zero). */
export function stripLeadingZeros(digits: string): string {
  let i = 0;
  while (i < digits.length && digits.charCodeAt(i) === 48) i++;
  return digits.slice(i);
}

function stripTrailingZeros(digits: string): string {
  let end = digits.length;
  while (end > 0 && digits.charCodeAt(end - 1) === 48) end--;
  return digits.slice(0, end);
}

/**
 * Parses a decimal number exactly into D18 fixed point (value * 10^18), per semantics §2.
 * The sign is kept: `-0.5` gives -5 * 10^17. Huge exponents are judged by digit counts and
 * never expanded, so `1e999999999` answers at once.
 */
export function parseDecimalD18(text: string): Parsed<bigint> {
  const match = DECIMAL.exec(text);
  if (match === null) return err(DECIMAL_FORMAT_RULE);
  // The fraction keeps its '.' and the exponent its 'e': what precedes both is the sign and the integer digits.
  const [, fraction = "", exponentPart = ""] = match;
  const negative = text.startsWith("-");
  const intDigits = text.slice(negative ? 1 : 0, text.length - fraction.length - exponentPart.length);
  const fracDigits = fraction.slice(1);
  const expSign = exponentPart.charAt(1) === "-" ? "-" : "";
  const expDigits = exponentPart.replace(/^[eE][-+]?/, "");

  // The value is significand * 10^(exponent - fracDigits.length + trailing zeros removed).
  const allDigits = stripLeadingZeros(intDigits + fracDigits);
  const significand = stripTrailingZeros(allDigits);
  if (significand === "") return ok(0n);
  const trailingZeros = allDigits.length - significand.length;

  const expMagnitude = stripLeadingZeros(expDigits);
  if (expMagnitude.length > HUGE_EXPONENT_DIGITS) {
    // |exponent| >= 10^15 dwarfs every digit count a string can have.
    return err(expSign === "-" ? D18_GRANULARITY_RULE : D18_MAGNITUDE_RULE);
  }
  const exponent = (expSign === "-" ? -1n : 1n) * BigInt(expMagnitude === "" ? "0" : expMagnitude);
  const shift = exponent - BigInt(fracDigits.length) + BigInt(trailingZeros) + 18n;

  // The significand has no trailing zero, so a negative shift leaves a fraction of 10^-18.
  if (shift < 0n) return err(D18_GRANULARITY_RULE);
  if (BigInt(significand.length) + shift > BigInt(MAX_UINT256_DIGITS)) return err(D18_MAGNITUDE_RULE);

  const magnitude = BigInt(significand) * 10n ** shift;
  if (magnitude > MAX_UINT256) return err(D18_MAGNITUDE_RULE);
  return ok(negative ? -magnitude : magnitude);
}

/** The shortest exact decimal of a D18 value (no rounding): `1000`, `0.5`, `0.000000000000000001`, `-2.25`. */
export function formatD18(value: bigint): string {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const whole = (magnitude / D18).toString();
  const fraction = stripTrailingZeros((magnitude % D18).toString().padStart(18, "0"));
  const unsigned = fraction === "" ? whole : `${whole}.${fraction}`;
  return negative ? `-${unsigned}` : unsigned;
}

/** A positive value to `digits` significant digits, rounded to nearest (half up); for labels, never for answers. */
export function roundSignificant(value: bigint, digits = 6): bigint {
  const length = (value < 0n ? -value : value).toString().length;
  if (length <= digits) return value;
  const unit = 10n ** BigInt(length - digits);
  return ((value + unit / 2n) / unit) * unit;
}
