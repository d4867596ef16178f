// Route schemas: the first gate of validation (shape, length, character set) and the documented contract.
// Range rules that JSON Schema cannot state (2^256 bounds, EIP-55, D18 granularity) are the core parser's.
// The OpenAPI document at /quoter/openapi.json is generated from these schemas (src/http/openapi.ts): the
// descriptions and examples below are what the docs show. Annotations only: they change no validation and,
// in the response schemas, no serialized byte.
import { MESSAGES, type ErrorBody } from "../quote/errors.ts";
import { HTTP_MESSAGES } from "./httpErrors.ts";

const MAX_PARAM_LENGTH = 100;

/** The embedded demo chain's market group (README), used in every example. */
const DEMO_MARKET_GROUP = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

const decimalInteger = { type: "string", maxLength: MAX_PARAM_LENGTH, pattern: "^[0-9]+$" } as const;
const decimalNumber = {
  type: "string",
  maxLength: MAX_PARAM_LENGTH,
  pattern: "^-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$",
} as const;

export const quoteParamsSchema = {
  type: "object",
  required: ["chainId", "marketAddress", "marketId"],
  properties: {
    chainId: { ...decimalInteger, description: "Chain id, a decimal integer from 1 to 2^53-1", examples: ["31337"] },
    marketAddress: {
      type: "string",
      maxLength: MAX_PARAM_LENGTH,
      pattern: "^0x[0-9a-fA-F]{40}$",
      description: "Market group address: 0x and 40 hex digits, all-lower, all-upper or EIP-55 checksummed",
      examples: [DEMO_MARKET_GROUP],
    },
    marketId: {
      ...decimalInteger,
      description: "Market id within the group, a decimal integer from 0 to 2^256-1",
      examples: ["2"],
    },
  },
} as const;

export const quoteQuerySchema = {
  type: "object",
  required: ["expectedPrice", "collateralAvailable"],
  properties: {
    expectedPrice: {
      ...decimalNumber,
      description:
        "Target reference price after the trade (decimal, at most 18 decimals). Above the current price the " +
        "quote is a LONG, below it a SHORT; equal is an error.",
      examples: ["1030"],
    },
    collateralAvailable: {
      ...decimalInteger,
      description:
        "Collateral budget in wei, 1 to 2^256-1: 18-decimal units whatever the collateral token's decimals (1000 USDC " +
        "is 1000000000000000000000). The answer's maxCollateral is the trade's limit in the token's own units. A " +
        "minimum trade size that a market group enforces on trades is not visible to quotes",
      examples: ["1000000000000000000000"],
    },
    maxIterations: { ...decimalInteger, description: "Binary search steps, 1 to 10 (default 10)", examples: ["10"] },
    priceLimit: {
      ...decimalNumber,
      description:
        "Price guardrail (default: the current price); must be greater than 0. A LONG needs " +
        "priceLimit < priceAfter <= expectedPrice, a SHORT expectedPrice <= priceAfter < priceLimit.",
      examples: ["1000"],
    },
    search: {
      type: "string",
      maxLength: MAX_PARAM_LENGTH,
      enum: ["bisection", "exact"],
      description:
        "bisection (default): the interface's search, at most maxIterations halvings of [0, collateralAvailable / " +
        "currentPrice]. exact: the largest size whose quote meets every rule, from 1000000 wei to 2^255-1, proven " +
        "by quoting it and one wei more at the same block (exact: true), at most EXACT_MAX_CANDIDATES quotes; " +
        "maxIterations is still validated but does not bound it",
      examples: ["exact"],
    },
    trace: {
      type: "string",
      maxLength: MAX_PARAM_LENGTH,
      description: "true adds the list of quoted candidates (any other value is ignored)",
      examples: ["true"],
    },
  },
} as const;

const signedWei = { type: "string", pattern: "^-?(0|[1-9][0-9]*)$" } as const;
const wei = { type: "string", pattern: "^(0|[1-9][0-9]*)$" } as const;
/** The canonical decimal form of a D18 price: no exponent, no trailing zeros. */
const price = { type: "string", pattern: "^(0|[1-9][0-9]*)(\\.[0-9]*[1-9])?$" } as const;

const traceSchema = {
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
        examples: [{ poolPrice: "56022770974786139918731938227", minPrice: "50108289675009586237282760314", maxPrice: "61369870793672105125740556393" }],
      },
    },
  },
} as const;

const ONE = "1000000000000000000";
const THOUSAND = "1000000000000000000000";

/** An example request on the embedded demo chain: its answer there is the example's value (a test replays it). */
function demoRequest(marketId: number, query: Record<string, string>): string {
  return `GET /quoter/31337/${DEMO_MARKET_GROUP}/${marketId}?${new URLSearchParams(query)}`;
}

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
    "blockNumber",
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
    blockNumber: { ...wei, description: "The block every chain read of this quote was pinned to" },
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
  },
  "x-examples": {
    long: {
      summary: "LONG on demo market 2, bound by expectedPrice",
      description: demoRequest(2, { expectedPrice: "1030", collateralAvailable: THOUSAND }),
      value: {
        direction: "LONG",
        maxSize: "45898437500000000",
        currentPrice: "1000",
        expectedPrice: "1030",
        collateralAvailable: THOUSAND,
        requiredCollateral: "23764940199135258254",
        maxCollateral: "23764940199135258254",
        fillPrice: "1014.728129736630628353",
        priceAfter: "1029.673177278800280087",
        blockNumber: "6",
        iterations: 10,
        collateralDecimals: 18,
      },
    },
    short: {
      summary: "SHORT on demo market 1 (maxSize is negative)",
      description: demoRequest(1, { expectedPrice: "0.45", collateralAvailable: THOUSAND }),
      value: {
        direction: "SHORT",
        maxSize: "-1998046875000000000000",
        currentPrice: "0.5",
        expectedPrice: "0.45",
        collateralAvailable: THOUSAND,
        requiredCollateral: "990428569952860089151",
        maxCollateral: "990428569952860089151",
        fillPrice: "0.499294580392523114",
        priceAfter: "0.498590156018691454",
        blockNumber: "6",
        iterations: 10,
        collateralDecimals: 18,
      },
    },
    traced: {
      summary: "With trace=true: the candidates quoted",
      description: demoRequest(1, { expectedPrice: "0.55", collateralAvailable: ONE, maxIterations: "2", trace: "true" }),
      value: {
        direction: "LONG",
        maxSize: "1500000000000000000",
        currentPrice: "0.5",
        expectedPrice: "0.55",
        collateralAvailable: ONE,
        requiredCollateral: "742500803450932312",
        maxCollateral: "742500803450932312",
        fillPrice: "0.500000530330648391",
        priceAfter: "0.500001060661859283",
        blockNumber: "6",
        iterations: 2,
        collateralDecimals: 18,
        trace: [
          {
            size: "1000000000000000000",
            outcome: "feasible",
            requiredCollateral: "495000357089177000",
            fillPrice: "0.500000353553640594",
            priceAfter: "0.500000707107531188",
          },
          {
            size: "1500000000000000000",
            outcome: "feasible",
            requiredCollateral: "742500803450932312",
            fillPrice: "0.500000530330648391",
            priceAfter: "0.500001060661859283",
          },
        ],
      },
    },
  },
} as const;

export const errorResponseSchema = {
  type: "object",
  required: ["error"],
  additionalProperties: false,
  properties: {
    error: { type: "string", description: "The message: one of the fixed messages of the interface" },
    details: {
      type: "array",
      description: "Where there is more to say: one entry per failing parameter (always for validation)",
      items: {
        type: "object",
        required: ["param", "message"],
        additionalProperties: false,
        properties: {
          param: { type: "string", description: "The parameter, e.g. expectedPrice or chainId" },
          message: { type: "string", description: "The rule it broke" },
        },
      },
    },
    trace: traceSchema,
  },
} as const;

type Example = { summary: string; description?: string; value: ErrorBody };

const retryAfter = {
  "Retry-After": { type: "string", pattern: "^[0-9]+$", description: "Seconds to wait before trying again" },
} as const;

/** The error shape of one status, with its description, named examples and headers, for the docs. */
function errorResponse(description: string, examples: Record<string, Example>, headers?: Record<string, object>) {
  return { ...errorResponseSchema, description, ...(headers ? { headers } : {}), "x-examples": examples } as const;
}

function message(error: string, description?: string): Example {
  return { summary: error, ...(description ? { description } : {}), value: { error } };
}

/** Per status, what the quote operation can answer besides a 200 (interface §7, semantics §6). */
export const quoteErrorResponses = {
  400: errorResponse(
    "A malformed request (details name each failing parameter, with the checksummed address or the parameter a " +
      "misspelt name was probably meant as), a request the market cannot answer (for an expectedPrice equal to the " +
      "current price, details give that price), or a search that found no size: details then name the bound that " +
      "decided (budget, expectedPrice, priceLimit, the market's liquidity) with its figures and the change that helps; " +
      "the two search failures carry `trace` when trace=true",
    {
      invalidQuery: {
        summary: MESSAGES.invalidQuery,
        description: demoRequest(1, { expectedPrice: "0.6", collateralAvailable: "0", maxIterations: "11" }),
        value: {
          error: MESSAGES.invalidQuery,
          details: [
            { param: "collateralAvailable", message: "must be a decimal integer from 1 to 2^256-1 (wei)" },
            { param: "maxIterations", message: "must be a decimal integer from 1 to 10" },
          ],
        },
      },
      invalidPath: {
        summary: MESSAGES.invalidPath,
        description: `GET /quoter/31337/0x1234/1?expectedPrice=0.6&collateralAvailable=${ONE}`,
        value: { error: MESSAGES.invalidPath, details: [{ param: "marketAddress", message: "must be 0x followed by 40 hexadecimal digits" }] },
      },
      expectedPriceNotPositive: message(
        MESSAGES.expectedPriceNotPositive,
        demoRequest(1, { expectedPrice: "0", collateralAvailable: ONE }),
      ),
      badChecksum: {
        summary: `${MESSAGES.invalidPath}: an address failing its checksum, with the checksummed form`,
        description: `GET /quoter/31337/0x5fbdb2315678afecb367f032d93F642f64180aa3/1?expectedPrice=0.6&collateralAvailable=${ONE}`,
        value: {
          error: MESSAGES.invalidPath,
          details: [
            {
              param: "marketAddress",
              message: `mixed-case address fails the EIP-55 checksum; if its digits are right, its checksummed form is ${DEMO_MARKET_GROUP}`,
            },
          ],
        },
      },
      misspeltParameter: {
        summary: `${MESSAGES.invalidQuery}: a parameter name one edit away from a required one`,
        description: demoRequest(1, { expectedprice: "0.6", collateralAvailable: ONE }),
        value: {
          error: MESSAGES.invalidQuery,
          details: [{ param: "expectedPrice", message: 'is required (the request has "expectedprice": did you mean expectedPrice?)' }],
        },
      },
      expectedPriceEqualsCurrent: {
        summary: MESSAGES.expectedPriceEqualsCurrent,
        description: demoRequest(1, { expectedPrice: "0.5", collateralAvailable: ONE }),
        value: {
          error: MESSAGES.expectedPriceEqualsCurrent,
          details: [{ param: "expectedPrice", message: "equals the current price 0.5: set it above 0.5 to quote a LONG, below 0.5 to quote a SHORT" }],
        },
      },
      marketSettled: message(MESSAGES.marketSettled, demoRequest(3, { expectedPrice: "0.6", collateralAvailable: ONE })),
      noValidSize: {
        summary: MESSAGES.noValidSize,
        description: demoRequest(1, { expectedPrice: "0.500000000000000001", collateralAvailable: THOUSAND, maxIterations: "1", trace: "true" }),
        value: {
          error: MESSAGES.noValidSize,
          details: [
            {
              param: "expectedPrice",
              message:
                "even the smallest size tried, 1000000000000000000000 wei, moves the price to 0.50070785748891886, past expectedPrice " +
                "0.500000000000000001; an expectedPrice of at least 0.50070785748891886 lets that size fill; a budget of at most " +
                "500000000000000000000 wei ends the search's range at or below 1000000000000000000000 wei, so it tries smaller sizes",
            },
            {
              param: "maxIterations",
              message:
                "the bisection stopped after 1 candidate with the sizes between 0 and 1000000000000000000000 wei untried; " +
                "maxIterations=10 halves the step 9 more times",
            },
          ],
          trace: [
            {
              size: "1000000000000000000000",
              outcome: "beyond-expected",
              requiredCollateral: "495357341603170008085",
              fillPrice: "0.500353803567495058",
              priceAfter: "0.50070785748891886",
            },
          ],
        },
      },
      insufficientLiquidity: {
        summary: MESSAGES.insufficientLiquidity,
        description: demoRequest(4, { expectedPrice: "0.59", collateralAvailable: ONE, maxIterations: "1", trace: "true" }),
        value: {
          error: MESSAGES.insufficientLiquidity,
          details: [
            {
              param: "collateralAvailable",
              message:
                "every size tried reverted, down to 1000000000000000000 wei (PoolPriceOutOfRange: the trade leaves the market's range " +
                "[0.4, 0.6]): the market's liquidity ends below 1000000000000000000 wei of size; a budget of at most 500000000000000000 " +
                "wei ends the search's range at or below 1000000000000000000 wei, so it tries smaller sizes",
            },
            {
              param: "maxIterations",
              message:
                "the bisection stopped after 1 candidate with the sizes between 0 and 1000000000000000000 wei untried; " +
                "maxIterations=10 halves the step 9 more times",
            },
          ],
          trace: [
            {
              size: "1000000000000000000",
              outcome: "reverted",
              revert: "PoolPriceOutOfRange",
              revertArgs: {
                poolPrice: "1461501637330902918203684832716283019655932542975",
                minPrice: "50108289675009586237282760314",
                maxPrice: "61369870793672105125740556393",
              },
            },
          ],
        },
      },
    },
  ),
  404: errorResponse(
    "No market at that address and id (or no RPC configured for the chain), or no reference price. " +
      "Other paths answer 404 `Not found` in the same shape.",
    {
      marketNotFound: {
        summary: MESSAGES.marketNotFound,
        description: demoRequest(99, { expectedPrice: "0.6", collateralAvailable: ONE }),
        value: { error: MESSAGES.marketNotFound, details: [{ param: "marketId", message: "getMarket answered for another market id" }] },
      },
      chainNotConfigured: {
        summary: `${MESSAGES.marketNotFound}: a chain with no RPC configured`,
        description: `GET /quoter/1/${DEMO_MARKET_GROUP}/1?expectedPrice=0.6&collateralAvailable=${ONE}`,
        value: {
          error: MESSAGES.marketNotFound,
          details: [
            {
              param: "chainId",
              message:
                "no RPC endpoint is configured for chain 1: set RPC_URL_1 to its JSON-RPC URL (a comma-separated list for fallbacks) " +
                "and restart the service",
            },
          ],
        },
      },
      currentPriceNotFound: message(MESSAGES.currentPriceNotFound, "getReferencePrice reverted or returned 0"),
    },
  ),
  429: errorResponse(
    "Too many requests from this client; try again after Retry-After seconds",
    { tooManyRequests: message(HTTP_MESSAGES.tooManyRequests) },
    retryAfter,
  ),
  500: errorResponse("A bug; never a stack trace or an RPC URL", { internal: message(MESSAGES.internal) }),
  503: errorResponse(
    "The chain could not be reached or did not answer in time; never a partial answer",
    { rpcUnavailable: message(MESSAGES.rpcUnavailable) },
    retryAfter,
  ),
  "4xx": errorResponse("Any other client error, in the same shape", {
    methodNotAllowed: message(HTTP_MESSAGES.methodNotAllowed, "405: POST, PUT, DELETE, PATCH or OPTIONS on the quote path, with Allow: GET, HEAD"),
    uriTooLong: message(HTTP_MESSAGES.uriTooLong, "414: a URL longer than MAX_URL_LENGTH"),
    bodyNotAccepted: message(HTTP_MESSAGES.bodyNotAccepted, "413: a GET or HEAD carrying a body"),
  }),
  "5xx": errorResponse("Any other server error, in the same shape", { internal: message(MESSAGES.internal) }),
} as const;

/** The answer on the quote path to any method other than GET and HEAD. */
export const methodNotAllowedResponses = {
  405: errorResponse(
    "Only GET and HEAD are served on the quote path",
    { methodNotAllowed: message(HTTP_MESSAGES.methodNotAllowed) },
    { Allow: { type: "string", description: "The methods the path serves: GET, HEAD" } },
  ),
} as const;
