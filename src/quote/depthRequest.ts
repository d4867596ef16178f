// A depth ladder's request (GET /quoter/:chainId/:marketAddress/:marketId/depth): the GET's path, a budget, and the
// prices of its levels, listed (`prices=0.55,0.6`) or spaced from the current price (`to=0.9&levels=10`). Each
// level is then the exact quote at that expectedPrice; the rules of each value are the GET's where it has them.
import { parseCount } from "./decimal.ts";
import { parseDecimalD18, type Parsed } from "./fixedPoint.ts";
import { MAX_PARAMETER_LENGTH, QUOTE_PARAMS } from "./params.ts";
import { invalidQueryParameters, type ErrorDetail, type QuoteError } from "./quoteErrors.ts";
import { parsePathParams, shapeRule, type PathParams, type QuoteRequest } from "./request.ts";
import { err, ok, type Result } from "./result.ts";

/** The most levels one ladder has. */
export const DEPTH_MAX_LEVELS = 50;

/** Where the levels are: at the prices listed, or `levels` prices evenly spaced from the current price to `to`. */
export type LadderPrices = { readonly prices: readonly bigint[] } | { readonly to: bigint; readonly levels: number };

export type DepthRequest = PathParams &
  Pick<QuoteRequest, "taker" | "slippageBps" | "deadlineSeconds"> & {
    /** Wei, as the GET's. */
    readonly collateralAvailable: bigint;
    readonly minBlock?: bigint;
    readonly ladder: LadderPrices;
  };

/** The query parameters a ladder reads as the GET reads them (its levels' trade, semantics §12, among them). */
const AS_THE_GET = ["minBlock", "taker", "slippageBps", "deadlineSeconds"] as const;

const PRICE_RULE = "must be greater than 0";
const PRICES_RULE = `must be 1 to ${DEPTH_MAX_LEVELS} decimal prices separated by commas, each greater than 0`;

/** The request, or the 400 naming each parameter that breaks its rule (the path's first, as the GET's). */
export function parseDepthRequest(params: Record<string, unknown>, query: Record<string, unknown>): Result<DepthRequest, QuoteError> {
  const path = parsePathParams(params);
  if (!path.ok) return path;
  const details: ErrorDetail[] = [];
  const read = <T>(name: string, parse: (text: string) => Parsed<T>, required = false): T | undefined => {
    const raw = query[name];
    if (raw === undefined) {
      if (required) details.push({ param: name, message: "is required" });
      return undefined;
    }
    // A list of prices is bounded by its count and each price's length, not as one value.
    const broken = shapeRule(raw, name === "prices" ? Infinity : MAX_PARAMETER_LENGTH);
    const parsed = broken === undefined ? parse(raw as string) : err(broken);
    if (!parsed.ok) details.push({ param: name, message: parsed.error });
    return parsed.ok ? parsed.value : undefined;
  };
  const collateralAvailable = read("collateralAvailable", QUOTE_PARAMS.collateralAvailable.parse, true);
  const optional: Record<string, unknown> = {};
  for (const name of AS_THE_GET) {
    const value = read<unknown>(name, QUOTE_PARAMS[name].parse);
    if (value !== undefined) optional[name] = value;
  }
  const ladder = readLadder(query, read, details);
  if (details.length > 0) return err(invalidQueryParameters(details));
  return ok({ ...path.value, collateralAvailable: collateralAvailable!, ...optional, ladder: ladder! });
}

/** `prices`, or `to` with `levels`: exactly one of the two ways. */
function readLadder(
  query: Record<string, unknown>,
  read: <T>(name: string, parse: (text: string) => Parsed<T>, required?: boolean) => T | undefined,
  details: ErrorDetail[],
): LadderPrices | undefined {
  const listed = query.prices !== undefined;
  const spaced = query.to !== undefined || query.levels !== undefined;
  if (listed === spaced) {
    const message = listed ? "give either prices or to and levels, not both" : "is required: the levels' prices (or to and levels)";
    details.push({ param: "prices", message });
    return undefined;
  }
  if (listed) {
    const prices = read("prices", parsePrices);
    return prices === undefined ? undefined : { prices };
  }
  const to = read("to", parsePositivePrice, true);
  const levels = read("levels", (text) => parseCount(text, DEPTH_MAX_LEVELS), true);
  return to === undefined || levels === undefined ? undefined : { to, levels };
}

/** A decimal price, > 0, of at most MAX_PARAMETER_LENGTH characters. */
function parsePositivePrice(text: string): Parsed<bigint> {
  if (text.length > MAX_PARAMETER_LENGTH) return err(`must be at most ${MAX_PARAMETER_LENGTH} characters`);
  const parsed = parseDecimalD18(text);
  if (!parsed.ok) return parsed;
  return parsed.value > 0n ? parsed : err(PRICE_RULE);
}

/** `0.55,0.6,…`: each a price as `to` is read. */
function parsePrices(text: string): Parsed<readonly bigint[]> {
  const parts = text.split(",");
  if (parts.length > DEPTH_MAX_LEVELS) return err(PRICES_RULE);
  const prices: bigint[] = [];
  for (const [index, part] of parts.entries()) {
    const parsed = parsePositivePrice(part.trim());
    if (!parsed.ok) return err(`${PRICES_RULE}: price ${index + 1} (${JSON.stringify(part.slice(0, 24))}) ${parsed.error}`);
    prices.push(parsed.value);
  }
  return ok(prices);
}

/** A spaced ladder's quotes: `farthest` (its expectedPrice is `to`) at each price ladderPrices plans from the market's price. */
export type SpacedLadder = { readonly farthest: QuoteRequest; readonly levels: number };

/** The quotes of a ladder, made from the market's price at its block: the ones listed, or a spaced ladder's. */
export type LadderPlan = { readonly requests: readonly QuoteRequest[] } | SpacedLadder;

/** The quotes `plan` makes at the market's price `current` (undefined: it has none). */
export function plannedRequests(plan: LadderPlan, current: bigint | undefined): readonly QuoteRequest[] {
  if ("requests" in plan) return plan.requests;
  return ladderPrices(current, plan.farthest.expectedPrice, plan.levels).map((expectedPrice) => ({ ...plan.farthest, expectedPrice }));
}

/**
 * The prices of `levels` levels from the market's price `current` (excluded) to `to` (included): `to` alone when
 * the market has no price (the quote there says why), none when `current` is `to`, else level i of n at
 * current + (to - current) * i / n, the division rounded toward the current price (down above it, up below it), so
 * that the last level is `to` exactly and no level passes it. contracts/DepthLadderRule.sol is the same rule, which
 * the searcher plans a ladder by.
 */
export function ladderPrices(current: bigint | undefined, to: bigint, levels: number): bigint[] {
  if (current === undefined) return [to];
  const distance = to > current ? to - current : current - to;
  return Array.from({ length: current === to ? 0 : levels }, (_, i) => {
    const step = (distance * BigInt(i + 1)) / BigInt(levels);
    return to > current ? current + step : current - step;
  });
}
