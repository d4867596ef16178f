// Exact parsing and formatting of the numbers the quoter reads and writes (semantics §2, §5).
// Every price, size and budget stays a bigint: no floating point anywhere on the way.
import { err, ok, type Result } from "./result.ts";
import { MAX_ITERATIONS } from "./limits.ts";
import { maxUint256 } from "viem";

/** The outcome of a parse: the value, or the rule the text broke. Never thrown. */
export type Parsed<T> = Result<T, string>;

/** 10^18: one unit of a D18 fixed-point price. */
export const D18 = 10n ** 18n;

const MAX_UINT256_DIGITS = maxUint256.toString().length; // 78
/** An exponent with more digits than this is larger than any string JavaScript can hold. */
const HUGE_EXPONENT_DIGITS = 15;

/** §2's decimal number, as the route schema states it; its groups are the fraction and the exponent. */
export const DECIMAL_PATTERN = "^-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$";
/** A plain decimal integer: digits only, leading zeros allowed. */
export const INTEGER_PATTERN = "^[0-9]+$";
const DECIMAL = new RegExp(DECIMAL_PATTERN);
const UNSIGNED_INTEGER = new RegExp(INTEGER_PATTERN);

const DECIMAL_FORMAT_RULE =
  "must be a decimal number: optional '-', digits, optional '.' and digits, optional exponent (e.g. 1, 0.5, 1e-7)";
const D18_GRANULARITY_RULE = "must be a whole number of 10^-18";
const D18_MAGNITUDE_RULE = "must be at most (2^256-1)/10^18";

/** A parse that failed: the rule the text broke. */
const fail = <T>(rule: string): Parsed<T> => err(rule);

function stripLeadingZeros(digits: string): string {
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
  if (match === null) return fail(DECIMAL_FORMAT_RULE);
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
    return fail(expSign === "-" ? D18_GRANULARITY_RULE : D18_MAGNITUDE_RULE);
  }
  const exponent = (expSign === "-" ? -1n : 1n) * BigInt(expMagnitude === "" ? "0" : expMagnitude);
  const shift = exponent - BigInt(fracDigits.length) + BigInt(trailingZeros) + 18n;

  // The significand has no trailing zero, so a negative shift leaves a fraction of 10^-18.
  if (shift < 0n) return fail(D18_GRANULARITY_RULE);
  if (BigInt(significand.length) + shift > BigInt(MAX_UINT256_DIGITS)) return fail(D18_MAGNITUDE_RULE);

  const magnitude = BigInt(significand) * 10n ** shift;
  if (magnitude > maxUint256) return fail(D18_MAGNITUDE_RULE);
  return ok(negative ? -magnitude : magnitude);
}

/** The shortest exact decimal of a D18 value: `1000`, `0.5`, `0.000000000000000001`, `-2.25`. */
export function formatD18(value: bigint): string {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const whole = (magnitude / D18).toString();
  const fraction = stripTrailingZeros((magnitude % D18).toString().padStart(18, "0"));
  const unsigned = fraction === "" ? whole : `${whole}.${fraction}`;
  return negative ? `-${unsigned}` : unsigned;
}

/**
 * Parses a plain decimal integer (digits only, leading zeros allowed) within [min, max] (max at most 2^256-1).
 * The digit count is checked before any bigint is built: more digits than 2^256-1 has is out of every range.
 */
function parseIntegerInRange(text: string, min: bigint, max: bigint, rule: string): Parsed<bigint> {
  if (!UNSIGNED_INTEGER.test(text)) return fail(rule);
  const digits = stripLeadingZeros(text);
  if (digits.length > MAX_UINT256_DIGITS) return fail(rule);
  const value = BigInt(digits === "" ? "0" : digits);
  if (value < min || value > max) return fail(rule);
  return ok(value);
}

export const WEI_RULE = "must be a decimal integer from 1 to 2^256-1 (wei)";
export const CHAIN_ID_RULE = "must be a decimal integer from 1 to 2^53-1";
export const MARKET_ID_RULE = "must be a decimal integer from 0 to 2^256-1";
export const MAX_ITERATIONS_RULE = `must be a decimal integer from 1 to ${MAX_ITERATIONS}`;
export const BLOCK_NUMBER_RULE = "must be a decimal integer from 0 to 2^64-1 (a block number)";

/** A wei amount: 1 .. 2^256-1. */
export function parseWei(text: string): Parsed<bigint> {
  const parsed = parseIntegerInRange(text, 1n, maxUint256, WEI_RULE);
  if (parsed.ok) return parsed;
  // A decimal amount is the likeliest slip: say how it is written in wei.
  const decimal = /^(\d*)\.(\d{1,18})$/.exec(text);
  if (decimal === null) return parsed;
  const wei = stripLeadingZeros(`${decimal[1]}${decimal[2]!.padEnd(18, "0")}`);
  if (wei === "") return parsed;
  return fail(`${WEI_RULE}: amounts are in wei (18-decimal units), so ${text} is written ${wei}`);
}

/** A chain id: 1 .. 2^53-1, as a number. */
export function parseChainId(text: string): Parsed<number> {
  const parsed = parseIntegerInRange(text, 1n, BigInt(Number.MAX_SAFE_INTEGER), CHAIN_ID_RULE);
  return parsed.ok ? ok(Number(parsed.value)) : parsed;
}

/** A market id within its group: 0 .. 2^256-1. */
export function parseMarketId(text: string): Parsed<bigint> {
  return parseIntegerInRange(text, 0n, maxUint256, MARKET_ID_RULE);
}

/** A block number: 0 .. 2^64-1, the range of an EVM block number. */
export function parseBlockNumber(text: string): Parsed<bigint> {
  return parseIntegerInRange(text, 0n, 2n ** 64n - 1n, BLOCK_NUMBER_RULE);
}

/** The number of search iterations: 1 .. 10, as a number. */
export function parseMaxIterations(text: string): Parsed<number> {
  const parsed = parseIntegerInRange(text, 1n, BigInt(MAX_ITERATIONS), MAX_ITERATIONS_RULE);
  return parsed.ok ? ok(Number(parsed.value)) : parsed;
}
