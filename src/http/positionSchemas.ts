// The answer of a held position's quote (semantics §13) as the OpenAPI document states it: a new position's answer
// with the position's fields in place of requiredCollateral and maxCollateral, and its own errors. Annotations only
// (but the order of the properties, which is the order the route writes them in).
import { DEMO_MARKET_GROUP } from "../quote/params.ts";
import { notTraderPosition, positionNotFound, takerNotOwner } from "../quote/quoteErrors.ts";
import { DEMO_AT_BLOCK, DEMO_BLOCK_HASH, DEMO_BLOCK_NUMBER, ONE } from "./docExamples.ts";
import { errorResponse, example, quoteErrorResponses } from "./errorSchemas.ts";
import { BASE_PATH } from "./paths.ts";
import { quoteResponseSchema, traceSchema } from "./responseSchemas.ts";
import { DEMO_TAKER } from "./tradeSchema.ts";

/** The demo's deployer (Hardhat's first account), who owns demo positions 2 and 3. */
const DEMO_DEPLOYER = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

const signedWei = { type: "string", pattern: "^-?(0|[1-9][0-9]*)$" } as const;
const wei = { type: "string", pattern: "^(0|[1-9][0-9]*)$" } as const;

const t = traceSchema.items.properties;

/** A trace entry's properties in the order the answer writes them. */
export const positionTraceSchema = {
  ...traceSchema,
  items: {
    ...traceSchema.items,
    properties: {
      size: { ...signedWei, description: "The candidate trade in wei: positive buys (LONG), negative sells (SHORT)" },
      outcome: t.outcome,
      collateralDelta: { ...signedWei, description: "The modification's signed collateral move, 18-decimal units (absent when reverted)" },
      closePnL: { ...signedWei, description: "The position's PnL if closed at the trade's average price (absent when reverted)" },
      fillPrice: t.fillPrice,
      priceAfter: t.priceAfter,
      revert: t.revert,
      revertArgs: t.revertArgs,
    },
  },
} as const;

const q = quoteResponseSchema.properties;

/** The properties in the order the answer has them: §5's, with the position's where requiredCollateral and maxCollateral were. */
const properties = {
  direction: q.direction,
  maxSize: {
    ...signedWei,
    description: "The largest trade in wei: positive buys (LONG, expectedPrice above the price), negative sells (SHORT); the position's new size is currentSize + maxSize",
  },
  currentPrice: q.currentPrice,
  expectedPrice: q.expectedPrice,
  collateralAvailable: { ...wei, description: "The request's budget of new collateral, in wei (18-decimal units); 0 allowed" },
  positionId: { ...wei, description: "The position's id (its ERC-721 token id)" },
  owner: { type: "string", pattern: "^0x[0-9a-fA-F]{40}$", description: "The position's owner at blockNumber (EIP-55): the only account that can modify it" },
  marketId: { ...wei, description: "The position's market" },
  currentSize: { ...signedWei, description: "The position's size at blockNumber (getPositionSize), positive for a long" },
  targetSize: { ...signedWei, description: "currentSize + maxSize: the size to pass to modifyTraderPosition (0 closes)" },
  collateralDelta: {
    ...signedWei,
    description: "What the modification moves, in wei (18-decimal units): positive the trader deposits, negative collateral comes back",
  },
  closePnL: { ...signedWei, description: "The position's PnL if closed at the trade's average price (quoteModifyTraderPosition's closePnL), in wei" },
  collateralDeltaLimit: {
    ...signedWei,
    description:
      "collateralDelta in the collateral token's own units, rounded towards +infinity: the tightest deltaCollateralLimit " +
      "of modifyTraderPosition that passes (for a withdrawal, the least accepted back). 0 means no limit to the group",
  },
  fillPrice: { ...q.fillPrice, description: "Average price of the trade" },
  priceAfter: { ...q.priceAfter, description: "Market price once the trade is filled" },
  limitedBy: q.limitedBy,
  blockNumber: q.blockNumber,
  blockHash: q.blockHash,
  iterations: q.iterations,
  collateralDecimals: q.collateralDecimals,
  exact: q.exact,
  upperBound: { ...q.upperBound, description: "search=exact with exact: false: the smallest trade quoted that is too large (signed like maxSize)" },
  trace: positionTraceSchema,
  trade: {
    ...q.trade,
    description:
      "With taker (who must own the position): the modifyTraderPosition transaction to targetSize, ready to sign. Its " +
      "collateralLimit is the signed deltaCollateralLimit: collateralDeltaLimit moved by slippageBps against the trader " +
      "(a deposit may grow, never past collateralAvailable; a withdrawal may shrink), never 0 (a limit that would be 0 is " +
      "1); an approval only when a deposit's limit exceeds the allowance",
  },
} as const;

export const positionResponseSchema = {
  type: "object",
  description: "The largest trade on a held position, with the quote of the modification it makes",
  required: Object.keys(properties).filter((name) => !["exact", "upperBound", "trace", "trade"].includes(name)),
  additionalProperties: false,
  properties,
  "x-examples": {
    turnaround: {
      summary: "The trader's long of 1000 (demo position 1) sold down to 0.45 with no new collateral: through zero into a short",
      description: `GET ${BASE_PATH}/31337/${DEMO_MARKET_GROUP}/positions/1?expectedPrice=0.45&collateralAvailable=0&search=exact`,
      value: {
        direction: "SHORT",
        maxSize: "-1999011307186528274155",
        currentPrice: "0.500119050896956407",
        expectedPrice: "0.45",
        collateralAvailable: "0",
        positionId: "1",
        owner: DEMO_TAKER,
        marketId: "1",
        currentSize: "1000000000000000000000",
        targetSize: "-999011307186528274155",
        collateralDelta: "-2",
        closePnL: "-10282586623835629058",
        collateralDeltaLimit: "-2",
        fillPrice: "0.494886988037300092",
        priceAfter: "0.499652750850377766",
        limitedBy: "collateral",
        blockNumber: DEMO_BLOCK_NUMBER,
        blockHash: DEMO_BLOCK_HASH,
        iterations: 6,
        collateralDecimals: 18,
        exact: true,
      },
    },
  },
} as const;

/** A request of a demo position's quote: the examples' (a test replays each on the demo chain). */
export function demoPositionRequest(positionId: number, query: Record<string, string>): string {
  return `GET ${BASE_PATH}/31337/${DEMO_MARKET_GROUP}/positions/${positionId}?${new URLSearchParams(query)}`;
}

const ASK = { expectedPrice: "0.55", collateralAvailable: ONE };

/** An error answer whose trace (trace=true on a search that found nothing) is a position's. */
function withPositionTrace<T extends { properties: object }>(response: T) {
  return { ...response, properties: { ...response.properties, trace: positionTraceSchema } };
}

/** A position's quote's errors: the new position's, and the position's own (semantics §13). */
export const positionErrorResponses = {
  ...quoteErrorResponses,
  400: withPositionTrace(errorResponse(`${quoteErrorResponses[400].description}. For a position also: a liquidity position, or a taker that does not own it (details name the owner)`, {
    // A new position's trace is not a position's: its examples with one are the quote route's alone.
    ...Object.fromEntries(Object.entries(quoteErrorResponses[400]["x-examples"]).filter(([, example]) => !("trace" in example.value))),
    notTraderPosition: example(
      notTraderPosition([{ param: "positionId", message: "position 3 is of kind 1 (1: liquidity), not a trader position (2): only trader positions trade" }]).toBody(),
      demoPositionRequest(3, ASK),
    ),
    takerNotOwner: example(takerNotOwner(1n, DEMO_TAKER).toBody(), demoPositionRequest(1, { ...ASK, taker: DEMO_DEPLOYER })),
  })),
  404: errorResponse(`${quoteErrorResponses[404].description} For a position: no such position in the group at the newest block (one minted since the head the service had seen is found)`, {
    ...quoteErrorResponses[404]["x-examples"],
    positionNotFound: example(
      positionNotFound([{ param: "positionId", message: `position 99 does not exist in this market group ${DEMO_AT_BLOCK} (ownerOf reverted): check the position id and the group's address` }]).toBody(),
      demoPositionRequest(99, ASK),
    ),
  }),
} as const;
