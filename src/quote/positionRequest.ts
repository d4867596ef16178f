// A quote of a held position (semantics §13): the request of a new position with the position's id in place of the
// market id (the market is the position's, read at the block), and a budget that may be 0 (only the trades that need
// no new collateral). Read by the table of parameters (params.ts) but for those two rows.
import { MARKET_ID_RULE, WEI_OR_ZERO_RULE, parseMarketId, parseWeiOrZero } from "./decimal.ts";
import { QUOTE_PARAMS } from "./params.ts";
import type { LiquidityRequest } from "./liquidityRequest.ts";
import type { QuoteRequest } from "./quoteRequest.ts";
import { invalidPathParameters, type QuoteError } from "./quoteErrors.ts";
import { checkExpectedPrice } from "./quoteAnswer.ts";
import { parseQueryParams, readParams, type ParamRows, type QueryParams } from "./request.ts";
import type { Result } from "./result.ts";

export type PositionRequest = Omit<QuoteRequest, "marketId"> & {
  /** The position's ERC-721 token id in its market group. */
  readonly positionId: bigint;
};

/** A quote of a new position (by market id), of a held one (by position id), or of a new liquidity position (§14). */
export type AnyQuoteRequest = QuoteRequest | PositionRequest | LiquidityRequest;

export function isPositionRequest(request: AnyQuoteRequest): request is PositionRequest {
  return "positionId" in request;
}

export function isLiquidityRequest(request: AnyQuoteRequest): request is LiquidityRequest {
  return "kind" in request && request.kind === "liquidity";
}

/** A new trader position's quote: neither a held position's nor a liquidity position's. */
export function isNewPositionRequest(request: AnyQuoteRequest): request is QuoteRequest {
  return !isPositionRequest(request) && !isLiquidityRequest(request);
}

/** §3.2 for the requests that have an expected price (a liquidity quote has none). */
export function checkAnyRequest(request: AnyQuoteRequest): QuoteError | undefined {
  return isLiquidityRequest(request) ? undefined : checkExpectedPrice(request.expectedPrice);
}

const stated = (rule: string) => rule.replace(/^must be /, "");

/** The position's id, where a new position's request has its market id. */
export const POSITION_ID_PARAM = {
  ...QUOTE_PARAMS.marketId,
  name: "positionId",
  parse: parseMarketId,
  description: `Position id (its ERC-721 token id) within the group, ${stated(MARKET_ID_RULE)}`,
  example: "1",
  explorer: { label: "Position id" },
} as const;

/** A held position's budget: new collateral the trader would add, 0 allowed. */
export const POSITION_BUDGET_PARAM = {
  ...QUOTE_PARAMS.collateralAvailable,
  parse: parseWeiOrZero,
  description:
    "New collateral the trader would add, in wei, 0 to 2^256-1: 18-decimal units whatever the collateral token's " +
    "decimals. 0 answers only the trades that need none (a reduce, a close, a flip the released collateral pays for). " +
    `The rule: ${stated(WEI_OR_ZERO_RULE)}`,
} as const;

/** The rows a held position's request reads otherwise than a new position's, by the table's names. */
export const POSITION_PATH_ROWS: ParamRows = { marketId: POSITION_ID_PARAM };
export const POSITION_QUERY_ROWS: ParamRows = { collateralAvailable: POSITION_BUDGET_PARAM };

export type PositionPathParams = Pick<PositionRequest, "chainId" | "marketAddress" | "positionId">;

/** The path of a position's quote (chainId, marketAddress, positionId), or the 400 naming each one that fails. */
export function parsePositionPath(params: Record<string, unknown>): Result<PositionPathParams, QuoteError> {
  const path = readParams("path", params, POSITION_PATH_ROWS);
  return path.details.length > 0 ? { ok: false, error: invalidPathParameters(path.details) } : { ok: true, value: path.values as PositionPathParams };
}

/** The query of a position's quote: the table's, but a budget of 0 is allowed. */
export function parsePositionQuery(query: Record<string, unknown>): Result<QueryParams, QuoteError> {
  return parseQueryParams(query, POSITION_QUERY_ROWS);
}
