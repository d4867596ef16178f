// The error answers of the routes as the OpenAPI document states them: the one error shape, and per status its
// description, headers and named examples (interface §7, semantics §6). Annotations only; the examples without a
// request are the bodies the errors' own constructors make.
import { MESSAGES, currentPriceNotFound, expectedPriceNotPositive, internalError, marketSettled, rpcUnavailable, type ErrorBody } from "../quote/quoteErrors.ts";
import { ADDRESS_CHECKSUM_RULE, ADDRESS_FORMAT_RULE, DEMO_MARKET_GROUP } from "../quote/params.ts";
import { MAX_ITERATIONS_RULE, WEI_RULE } from "../quote/decimal.ts";
import { DEMO_AT_BLOCK, ONE, THOUSAND, demoRequest } from "./docExamples.ts";
import { SETTINGS } from "../config.ts";
import { HTTP_MESSAGES, bodyNotAccepted, headersTooLarge, methodNotAllowed, routeNotFound, tooManyRequests, uriTooLong } from "./httpErrors.ts";
import { BASE_PATH } from "./paths.ts";
import { traceSchema } from "./responseSchemas.ts";

export const errorResponseSchema = {
  type: "object",
  required: ["error", "details"],
  additionalProperties: false,
  properties: {
    error: { type: "string", description: "The message: one of the fixed messages of the interface" },
    details: {
      type: "array",
      minItems: 1,
      description: "What to change, always at least one entry: one per failing parameter for a validation error",
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
export function errorResponse(description: string, examples: Record<string, Example>, headers?: Record<string, object>) {
  return { ...errorResponseSchema, description, ...(headers ? { headers } : {}), "x-examples": examples } as const;
}

/** An example whose value is `body`; `description` names its request (replayed on the demo chain) or its case. */
export function example(body: ErrorBody, description?: string, summary: string = body.error): Example {
  return { summary, ...(description ? { description } : {}), value: body };
}

/** The quote's own errors, which a batch and a depth ladder answer too. */
const quoteOwnErrorResponses = {
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
            { param: "collateralAvailable", message: WEI_RULE },
            { param: "maxIterations", message: MAX_ITERATIONS_RULE },
          ],
        },
      },
      invalidPath: {
        summary: MESSAGES.invalidPath,
        description: `GET ${BASE_PATH}/31337/0x1234/1?expectedPrice=0.6&collateralAvailable=${ONE}`,
        value: { error: MESSAGES.invalidPath, details: [{ param: "marketAddress", message: ADDRESS_FORMAT_RULE }] },
      },
      expectedPriceNotPositive: example(expectedPriceNotPositive().toBody(), demoRequest(1, { expectedPrice: "0", collateralAvailable: ONE })),
      badChecksum: {
        summary: `${MESSAGES.invalidPath}: an address failing its checksum, with the checksummed form`,
        description: `GET ${BASE_PATH}/31337/0x5fbdb2315678afecb367f032d93F642f64180aa3/1?expectedPrice=0.6&collateralAvailable=${ONE}`,
        value: {
          error: MESSAGES.invalidPath,
          details: [
            {
              param: "marketAddress",
              message: `${ADDRESS_CHECKSUM_RULE}; if its digits are right, its checksummed form is ${DEMO_MARKET_GROUP}`,
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
        description: demoRequest(1, { expectedPrice: "0.500119050896956407", collateralAvailable: ONE }),
        value: {
          error: MESSAGES.expectedPriceEqualsCurrent,
          details: [{ param: "expectedPrice", message: "equals the current price 0.500119050896956407: set it above 0.500119050896956407 to quote a LONG, below 0.500119050896956407 to quote a SHORT" }],
        },
      },
      marketSettled: example(marketSettled().toBody(), demoRequest(3, { expectedPrice: "0.6", collateralAvailable: ONE })),
      noValidSize: {
        summary: MESSAGES.noValidSize,
        description: demoRequest(1, { expectedPrice: "0.500119050896956408", collateralAvailable: THOUSAND, maxIterations: "1", trace: "true" }),
        value: {
          error: MESSAGES.noValidSize,
          details: [
            {
              param: "expectedPrice",
              message:
                "even the smallest size tried, 999761954885056086327 wei, moves the price to 0.500354864575774392, past expectedPrice " +
                "0.500119050896956408; an expectedPrice of at least 0.500354864575774392 lets that size fill; a budget of at most " +
                "500000000000000000000 wei ends the search's range at or below 999761954885056086327 wei, so it tries smaller sizes",
            },
            {
              param: "maxIterations",
              message:
                "the bisection stopped after 1 candidate with the sizes between 0 and 999761954885056086327 wei untried; " +
                "maxIterations=10 halves the step 9 more times",
            },
          ],
          trace: [
            {
              size: "999761954885056086327",
              outcome: "beyond-expected",
              requiredCollateral: "495117806047151072252",
              fillPrice: "0.505289842263563323",
              priceAfter: "0.500354864575774392",
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
                "every size tried reverted, down to 1000000000000000002 wei (PoolPriceOutOfRange: the trade leaves the market's range " +
                "[about 0.406588, about 0.594536]): the market's liquidity ends below 1000000000000000002 wei of size; a budget of at most 500000000000000000 " +
                "wei ends the search's range at or below 1000000000000000002 wei, so it tries smaller sizes",
            },
            {
              param: "maxIterations",
              message:
                "the bisection stopped after 1 candidate with the sizes between 0 and 1000000000000000002 wei untried; " +
                "maxIterations=10 halves the step 9 more times",
            },
          ],
          trace: [
            {
              size: "1000000000000000002",
              outcome: "reverted",
              revert: "PoolPriceOutOfRange",
              revertArgs: {
                poolPrice: "61089794456152217628947643548",
                minPrice: "50519243414777603793716319983",
                maxPrice: "61089794456152217628947643547",
              },
            },
          ],
        },
      },
    },
  ),
  404: errorResponse(
    "No market at that address and id (or no RPC configured for the chain), or no reference price. A market not found is " +
      "not found at the newest block: the endpoints' latest block is read first, and where it is newer the answer is about " +
      "it (a market created a moment ago is found); the detail names the block, by number and hash. " +
      "Other paths answer 404 `Not found` in the same shape.",
    {
      marketNotFound: {
        summary: MESSAGES.marketNotFound,
        description: demoRequest(99, { expectedPrice: "0.6", collateralAvailable: ONE }),
        value: { error: MESSAGES.marketNotFound, details: [{ param: "marketId", message: `market 99 does not exist in this market group ${DEMO_AT_BLOCK} (getMarket answered for market 0): check the market id` }] },
      },
      chainNotConfigured: {
        summary: `${MESSAGES.marketNotFound}: a chain with no RPC configured`,
        description: `GET ${BASE_PATH}/1/${DEMO_MARKET_GROUP}/1?expectedPrice=0.6&collateralAvailable=${ONE}`,
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
      currentPriceNotFound: example(currentPriceNotFound().toBody(), "getReferencePrice reverted or returned 0"),
      routeNotFound: example(routeNotFound("GET", `${BASE_PATH}/31337`).toBody(), `GET ${BASE_PATH}/31337`, `${HTTP_MESSAGES.notFound}: a path no route takes`),
    },
  ),
  503: errorResponse(
    "The chain could not be reached or did not answer in time; never a partial answer",
    {
      rpcUnavailable: example(
        rpcUnavailable(5, [
          {
            param: "chainId",
            message: "RPC_URL_31337: request failed (ECONNREFUSED): nothing listens at that host and port; check that the node runs and the URL",
          },
        ]).toBody(),
        "the chain's one endpoint refuses connections",
      ),
    },
    retryAfter,
  ),
} as const;

const PATH_EXAMPLE = `${BASE_PATH}/31337/${DEMO_MARKET_GROUP}/1`;

/** What every route can answer besides its own errors: the rate limit, a bug, and the HTTP layer's refusals. */
export const routeErrorResponses = {
  429: errorResponse(
    "Too many requests from this client; try again after Retry-After seconds",
    { tooManyRequests: example(tooManyRequests(42, SETTINGS.RATE_LIMIT_MAX.default).toBody(), "past RATE_LIMIT_MAX requests in the window") },
    retryAfter,
  ),
  500: errorResponse("A bug; never a stack trace or an RPC URL", { internal: example(internalError().toBody()) }),
  "4xx": errorResponse("Any other client error, in the same shape", {
    methodNotAllowed: example(
      methodNotAllowed("POST", PATH_EXAMPLE, ["GET", "HEAD"]).toBody(),
      "405: a method the path does not take, with Allow naming those it takes",
    ),
    uriTooLong: example(uriTooLong(3072, SETTINGS.MAX_URL_LENGTH.default).toBody(), "414: a URL longer than MAX_URL_LENGTH"),
    bodyNotAccepted: example(bodyNotAccepted("GET").toBody(), "413: a GET or HEAD carrying a body"),
    headersTooLarge: example(headersTooLarge().toBody(), "431: headers over Node's 16 KiB, answered before any route"),
  }),
  "5xx": errorResponse("Any other server error, in the same shape", { internal: example(internalError().toBody()) }),
} as const;

/** Per status, what the quote operation can answer besides a 200 (interface §7, semantics §6). */
export const quoteErrorResponses = { ...quoteOwnErrorResponses, ...routeErrorResponses } as const;
