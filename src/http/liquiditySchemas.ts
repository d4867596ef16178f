// The liquidity route (semantics §14) as the OpenAPI document states it: its parameters (the path's of a quote, its
// own query), its answer in §14's order, and its errors with named examples true on the demo chain (a test replays
// each). Annotations only (but the order of the properties, which is the order the route writes them in).
import { LIQUIDITY_QUERY_PARAMS } from "../quote/liquidityRequest.ts";
import { DEMO_MARKET_GROUP } from "../quote/params.ts";
import { insufficientCollateralForRange, invalidQueryParameters, marketSettled } from "../quote/quoteErrors.ts";
import { DEMO_BLOCK_HASH, DEMO_BLOCK_NUMBER } from "./docExamples.ts";
import { errorResponse, example, quoteErrorResponses } from "./errorSchemas.ts";
import { BASE_PATH } from "./paths.ts";
import { quoteResponseSchema } from "./responseSchemas.ts";
import { quoteParamsSchema, rowsSchema } from "./schemas.ts";

const wei = { type: "string", pattern: "^(0|[1-9][0-9]*)$" } as const;
const q = quoteResponseSchema.properties;
const tick = { type: "integer", minimum: -887272, maximum: 887272 } as const;

/** A request of the demo's liquidity quote: the examples' (a test replays each on the demo chain). */
export function demoLiquidityRequest(marketId: number, query: Record<string, string>): string {
  return `GET ${BASE_PATH}/31337/${DEMO_MARKET_GROUP}/${marketId}/liquidity?${new URLSearchParams(query)}`;
}

const traceSchema = {
  type: "array",
  description: "trace=true: each candidate quoted, in order: its liquidity, whether it fits, its tokens and requirement (or its revert)",
  items: {
    type: "object",
    required: ["liquidity", "outcome"],
    additionalProperties: false,
    properties: {
      liquidity: { ...wei, description: "The candidate liquidity" },
      outcome: { type: "string", enum: ["fits", "over-budget", "reverted"], description: "fits: its requirement is at most collateralAvailable" },
      amountBaseToken: { ...wei, description: "getTokensFromLiquidity's base tokens of it" },
      amountQuoteToken: { ...wei, description: "getTokensFromLiquidity's quote tokens of it" },
      requiredCollateral: { ...wei, description: "The requirement its mint names (InsufficientCollateral), 18-decimal units" },
      revert: { type: "string", description: "The decoded error of a revert other than InsufficientCollateral, or its data" },
      revertArgs: { type: "object", additionalProperties: { type: "string" }, description: "The decoded error's arguments" },
    },
  },
} as const;

/** The properties in §14's order. */
const properties = {
  lowerTick: { ...tick, description: "The range's lower tick: the lower price's tick aligned down to the pool's spacing (absent: the market's lowest)" },
  upperTick: { ...tick, description: "The range's upper tick: the upper price's tick aligned up to the pool's spacing (absent: the market's highest)" },
  lowerPrice: { ...q.currentPrice, description: "The lower tick's price (rounded up): asked again, it is the same tick" },
  upperPrice: { ...q.currentPrice, description: "The upper tick's price (rounded up)" },
  currentPrice: q.currentPrice,
  liquidity: { ...wei, description: "L: the largest liquidity whose mint needs at most collateralAvailable; L + 1 needs more (both quoted at blockNumber)" },
  mintedLiquidity: {
    ...wei,
    description: "What the mint of the amounts gets: Uniswap v3's getLiquidityForAmounts at the block's price, a few units under liquidity where its roundings meet",
  },
  amountBaseToken: { ...wei, description: "createLiquidityPosition's amountBaseToken: getTokensFromLiquidity's base tokens of liquidity, 18 decimals" },
  amountQuoteToken: { ...wei, description: "createLiquidityPosition's amountQuoteToken: the quote tokens, 18 decimals" },
  requiredCollateral: { ...wei, description: "The collateral the position needs (the group's InsufficientCollateral requirement), 18-decimal units" },
  maxCollateral: { ...wei, description: "requiredCollateral in the collateral token's own units, rounded up: the least collateralAmount that mints it" },
  collateralAvailable: { ...wei, description: "The request's budget, in wei (18-decimal units)" },
  groupQuote: {
    type: ["object", "null"],
    description: "The group's own quote for the budget (quoteLiquidityPositionTokens) and whether its amounts mint with it; null where it reverted",
    required: ["liquidity", "amountBaseToken", "amountQuoteToken", "fits"],
    additionalProperties: false,
    properties: {
      liquidity: { ...wei, description: "The liquidity the group quotes" },
      amountBaseToken: { ...wei, description: "Its base tokens" },
      amountQuoteToken: { ...wei, description: "Its quote tokens" },
      fits: { type: "boolean", description: "Whether their mint needs at most collateralAvailable" },
    },
  },
  candidates: { type: "integer", minimum: 1, description: "How many liquidities were quoted (the group's first)" },
  exact: { type: "boolean", const: true, description: "Always true: liquidity fits and liquidity + 1 does not, both quoted" },
  blockNumber: q.blockNumber,
  blockHash: q.blockHash,
  collateralDecimals: q.collateralDecimals,
  trace: traceSchema,
  trade: {
    ...q.trade,
    description:
      "With taker: the createLiquidityPosition transaction ready to sign: the amounts and range above, collateralAmount " +
      "(collateralLimit) maxCollateral raised by slippageBps, never past collateralAvailable nor below maxCollateral, the " +
      "minimum amounts less slippageBps (rounded down), the deadline; its approval, the taker's balance, calls and simulation",
  },
} as const;

export const liquidityResponseSchema = {
  type: "object",
  description: "The largest liquidity the budget mints in the range, proven, with the tokens and collateral it takes",
  required: Object.keys(properties).filter((name) => !["trace", "trade"].includes(name)),
  additionalProperties: false,
  properties,
  "x-examples": {
    narrow: {
      summary: "0.01 token in [0.45, 0.55] around market 1's price: the group's own quote does not mint with it",
      description: demoLiquidityRequest(1, { collateralAvailable: "10000000000000000", lowerPrice: "0.45", upperPrice: "0.55" }),
      value: {
        lowerTick: -8000,
        upperTick: -5800,
        lowerPrice: "0.449346936437085608",
        upperPrice: "0.559914602771051583",
        currentPrice: "0.500119050896956407",
        liquidity: "277194131044665678",
        mintedLiquidity: "277194131044665651",
        amountBaseToken: "21520553400008671",
        amountQuoteToken: "10216684402423972",
        requiredCollateral: "10000000000000000",
        maxCollateral: "10000000000000000",
        collateralAvailable: "10000000000000000",
        groupQuote: { liquidity: "277194131044665741", amountBaseToken: "21520553400008675", amountQuoteToken: "10216684402423975", fits: false },
        candidates: 8,
        exact: true,
        blockNumber: DEMO_BLOCK_NUMBER,
        blockHash: DEMO_BLOCK_HASH,
        collateralDecimals: 18,
      },
    },
    whole: {
      summary: "1 token over market 1's whole range",
      description: demoLiquidityRequest(1, { collateralAvailable: "1000000000000000000" }),
      value: {
        lowerTick: -46000,
        upperTick: -200,
        lowerPrice: "0.010054147778594249",
        upperPrice: "0.980199653440576966",
        currentPrice: "0.500119050896956407",
        liquidity: "1919875048500636029",
        mintedLiquidity: "1919875048500636027",
        amountBaseToken: "775621008686193070",
        amountQuoteToken: "1165211686581081408",
        requiredCollateral: "1000000000000000000",
        maxCollateral: "1000000000000000000",
        collateralAvailable: "1000000000000000000",
        groupQuote: { liquidity: "1919875048500636025", amountBaseToken: "775621008686193068", amountQuoteToken: "1165211686581081405", fits: true },
        candidates: 4,
        exact: true,
        blockNumber: DEMO_BLOCK_NUMBER,
        blockHash: DEMO_BLOCK_HASH,
        collateralDecimals: 18,
      },
    },
  },
} as const;

const ASK = { collateralAvailable: "1000000000000000000" };
const DEMO_RANGE = "the market's range is [0.010054147778594249, 0.980199653440576966] (ticks -46000 to -200, spacing 200)";

export const liquidityErrorResponses = {
  ...quoteErrorResponses,
  400: errorResponse(
    "A malformed request (details name each failing parameter), a range past the market's bounds or empty once " +
      "aligned (details name the bounds as prices), a settled or ended market, a budget under what a liquidity of 1 " +
      "needs in the range (details name that least collateral), or a mint the group refuses for another reason",
    {
      settled: example(marketSettled().toBody(), demoLiquidityRequest(3, ASK)),
      pastBound: example(
        invalidQueryParameters([{ param: "lowerPrice", message: `is below the market's lowest price once aligned (tick -69200): ${DEMO_RANGE}` }]).toBody(),
        demoLiquidityRequest(1, { ...ASK, lowerPrice: "0.001" }),
        "Invalid query parameters: a range past the market's bounds",
      ),
      dust: example(
        insufficientCollateralForRange(0n, 1n).toBody(),
        demoLiquidityRequest(1, { collateralAvailable: "1" }),
      ),
    },
  ),
} as const;

export const liquidityRouteSchema = {
  operationId: "getLiquidityQuote",
  tags: ["quote"],
  summary: "Largest liquidity a collateral budget mints in a price range, proven, ready to sign",
  description:
    "Reads the market, its reference price, its pool's sqrt price and tick spacing at the latest block, aligns the range " +
    "to the spacing (outwards), asks the group's own quote (quoteLiquidityPositionTokens) and searches the largest " +
    "liquidity L whose tokens (getTokensFromLiquidity) minted with no collateral revert InsufficientCollateral naming at " +
    "most collateralAvailable, L + 1 naming more. HEAD answers like GET without a body; other methods answer 405.",
  params: quoteParamsSchema,
  querystring: rowsSchema(LIQUIDITY_QUERY_PARAMS),
  response: { 200: liquidityResponseSchema, ...liquidityErrorResponses },
} as const;
