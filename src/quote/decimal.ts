// Exact parsing of the whole numbers the quoter reads (semantics §2): chain ids, market ids, wei, block numbers,
// iterations. Every price, size and budget stays a bigint; the decimals of prices are fixedPoint.ts's.
import { maxUint256 } from "viem";
import { stripLeadingZeros, type Parsed } from "./fixedPoint.ts";
import { err, ok } from "./result.ts";
import { MAX_DEADLINE_SECONDS, MAX_ITERATIONS, MAX_SLIPPAGE_BPS } from "./limits.ts";

const MAX_UINT256_DIGITS = maxUint256.toString().length; // 78

/** A plain decimal integer: digits only, leading zeros allowed. */
export const INTEGER_PATTERN = "^[0-9]+$";
const UNSIGNED_INTEGER = new RegExp(INTEGER_PATTERN);

/** A parse that failed: the rule the text broke. */
const fail = <T>(rule: string): Parsed<T> => err(rule);

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
export const SLIPPAGE_BPS_RULE = `must be a decimal integer from 0 to ${MAX_SLIPPAGE_BPS} (basis points: 50 is 0.5%)`;
export const DEADLINE_SECONDS_RULE = `must be a decimal integer from 1 to ${MAX_DEADLINE_SECONDS} (seconds)`;

export const WEI_OR_ZERO_RULE = "must be a decimal integer from 0 to 2^256-1 (wei)";

/** A wei amount: 1 .. 2^256-1. */
export function parseWei(text: string): Parsed<bigint> {
  return parseAmount(text, 1n, WEI_RULE);
}

/** A budget that may be 0 (a held position's: only trades that need no new collateral, semantics §13). */
export function parseWeiOrZero(text: string): Parsed<bigint> {
  return parseAmount(text, 0n, WEI_OR_ZERO_RULE);
}

function parseAmount(text: string, min: bigint, rule: string): Parsed<bigint> {
  const parsed = parseIntegerInRange(text, min, maxUint256, rule);
  if (parsed.ok) return parsed;
  // A decimal amount is the likeliest slip: say how it is written in wei.
  const decimal = /^(\d*)\.(\d{1,18})$/.exec(text);
  if (decimal === null) return parsed;
  const wei = stripLeadingZeros(`${decimal[1]}${decimal[2]!.padEnd(18, "0")}`);
  if (wei === "") return parsed;
  return fail(`${rule}: amounts are in wei (18-decimal units), so ${text} is written ${wei}`);
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

/** A count from 1 to `max` (a depth ladder's levels), as a number. */
export function parseCount(text: string, max: number): Parsed<number> {
  const parsed = parseIntegerInRange(text, 1n, BigInt(max), `must be a decimal integer from 1 to ${max}`);
  return parsed.ok ? ok(Number(parsed.value)) : parsed;
}

/** A trade's slippage (semantics §12): 0 .. 5000 basis points, as a number. */
export function parseSlippageBps(text: string): Parsed<number> {
  const parsed = parseIntegerInRange(text, 0n, BigInt(MAX_SLIPPAGE_BPS), SLIPPAGE_BPS_RULE);
  return parsed.ok ? ok(Number(parsed.value)) : parsed;
}

/** A trade's deadline after the answer's block (semantics §12): 1 .. 86400 seconds, as a number. */
export function parseDeadlineSeconds(text: string): Parsed<number> {
  const parsed = parseIntegerInRange(text, 1n, BigInt(MAX_DEADLINE_SECONDS), DEADLINE_SECONDS_RULE);
  return parsed.ok ? ok(Number(parsed.value)) : parsed;
}
