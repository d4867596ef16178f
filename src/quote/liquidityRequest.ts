// A new liquidity position's quote (semantics §14): the quote's path, a budget, and an optional range of prices, with
// the GET's trace, minBlock and trade parameters. Its query rows are the table's (params.ts) where it has them, and
// two of its own: the range's prices.
import { DECIMAL_PATTERN, parseDecimalD18, type Parsed } from "./fixedPoint.ts";
import { QUOTE_PARAMS, type QuoteParam } from "./params.ts";
import { invalidQueryParameters, type QuoteError } from "./quoteErrors.ts";
import type { QuoteRequest } from "./quoteRequest.ts";
import { parsePathParams, readRows, type PathParams } from "./request.ts";
import { err, ok, type Result } from "./result.ts";

export type LiquidityRequest = PathParams &
  Pick<QuoteRequest, "collateralAvailable" | "trace" | "minBlock" | "taker" | "slippageBps" | "deadlineSeconds"> & {
    /** What tells a liquidity quote from a trader's among the requests of a batch, a cache or a stream. */
    readonly kind: "liquidity";
    /** D18, > 0; absent: the market's lowest price (its bound tick). */
    readonly lowerPrice?: bigint;
    /** D18, > 0; absent: the market's highest price. */
    readonly upperPrice?: bigint;
  };

const POSITIVE_RULE = "must be greater than 0";

/** A range's price: a decimal number per §2, greater than 0. */
function parsePositivePrice(text: string): Parsed<bigint> {
  const parsed = parseDecimalD18(text);
  return parsed.ok && parsed.value <= 0n ? err(POSITIVE_RULE) : parsed;
}

const priceRow = (side: "lower" | "upper", example: string): QuoteParam<bigint> => ({
  in: "query",
  required: false,
  parse: parsePositivePrice,
  pattern: DECIMAL_PATTERN,
  description:
    `The range's ${side} price (decimal, at most 18 decimals, greater than 0); absent: the market's ${side === "lower" ? "lowest" : "highest"} ` +
    `price. It becomes the pool's tick ${side === "lower" ? "at or below it, then the multiple of the tick spacing at or below that" : "at or below it, then the multiple of the tick spacing at or above that"}: ` +
    "the range covers what was asked. A range past the market's bounds, or empty once aligned, is a 400 naming the bounds",
  example,
  cli: { flag: `${side}-price` },
  explorer: { label: `${side === "lower" ? "Lower" : "Upper"} price`, placeholder: `the market's ${side === "lower" ? "lowest" : "highest"}` },
});

const LIQUIDITY_BUDGET = {
  ...QUOTE_PARAMS.collateralAvailable,
  description:
    "Collateral budget in wei, 1 to 2^256-1: 18-decimal units whatever the collateral token's decimals. The answer is the " +
    "largest liquidity whose position needs at most this much collateral (createLiquidityPosition's requirement), proven",
} as const;

/** The query's rows in the order the parser checks them (and a 400 names them). */
export const LIQUIDITY_QUERY_PARAMS: readonly (readonly [string, QuoteParam<unknown>])[] = [
  ["collateralAvailable", LIQUIDITY_BUDGET],
  ["lowerPrice", priceRow("lower", "0.4")],
  ["upperPrice", priceRow("upper", "0.6")],
  ["trace", QUOTE_PARAMS.trace],
  ["minBlock", QUOTE_PARAMS.minBlock],
  ["taker", QUOTE_PARAMS.taker],
  ["slippageBps", QUOTE_PARAMS.slippageBps],
  ["deadlineSeconds", QUOTE_PARAMS.deadlineSeconds],
];

/** The names a batch item of a liquidity quote may have, besides the path's. */
export const LIQUIDITY_QUERY_NAMES: readonly string[] = LIQUIDITY_QUERY_PARAMS.map(([name]) => name);

/** The request, or the 400 naming each parameter that breaks its rule (the path's first, as the GET's). */
export function parseLiquidityRequest(params: Record<string, unknown>, query: Record<string, unknown>): Result<LiquidityRequest, QuoteError> {
  const path = parsePathParams(params);
  if (!path.ok) return path;
  const rest = parseLiquidityQuery(query);
  return rest.ok ? ok({ ...path.value, ...rest.value }) : rest;
}

/** The query's part of the request (with its kind), or the 400 naming each parameter that breaks its rule. */
export function parseLiquidityQuery(query: Record<string, unknown>): Result<Omit<LiquidityRequest, keyof PathParams>, QuoteError> {
  const { values, details } = readRows(LIQUIDITY_QUERY_PARAMS, query);
  if (details.length > 0) return err(invalidQueryParameters(details));
  return ok({ kind: "liquidity", ...values } as Omit<LiquidityRequest, keyof PathParams>);
}
