// Route schemas: the first gate of validation (shape, length, character set) and the documented contract.
// Range rules that JSON Schema cannot state (2^256 bounds, EIP-55, D18 granularity) are the core parser's.

const MAX_PARAM_LENGTH = 100;

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
    chainId: { ...decimalInteger, description: "Chain id, a decimal integer from 1 to 2^53-1" },
    marketAddress: {
      type: "string",
      maxLength: MAX_PARAM_LENGTH,
      pattern: "^0x[0-9a-fA-F]{40}$",
      description: "Market group address: 0x and 40 hex digits, all-lower, all-upper or EIP-55 checksummed",
    },
    marketId: { ...decimalInteger, description: "Market id within the group, a decimal integer from 0 to 2^256-1" },
  },
} as const;

export const quoteQuerySchema = {
  type: "object",
  required: ["expectedPrice", "collateralAvailable"],
  properties: {
    expectedPrice: { ...decimalNumber, description: "Target reference price after the trade (decimal, at most 18 decimals)" },
    collateralAvailable: { ...decimalInteger, description: "Collateral budget in wei, 1 to 2^256-1" },
    maxIterations: { ...decimalInteger, description: "Binary search steps, 1 to 10 (default 10)" },
    priceLimit: { ...decimalNumber, description: "Price guardrail (default: the current price); must be greater than 0" },
    trace: { type: "string", maxLength: MAX_PARAM_LENGTH, description: "true adds the list of quoted candidates" },
  },
} as const;

const decimalString = { type: "string" } as const;

const traceSchema = {
  type: "array",
  items: {
    type: "object",
    required: ["size", "outcome"],
    properties: {
      size: decimalString,
      outcome: { type: "string", enum: ["feasible", "reverted", "over-budget", "beyond-expected", "short-of-limit"] },
      requiredCollateral: decimalString,
      fillPrice: decimalString,
      priceAfter: decimalString,
      revert: decimalString,
    },
  },
} as const;

export const quoteResponseSchema = {
  type: "object",
  required: [
    "direction",
    "maxSize",
    "currentPrice",
    "expectedPrice",
    "collateralAvailable",
    "requiredCollateral",
    "fillPrice",
    "priceAfter",
    "blockNumber",
    "iterations",
  ],
  properties: {
    direction: { type: "string", enum: ["LONG", "SHORT"] },
    maxSize: decimalString,
    currentPrice: decimalString,
    expectedPrice: decimalString,
    collateralAvailable: decimalString,
    requiredCollateral: decimalString,
    fillPrice: decimalString,
    priceAfter: decimalString,
    blockNumber: decimalString,
    iterations: { type: "integer" },
    trace: traceSchema,
  },
} as const;

export const errorResponseSchema = {
  type: "object",
  required: ["error"],
  properties: {
    error: { type: "string" },
    details: {
      type: "array",
      items: {
        type: "object",
        required: ["param", "message"],
        properties: { param: { type: "string" }, message: { type: "string" } },
      },
    },
    trace: traceSchema,
  },
} as const;
