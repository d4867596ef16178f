// The quote's parameters, once (semantics §2, §7). Each row says where the parameter is, whether it is required,
// how its text is read (the parser answers the value or the rule the text broke), its default, and what the
// documents, the `quoter quote` command and the explorer page show of it. The request parser (request.ts), the
// route schemas and so the OpenAPI document (src/http/schemas.ts), the command's options
// (src/cli/quoteOptions.ts) and the explorer's form (src/http/explorer/fields.ts) are all read from this table:
// a new parameter is a new row (and its field in QuoteRequest, which the table's type then requires).
import { DEFAULT_DEADLINE_SECONDS, DEFAULT_SLIPPAGE_BPS, MAX_ITERATIONS } from "./limits.ts";
import {
  CHAIN_ID_RULE,
  INTEGER_PATTERN,
  MARKET_ID_RULE,
  BLOCK_NUMBER_RULE,
  DEADLINE_SECONDS_RULE,
  SLIPPAGE_BPS_RULE,
  parseBlockNumber,
  parseChainId,
  parseDeadlineSeconds,
  parseMarketId,
  parseMaxIterations,
  parseSlippageBps,
  parseWei,
} from "./decimal.ts";
import { DECIMAL_PATTERN, parseDecimalD18, type Parsed } from "./fixedPoint.ts";
import type { QuoteRequest, SearchMode } from "./quoteRequest.ts";
import { ADDRESS_PATTERN, parseAddress, type ParamLocation, type QuoteParam } from "./paramRow.ts";

export type { SearchMode };
export { ADDRESS_CHECKSUM_RULE, ADDRESS_FORMAT_RULE, MAX_PARAMETER_LENGTH, type ParamLocation, type QuoteParam } from "./paramRow.ts";

/** One row per field of a QuoteRequest, each read as that field's type. */
type QuoteParams = { readonly [K in keyof QuoteRequest]-?: QuoteParam<NonNullable<QuoteRequest[K]>> };

const SEARCH_MODES: readonly SearchMode[] = ["bisection", "exact"];
const DEFAULT_MAX_ITERATIONS = MAX_ITERATIONS;

/** The embedded demo chain's market group (README): the example of every document. */
export const DEMO_MARKET_GROUP = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

const PRICE_LIMIT_POSITIVE_RULE = "must be greater than 0";
const SEARCH_RULE = `must be ${SEARCH_MODES.join(" or ")}`;

/** The market group's address (§2): the address rule of paramRow.ts. */
export const parseMarketAddress = parseAddress;

/** A D18 price limit: a decimal number per §2, and greater than 0. */
function parsePriceLimit(text: string): Parsed<bigint> {
  const parsed = parseDecimalD18(text);
  if (parsed.ok && parsed.value <= 0n) return { ok: false, error: PRICE_LIMIT_POSITIVE_RULE };
  return parsed;
}

/** `bisection` or `exact` (§2). */
function parseSearch(text: string): Parsed<SearchMode> {
  return (SEARCH_MODES as readonly string[]).includes(text) ? { ok: true, value: text as SearchMode } : { ok: false, error: SEARCH_RULE };
}

/** `true` only for the exact text "true"; any other value is ignored (§7). */
function parseTrace(text: string): Parsed<boolean> {
  return { ok: true, value: text === "true" };
}

/** "must be a decimal integer from 1 to 10" as the documents say it: "a decimal integer from 1 to 10". */
const stated = (rule: string) => rule.replace(/^must be /, "");

/**
 * In the order the parser checks them: the path before the query (a bad path wins), and within each, the order
 * of the details of a 400.
 */
export const QUOTE_PARAMS: QuoteParams = {
  chainId: {
    in: "path",
    required: true,
    parse: parseChainId,
    pattern: INTEGER_PATTERN,
    description: `Chain id, ${stated(CHAIN_ID_RULE)}`,
    example: "31337",
    explorer: { label: "Chain id" },
  },
  marketAddress: {
    in: "path",
    required: true,
    parse: parseMarketAddress,
    pattern: ADDRESS_PATTERN,
    description: "Market group address: 0x and 40 hex digits, all-lower, all-upper or EIP-55 checksummed",
    example: DEMO_MARKET_GROUP,
    explorer: { label: "Market group address", wide: true },
  },
  marketId: {
    in: "path",
    required: true,
    parse: parseMarketId,
    pattern: INTEGER_PATTERN,
    description: `Market id within the group, ${stated(MARKET_ID_RULE)}`,
    example: "2",
    explorer: { label: "Market id" },
  },
  expectedPrice: {
    in: "query",
    required: true,
    parse: parseDecimalD18,
    pattern: DECIMAL_PATTERN,
    description:
      "Target reference price after the trade (decimal, at most 18 decimals). Above the current price the " +
      "quote is a LONG, below it a SHORT; equal is an error.",
    example: "1030",
    cli: { flag: "expected-price" },
    explorer: { label: "Expected price" },
  },
  collateralAvailable: {
    in: "query",
    required: true,
    parse: parseWei,
    pattern: INTEGER_PATTERN,
    description:
      "Collateral budget in wei, 1 to 2^256-1: 18-decimal units whatever the collateral token's decimals (1000 USDC " +
      "is 1000000000000000000000). The answer's maxCollateral is the trade's limit in the token's own units. A " +
      "minimum trade size that a market group enforces on trades is not visible to quotes",
    example: "1000000000000000000000",
    cli: { flag: "collateral" },
    explorer: { label: "Budget: collateralAvailable (wei)", wide: true },
  },
  maxIterations: {
    in: "query",
    required: false,
    parse: parseMaxIterations,
    default: DEFAULT_MAX_ITERATIONS,
    pattern: INTEGER_PATTERN,
    description: `Binary search steps, 1 to ${MAX_ITERATIONS} (default ${DEFAULT_MAX_ITERATIONS})`,
    example: "10",
    cli: { flag: "max-iterations" },
    explorer: { label: "Max iterations" },
  },
  priceLimit: {
    in: "query",
    required: false,
    parse: parsePriceLimit,
    pattern: DECIMAL_PATTERN,
    description:
      "Price guardrail (default: the current price); must be greater than 0. A LONG needs " +
      "priceLimit < priceAfter <= expectedPrice, a SHORT expectedPrice <= priceAfter < priceLimit.",
    example: "1000",
    cli: { flag: "price-limit" },
    explorer: { label: "Price limit", placeholder: "current price" },
  },
  trace: {
    in: "query",
    required: false,
    parse: parseTrace,
    default: false,
    description: "true adds the list of quoted candidates (any other value is ignored)",
    example: "true",
    cli: { flag: "trace", sends: "true" },
  },
  search: {
    in: "query",
    required: false,
    parse: parseSearch,
    default: "bisection",
    enum: SEARCH_MODES,
    description:
      "bisection (default): the interface's search, at most maxIterations halvings of [0, collateralAvailable / " +
      "currentPrice]. exact: the largest size whose quote meets every rule, from 1000000 wei to 2^255-1, proven " +
      "by quoting it and one wei more at the same block (exact: true), at most EXACT_MAX_CANDIDATES quotes; " +
      "maxIterations is still validated but does not bound it",
    example: "exact",
    cli: { flag: "search" },
  },
  minBlock: {
    in: "query",
    required: false,
    parse: parseBlockNumber,
    pattern: INTEGER_PATTERN,
    description:
      `The answer is at this block or later, ${stated(BLOCK_NUMBER_RULE)}: after a trade, its receipt's block number, ` +
      "so that the quote sees the trade (read-your-writes). The quote waits for the block up to its deadline; if the " +
      "chain does not reach it, 503. Absent: the newest block the service has seen",
    example: "6",
    cli: { flag: "min-block" },
    explorer: { label: "At block (minBlock)", placeholder: "the newest seen" },
  },
  // Semantics §12: no default is filled in (a request without them is the request before §12); the trade applies
  // the defaults its descriptions state.
  taker: {
    in: "query",
    required: false,
    parse: parseAddress,
    pattern: ADDRESS_PATTERN,
    description:
      "The account that will trade (0x and 40 hex digits; mixed case must pass the EIP-55 checksum): the answer adds " +
      "`trade`, the createTraderPosition transaction ready to sign from it, its collateral limit and deadline, the " +
      "ERC-20 approval it needs first (or null), its balance, and the trade simulated from it at the answer's block. " +
      "Left out: the answer is as without this parameter, byte for byte",
    example: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    cli: { flag: "taker" },
    explorer: { label: "Taker (the trading account)", wide: true, placeholder: "none: no trade" },
  },
  slippageBps: {
    in: "query",
    required: false,
    parse: parseSlippageBps,
    pattern: INTEGER_PATTERN,
    description:
      `With taker: room for the price to move, ${stated(SLIPPAGE_BPS_RULE)} of maxCollateral (default ` +
      `${DEFAULT_SLIPPAGE_BPS}): the trade's collateralLimit is maxCollateral raised by it, rounded up, never past ` +
      "collateralAvailable (in token units, rounded down) nor below maxCollateral. 0 sends maxCollateral exactly",
    example: "50",
    cli: { flag: "slippage-bps" },
    explorer: { label: "Slippage (bps)", placeholder: String(DEFAULT_SLIPPAGE_BPS) },
  },
  deadlineSeconds: {
    in: "query",
    required: false,
    parse: parseDeadlineSeconds,
    pattern: INTEGER_PATTERN,
    description:
      `With taker: the trade's deadline, ${stated(DEADLINE_SECONDS_RULE)} after the answer block's timestamp (default ` +
      `${DEFAULT_DEADLINE_SECONDS}): a block later than that rejects it (TransactionExpired)`,
    example: "300",
    cli: { flag: "deadline-seconds" },
    explorer: { label: "Deadline (seconds)", placeholder: String(DEFAULT_DEADLINE_SECONDS) },
  },
};

/** The parameters at one place, in the table's order, with their names. */
export function paramsIn(location: ParamLocation): readonly ParamEntry[] {
  return PARAMS_BY_LOCATION[location];
}

type ParamEntry = [keyof QuoteRequest, QuoteParam<unknown>];
const PARAM_ENTRIES = Object.entries(QUOTE_PARAMS) as ParamEntry[];
/** The table split once by location: every request reads it. */
const PARAMS_BY_LOCATION: Record<ParamLocation, readonly ParamEntry[]> = {
  path: PARAM_ENTRIES.filter(([, param]) => param.in === "path"),
  query: PARAM_ENTRIES.filter(([, param]) => param.in === "query"),
};
