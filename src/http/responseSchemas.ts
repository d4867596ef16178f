// The 200 answer of the quote operation as the OpenAPI document states it (src/http/openapi.ts), with named
// examples. Annotations only: they change no serialized byte.
import { LIMITED_BY, type LimitedBy } from "../quote/limitedBy.ts";
import { DEMO_BLOCK_HASH, DEMO_BLOCK_NUMBER, ONE, THOUSAND, demoRequest } from "./docExamples.ts";
import { DEMO_TAKER, TAKER_TRADE, tradeSchema } from "./tradeSchema.ts";

const signedWei = { type: "string", pattern: "^-?(0|[1-9][0-9]*)$" } as const;
const wei = { type: "string", pattern: "^(0|[1-9][0-9]*)$" } as const;
/** The canonical decimal form of a D18 price: no exponent, no trailing zeros. */
const price = { type: "string", pattern: "^(0|[1-9][0-9]*)(\\.[0-9]*[1-9])?$" } as const;

export const traceSchema = {
  type: "array",
  description: "With trace=true: one entry per quoted candidate, in the order the search quoted them",
  items: {
    type: "object",
    required: ["size", "outcome"],
    additionalProperties: false,
    properties: {
      size: { ...signedWei, description: "Candidate size in wei, negative for a SHORT" },
      outcome: {
        type: "string",
        enum: ["feasible", "reverted", "over-budget", "beyond-expected", "short-of-limit"],
        description:
          "feasible: meets every rule (the search goes up); reverted: the simulation reverted (too large); " +
          "over-budget: requiredCollateral > collateralAvailable; beyond-expected: priceAfter passed expectedPrice; " +
          "short-of-limit: priceAfter did not pass priceLimit (the search goes up)",
      },
      requiredCollateral: { ...wei, description: "Collateral the candidate needs, in wei (absent when reverted)" },
      fillPrice: { ...price, description: "Average price of the fill (absent when reverted)" },
      priceAfter: { ...price, description: "Market price once the trade is filled (absent when reverted)" },
      revert: {
        type: "string",
        description:
          "Decoded error name (the market group's custom errors, Error for Error(string), Panic), or the raw 0x " +
          "revert data (reverted only)",
      },
      revertArgs: {
        type: "object",
        additionalProperties: { type: "string" },
        description:
          "The decoded error's arguments by name, numbers as decimal strings: e.g. PoolPriceOutOfRange's " +
          "poolPrice, minPrice and maxPrice (sqrt prices X96), Error's message (\"Unexpected error\"), Panic's reason",
        examples: [{ poolPrice: "56022770974786139918731938227", minPrice: "50519243414777603793716319983", maxPrice: "61089794456152217628947643547" }],
      },
    },
  },
} as const;

/** What each value of limitedBy says (semantics §5), for the document's description and its x-enumDescriptions. */
const LIMITED_BY_MEANING: Readonly<Record<LimitedBy, string>> = {
  expectedPrice: "a larger size would move the price after the trade past expectedPrice",
  collateral:
    "a larger size would need more than collateralAvailable; also for a bisection that found no size above maxSize " +
    "too large (every step went up towards the top of its range, collateralAvailable / currentPrice, which the budget sets)",
  liquidity: "the market cannot fill a larger size: its quote reverts",
  search:
    "search=exact only, with exact: false: the search reached EXACT_MAX_CANDIDATES before it proved maxSize (upperBound, " +
    "when given, is the smallest size it found too large)",
};

const limitedBySchema = {
  type: "string",
  enum: LIMITED_BY,
  description:
    "Why maxSize is not larger: the rule broken by the smallest size above maxSize that the search quoted " +
    "(with search=exact, maxSize + 1), in the order of the checks where several apply (a revert, then the budget, " +
    "then expectedPrice). " +
    Object.entries(LIMITED_BY_MEANING).map(([value, meaning]) => `${value}: ${meaning}`).join(". "),
  "x-enumDescriptions": LIMITED_BY_MEANING,
} as const;

/** The LONG example's request and answer: the taker example is the same answer with its trade. */
const LONG_REQUEST = { expectedPrice: "1030", collateralAvailable: THOUSAND };
const LONG_ANSWER = {
  direction: "LONG",
  maxSize: "45898437500000000",
  currentPrice: "999.999999999999999999",
  expectedPrice: "1030",
  collateralAvailable: THOUSAND,
  requiredCollateral: "23740536301627744030",
  maxCollateral: "23740536301627744030",
  fillPrice: "1017.781474159107952247",
  priceAfter: "1029.673177278800280086",
  limitedBy: "expectedPrice",
  blockNumber: DEMO_BLOCK_NUMBER,
  blockHash: DEMO_BLOCK_HASH,
  iterations: 10,
  collateralDecimals: 18,
} as const;

export const quoteResponseSchema = {
  type: "object",
  description: "The largest feasible size, with the quote at that size",
  required: [
    "direction",
    "maxSize",
    "currentPrice",
    "expectedPrice",
    "collateralAvailable",
    "requiredCollateral",
    "maxCollateral",
    "fillPrice",
    "priceAfter",
    "limitedBy",
    "blockNumber",
    "blockHash",
    "iterations",
    "collateralDecimals",
  ],
  additionalProperties: false,
  properties: {
    direction: {
      type: "string",
      enum: ["LONG", "SHORT"],
      description: "LONG when expectedPrice is above the current price, SHORT when below",
    },
    maxSize: { ...signedWei, description: "Largest feasible size in wei: positive for a LONG, negative for a SHORT" },
    currentPrice: { ...price, description: "Current reference price of the market" },
    expectedPrice: { ...price, description: "The request's expectedPrice, in canonical form" },
    collateralAvailable: {
      ...wei,
      description: "The request's collateral budget, in wei: 18-decimal units whatever the collateral token's decimals",
    },
    requiredCollateral: {
      ...wei,
      description:
        "Collateral needed to open maxSize, in wei: 18-decimal units like collateralAvailable, as the market group's " +
        "quotes give it. Not the trade's collateral limit on a token with fewer decimals: use maxCollateral",
    },
    maxCollateral: {
      ...wei,
      description:
        "requiredCollateral in the collateral token's own units, rounded up: the collateral limit to pass to " +
        "createTraderPosition with maxSize (one unit less reverts). Equal to requiredCollateral for an 18-decimal " +
        "token; for USDC (6 decimals) a requiredCollateral of 1000000000000000000000 (1000 USDC) is 1000000000",
    },
    fillPrice: { ...price, description: "Average price of the fill at maxSize" },
    priceAfter: { ...price, description: "Market price once maxSize is filled" },
    limitedBy: limitedBySchema,
    blockNumber: {
      ...wei,
      description:
        "The block every chain read of this quote was made at: the newest block the service had seen when the request " +
        "arrived, or later (at least minBlock). An answer is a statement about this one block",
    },
    blockHash: {
      type: "string",
      pattern: "^0x[0-9a-f]{64}$",
      description:
        "That block's hash (lower case): the block is named by it, so that an answer is never of a block the chain " +
        "replaced (a reorg). Compare it with your receipt's or your node's block at blockNumber",
    },
    iterations: {
      type: "integer",
      minimum: 1,
      description: "Candidates quoted: at most maxIterations for the bisection, EXACT_MAX_CANDIDATES for search=exact",
    },
    collateralDecimals: {
      type: "integer",
      minimum: 0,
      maximum: 255,
      description:
        "Decimals of the market group's collateral token (getMarketGroup().collateralAsset's decimals(); 18 when " +
        "either cannot be read)",
    },
    exact: {
      type: "boolean",
      description:
        "search=exact only. true: maxSize is proven the largest feasible size (it and one wei more were quoted at " +
        "blockNumber); false: the candidate bound was reached first, maxSize is the largest feasible size found",
    },
    upperBound: {
      ...signedWei,
      description: "search=exact with exact: false: the smallest size quoted that is too large (signed like maxSize)",
    },
    trace: traceSchema,
    trade: tradeSchema,
  },
  "x-examples": {
    long: {
      summary: "LONG on demo market 2, bound by expectedPrice",
      description: demoRequest(2, LONG_REQUEST),
      value: LONG_ANSWER,
    },
    short: {
      summary: "SHORT on demo market 1 (maxSize is negative); every size tried fits: the budget sets the range's top, search=exact may find more",
      description: demoRequest(1, { expectedPrice: "0.45", collateralAvailable: THOUSAND }),
      value: {
        direction: "SHORT",
        maxSize: "-1997571249701977297486",
        currentPrice: "0.500119050896956407",
        expectedPrice: "0.45",
        collateralAvailable: THOUSAND,
        requiredCollateral: "969446295450677259665",
        maxCollateral: "969446295450677259665",
        fillPrice: "0.49488715427674919",
        priceAfter: "0.499653086531104883",
        limitedBy: "collateral",
        blockNumber: DEMO_BLOCK_NUMBER,
        blockHash: DEMO_BLOCK_HASH,
        iterations: 10,
        collateralDecimals: 18,
      },
    },
    traced: {
      summary: "With trace=true: the candidates quoted",
      description: demoRequest(1, { expectedPrice: "0.55", collateralAvailable: ONE, maxIterations: "2", trace: "true" }),
      value: {
        direction: "LONG",
        maxSize: "1499642932327584129",
        currentPrice: "0.500119050896956407",
        expectedPrice: "0.55",
        collateralAvailable: ONE,
        requiredCollateral: "742498393730702720",
        maxCollateral: "742498393730702720",
        fillPrice: "0.505170937065412501",
        priceAfter: "0.500119404492622844",
        limitedBy: "collateral",
        blockNumber: DEMO_BLOCK_NUMBER,
        blockHash: DEMO_BLOCK_HASH,
        iterations: 2,
        collateralDecimals: 18,
        trace: [
          {
            size: "999761954885056086",
            outcome: "feasible",
            requiredCollateral: "494998869640078658",
            fillPrice: "0.505170877537519021",
            priceAfter: "0.500119286627359032",
          },
          {
            size: "1499642932327584129",
            outcome: "feasible",
            requiredCollateral: "742498393730702720",
            fillPrice: "0.505170937065412501",
            priceAfter: "0.500119404492622844",
          },
        ],
      },
    },
    taker: {
      summary: "With taker: the trade, its approval first (the trader has approved nothing), simulated at the block",
      description: demoRequest(2, { ...LONG_REQUEST, taker: DEMO_TAKER }),
      value: { ...LONG_ANSWER, trade: TAKER_TRADE },
    },
  },
} as const;
