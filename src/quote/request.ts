// Reads a quote request from its path and query parameters (semantics §2, §3.1, §7).
import { getAddress, type Address } from "viem";
import {
  parseChainId,
  parseDecimalD18,
  parseMarketId,
  parseMaxIterations,
  parseWei,
  type Parsed,
} from "./decimal.ts";
import { didYouMean } from "./spelling.ts";
import { invalidPathParameters, invalidQueryParameters, type ErrorDetail, type QuoteError } from "./errors.ts";

export type QuoteRequest = {
  chainId: number;
  /** EIP-55 checksummed. */
  marketAddress: Address;
  marketId: bigint;
  /** D18; may be zero or negative here: §3.2 checks it next. */
  expectedPrice: bigint;
  /** Wei. */
  collateralAvailable: bigint;
  maxIterations: number;
  /** D18, > 0; absent means the current price (§3.9). */
  priceLimit?: bigint;
  trace: boolean;
  /** §4: the interface's bisection (default), or §4b: the largest size, proven. */
  search: SearchMode;
};

export type SearchMode = "bisection" | "exact";
export const SEARCH_MODES: readonly SearchMode[] = ["bisection", "exact"];
export const SEARCH_RULE = `must be ${SEARCH_MODES.join(" or ")}`;

export type RequestParse = { ok: true; value: QuoteRequest } | { ok: false; error: QuoteError };

export const MAX_PARAMETER_LENGTH = 100;
export const DEFAULT_MAX_ITERATIONS = 10;

export const REQUIRED_RULE = "is required";
export const DUPLICATE_RULE = "must be given only once";
export const NOT_TEXT_RULE = "must be a single text value";
export const TOO_LONG_RULE = `must be at most ${MAX_PARAMETER_LENGTH} characters`;
export const ADDRESS_FORMAT_RULE = "must be 0x followed by 40 hexadecimal digits";
export const ADDRESS_CHECKSUM_RULE = "mixed-case address fails the EIP-55 checksum";
export const PRICE_LIMIT_POSITIVE_RULE = "must be greater than 0";

const HEX_ADDRESS = /^0x([0-9a-fA-F]{40})$/;

/** `0x` + 40 hex digits, all-lower, all-upper, or mixed case with a valid EIP-55 checksum; returned checksummed. */
export function parseMarketAddress(text: string): Parsed<Address> {
  const match = HEX_ADDRESS.exec(text);
  if (match === null) return { ok: false, message: ADDRESS_FORMAT_RULE };
  const hex = match[1] ?? "";
  const checksummed = getAddress(`0x${hex.toLowerCase()}`);
  const singleCase = hex === hex.toLowerCase() || hex === hex.toUpperCase();
  if (!singleCase && checksummed !== text) {
    // A wrong checksum often means a typo: the form is offered only for digits the caller has checked.
    return { ok: false, message: `${ADDRESS_CHECKSUM_RULE}; if its digits are right, its checksummed form is ${checksummed}` };
  }
  return { ok: true, value: checksummed };
}

/** A D18 price limit: a decimal number per §2, and greater than 0. */
export function parsePriceLimit(text: string): Parsed<bigint> {
  const parsed = parseDecimalD18(text);
  if (parsed.ok && parsed.value <= 0n) return { ok: false, message: PRICE_LIMIT_POSITIVE_RULE };
  return parsed;
}

/**
 * Collects parameter values, one detail per failing parameter. Shape rules (single text value,
 * at most 100 characters) are checked before the value is parsed.
 */
class ParamReader {
  readonly details: ErrorDetail[] = [];
  constructor(private readonly source: Record<string, unknown>) {}

  private text(name: string, required: boolean): string | undefined {
    const raw = this.source[name];
    if (raw === undefined) {
      if (required) this.details.push({ param: name, message: REQUIRED_RULE + didYouMean(name, Object.keys(this.source)) });
      return undefined;
    }
    let message: string | undefined;
    if (Array.isArray(raw)) message = DUPLICATE_RULE;
    else if (typeof raw !== "string") message = NOT_TEXT_RULE;
    else if (raw.length > MAX_PARAMETER_LENGTH) message = TOO_LONG_RULE;
    if (message !== undefined) {
      this.details.push({ param: name, message });
      return undefined;
    }
    return raw as string;
  }

  required<T>(name: string, parse: (text: string) => Parsed<T>): T | undefined {
    return this.parse(name, true, parse);
  }

  optional<T>(name: string, parse: (text: string) => Parsed<T>): T | undefined {
    return this.parse(name, false, parse);
  }

  private parse<T>(name: string, required: boolean, parse: (text: string) => Parsed<T>): T | undefined {
    const text = this.text(name, required);
    if (text === undefined) return undefined;
    const parsed = parse(text);
    if (parsed.ok) return parsed.value;
    this.details.push({ param: name, message: parsed.message });
    return undefined;
  }
}

/** `bisection` or `exact` (§2). */
function parseSearch(text: string): Parsed<SearchMode> {
  return (SEARCH_MODES as readonly string[]).includes(text) ? { ok: true, value: text as SearchMode } : { ok: false, message: SEARCH_RULE };
}

/** `true` only for the exact text "true"; any other value is ignored (§7). */
function parseTrace(text: string): Parsed<boolean> {
  return { ok: true, value: text === "true" };
}

/**
 * Validates the path (chainId, marketAddress, marketId) and then the query (expectedPrice,
 * collateralAvailable, maxIterations, priceLimit, trace, search). A bad path wins over a bad query.
 * Unknown query parameters are ignored.
 */
export function parseQuoteRequest(params: Record<string, unknown>, query: Record<string, unknown>): RequestParse {
  const path = new ParamReader(params);
  const chainId = path.required("chainId", parseChainId);
  const marketAddress = path.required("marketAddress", parseMarketAddress);
  const marketId = path.required("marketId", parseMarketId);
  if (path.details.length > 0) return { ok: false, error: invalidPathParameters(path.details) };

  const q = new ParamReader(query);
  const expectedPrice = q.required("expectedPrice", parseDecimalD18);
  const collateralAvailable = q.required("collateralAvailable", parseWei);
  const maxIterations = q.optional("maxIterations", parseMaxIterations) ?? DEFAULT_MAX_ITERATIONS;
  const priceLimit = q.optional("priceLimit", parsePriceLimit);
  const trace = q.optional("trace", parseTrace) ?? false;
  const search = q.optional("search", parseSearch) ?? "bisection";
  if (q.details.length > 0) return { ok: false, error: invalidQueryParameters(q.details) };

  if (chainId === undefined || marketAddress === undefined || marketId === undefined) {
    throw new Error("unreachable: path parameters without details");
  }
  if (expectedPrice === undefined || collateralAvailable === undefined) {
    throw new Error("unreachable: query parameters without details");
  }
  const value: QuoteRequest = { chainId, marketAddress, marketId, expectedPrice, collateralAvailable, maxIterations, trace, search };
  if (priceLimit !== undefined) value.priceLimit = priceLimit;
  return { ok: true, value };
}
