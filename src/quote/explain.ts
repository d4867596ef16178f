// What a person can do about an answer that is not a quote: the figures behind an error and the change that
// helps, as `details` entries. The error messages themselves are the interface's and never change; these only
// add to them. Pure: from the request, the current price and the search's record.
import { MAX_ITERATIONS } from "./limits.ts";
import { D18, formatD18 } from "./fixedPoint.ts";
import type { ErrorDetail } from "./quoteErrors.ts";
import { describeRevert, describeTooLarge, priceAfterOf, type ExplainedRequest } from "./describe.ts";
import { computeCap, type Direction, type SearchResult, type TraceEntry } from "./search.ts";


/** The most candidates a bisection quotes (semantics §2). */

/** On the equal-price error: the price to move away from, and which side gives which direction. */
export function equalPriceDetail(currentPrice: bigint): ErrorDetail {
  const price = formatD18(currentPrice);
  return {
    param: "expectedPrice",
    message: `equals the current price ${price}: set it above ${price} to quote a LONG, below ${price} to quote a SHORT`,
  };
}

/** On a chain with no RPC: the setting to set. */
export function unconfiguredChainDetail(chainId: number): ErrorDetail {
  return {
    param: "chainId",
    message:
      `no RPC endpoint is configured for chain ${chainId}: set RPC_URL_${chainId} to its JSON-RPC URL ` +
      `(a comma-separated list for fallbacks) and restart the service`,
  };
}

type SearchFailure = Extract<SearchResult, { kind: "insufficient-liquidity" | "no-valid-size" }>;

/** A candidate of the trace with its unsigned size. */
type Tried = { entry: TraceEntry; size: bigint };

/** What every explanation of a failed bisection reads. */
type FailureContext = {
  request: ExplainedRequest;
  currentPrice: bigint;
  long: boolean;
  /** priceLimit as the request gave it, or as it defaults, named for a message. */
  limitName: string;
  cap: bigint;
  entries: Tried[];
  tooLarge: Tried[];
};

/**
 * Why a search found no size: the bound that decided, with its figures, and the change that helps. The first
 * entry names the bound; a second, where the bisection left sizes untried, points to what would try them.
 */
export function explainSearchFailure(
  request: ExplainedRequest,
  currentPrice: bigint,
  direction: Direction,
  result: SearchFailure,
): ErrorDetail[] {
  const long = direction === "LONG";
  const limit = request.priceLimit ?? currentPrice;
  const limitName = request.priceLimit === undefined ? `priceLimit (by default the current price, ${formatD18(limit)})` : `priceLimit ${formatD18(limit)}`;
  // No size can be both past priceLimit and not past expectedPrice: the bound is the pair itself.
  if (long ? limit >= request.expectedPrice : limit <= request.expectedPrice) return [crossedBoundsDetail(request, currentPrice, long, limitName)];
  const cap = computeCap(request.collateralAvailable, currentPrice);
  // The bisection tries sizes strictly inside (0, cap): with a cap of 0 or 1 it has none to try.
  if (cap <= 1n) return [noSizeToTryDetail(request, currentPrice, cap)];

  const entries = result.trace.map((entry) => ({ entry, size: entry.size < 0n ? -entry.size : entry.size }));
  if (entries.length === 0) return [];
  const tooLarge = entries.filter((e) => e.entry.outcome !== "short-of-limit" && e.entry.outcome !== "feasible");
  const context: FailureContext = { request, currentPrice, long, limitName, cap, entries, tooLarge };
  // The bisection's last bounds: the largest size that did not pass priceLimit, the smallest that went too far.
  const lower = largest(entries.filter((e) => e.entry.outcome === "short-of-limit"));
  const upper = smallest(tooLarge);
  const details: ErrorDetail[] = [];
  if (upper !== undefined && lower === undefined) details.push(...onlyTooLargeDetail(context, upper));
  else if (lower !== undefined && upper === undefined) details.push(onlyTooSmallDetail(context, lower));
  else if (lower !== undefined && upper !== undefined) details.push(betweenDetail(context, lower, upper));
  const untried = untriedDetail(request, entries.length, lower?.size ?? 0n, upper?.size ?? cap);
  return untried === undefined ? details : [...details, untried];
}

function largest(tried: Tried[]): Tried | undefined {
  return tried.reduce<Tried | undefined>((best, e) => (best === undefined || e.size > best.size ? e : best), undefined);
}

function smallest(tried: Tried[]): Tried | undefined {
  return tried.reduce<Tried | undefined>((best, e) => (best === undefined || e.size < best.size ? e : best), undefined);
}

/** priceLimit on the wrong side of expectedPrice: no size can satisfy both. */
function crossedBoundsDetail(request: ExplainedRequest, currentPrice: bigint, long: boolean, limitName: string): ErrorDetail {
  const expected = formatD18(request.expectedPrice);
  const rule = long ? "a LONG needs priceLimit < priceAfter <= expectedPrice" : "a SHORT needs expectedPrice <= priceAfter < priceLimit";
  return {
    param: "priceLimit",
    message:
      `${limitName} is not ${long ? "below" : "above"} expectedPrice ${expected}: ${rule}, so no size can satisfy ` +
      `both; set priceLimit ${long ? "below" : "above"} ${expected}, or leave it out (it defaults to the current price ${formatD18(currentPrice)})`,
  };
}

/** A budget too small to give the bisection one size to try. */
function noSizeToTryDetail(request: ExplainedRequest, currentPrice: bigint, cap: bigint): ErrorDetail {
  return {
    param: "collateralAvailable",
    message:
      `${request.collateralAvailable} wei buys ${cap} wei of size at the current price ${formatD18(currentPrice)} ` +
      `(collateralAvailable × 10^18 / currentPrice), and the search tries sizes strictly between 0 and that: no size was quoted; ` +
      `the smallest budget that gives a size of 1 wei to try is ${ceilDiv(2n * currentPrice, D18)} wei`,
  };
}

/** Every size tried was too large: what broke at the smallest, and what tries smaller ones. */
function onlyTooLargeDetail({ request, currentPrice, long, entries, tooLarge }: FailureContext, upper: Tried): ErrorDetail[] {
  const size = upper.size;
  const smaller = smallerBudget(size, currentPrice);
  const retry = smaller > 0n ? `; a budget of at most ${smaller} wei ends the search's range at or below ${size} wei, so it tries smaller sizes` : "";
  const every = tooLarge.length === entries.length && entries.every((e) => e.entry.outcome === upper.entry.outcome);
  const required = upper.entry.quote?.requiredCollateral;
  switch (upper.entry.outcome) {
    case "reverted":
      return [
        {
          param: "collateralAvailable",
          message:
            `${every ? "every size tried reverted, down to" : "the smallest size tried,"} ${size} wei${every ? "" : ", reverted"} ` +
            `(${describeRevert(upper.entry)}): the market's liquidity ends below ${size} wei of size${retry}`,
        },
      ];
    case "over-budget":
      return [
        {
          param: "collateralAvailable",
          message:
            `the smallest size tried, ${size} wei, needs ${required ?? "more"} wei of collateral, more than ` +
            `collateralAvailable ${request.collateralAvailable} wei; a budget of at least ${required ?? "that"} wei covers it`,
        },
      ];
    case "beyond-expected": {
      const after = priceAfterOf(upper.entry);
      return [
        {
          param: "expectedPrice",
          message:
            `even the smallest size tried, ${size} wei, moves the price to ${after}, past expectedPrice ${formatD18(request.expectedPrice)}; ` +
            `an expectedPrice of ${long ? "at least" : "at most"} ${after} lets that size fill${retry}`,
        },
      ];
    }
    default:
      return [];
  }
}

/** Every size tried stayed short of priceLimit. */
function onlyTooSmallDetail({ request, currentPrice, long, limitName, cap }: FailureContext, lower: Tried): ErrorDetail {
  const after = priceAfterOf(lower.entry);
  const change =
    request.priceLimit === undefined
      ? "a larger budget reaches larger sizes"
      : `a priceLimit ${long ? "below" : "above"} ${after} lets that size fill, or a larger budget reaches larger sizes`;
  return {
    param: "collateralAvailable",
    message:
      `even the largest size tried, ${lower.size} wei (the budget buys at most ${cap} wei at the current price ${formatD18(currentPrice)}), ` +
      `moves the price only to ${after}, not past ${limitName}; ${change}`,
  };
}

/** Short of priceLimit below, too large above: whether a size can lie between, and what widens the band. */
function betweenDetail({ request, long, limitName }: FailureContext, lower: Tried, upper: Tried): ErrorDetail {
  const lowAfter = priceAfterOf(lower.entry);
  const narrow = upper.size - lower.size <= 1n;
  const passLimit = `a priceLimit ${long ? "below" : "above"} ${lowAfter}`;
  const change = {
    "beyond-expected": `widen the band between priceLimit and expectedPrice: ${passLimit}, or an expectedPrice of ${long ? "at least" : "at most"} ${priceAfterOf(upper.entry)}`,
    "over-budget": `${passLimit}, or a budget of at least ${upper.entry.quote?.requiredCollateral ?? "more"} wei`,
    reverted: `${passLimit}: the market cannot fill much more`,
  }[upper.entry.outcome as "beyond-expected" | "over-budget" | "reverted"];
  return {
    param: upper.entry.outcome === "beyond-expected" ? "expectedPrice" : upper.entry.outcome === "over-budget" ? "collateralAvailable" : "priceLimit",
    message:
      `${lower.size} wei moves the price only to ${lowAfter}, not past ${limitName}, and ` +
      `${narrow ? "one wei more" : "the next size up the search tried"}, ${upper.size} wei, ${describeTooLarge(upper.entry, request)}` +
      (narrow ? `: no size lies between; ${change}` : `: a size between them may fit; else ${change}`),
  };
}

/** The bisection's finest step is its range over 2^maxIterations: what lies below it is never tried. */
function untriedDetail(request: ExplainedRequest, tried: number, low: bigint, high: bigint): ErrorDetail | undefined {
  if (high - low <= 1n) return undefined;
  const fewer = request.maxIterations < MAX_ITERATIONS;
  return {
    param: fewer ? "maxIterations" : "collateralAvailable",
    message:
      `the bisection stopped after ${tried} candidate${tried === 1 ? "" : "s"} with the sizes between ${low} and ${high} wei untried; ` +
      (fewer
        ? `maxIterations=${MAX_ITERATIONS} halves the step ${MAX_ITERATIONS - request.maxIterations} more times`
        : `its range is [0, collateralAvailable / currentPrice] cut in 2^${MAX_ITERATIONS} steps, so a smaller collateralAvailable tries smaller sizes, ` +
          "or search=exact finds the largest size that fits whatever the budget"),
  };
}

/**
 * Why search=exact found no size (§4b): what its quotes prove, from the last candidates on either side of the
 * top of the feasible interval, or that it reached its bound of candidates before proving anything.
 */
export function explainExactFailure(request: ExplainedRequest, trace: readonly TraceEntry[], proven: boolean, dust: bigint): ErrorDetail[] {
  const magnitude = (entry: TraceEntry) => (entry.size < 0n ? -entry.size : entry.size);
  const tooLarge = trace.filter((entry) => entry.outcome !== "feasible" && entry.outcome !== "short-of-limit");
  const short = trace.filter((entry) => entry.outcome === "short-of-limit");
  const upper = tooLarge.reduce<TraceEntry | undefined>((a, b) => (a === undefined || magnitude(b) < magnitude(a) ? b : a), undefined);
  const lower = short.reduce<TraceEntry | undefined>((a, b) => (a === undefined || magnitude(b) > magnitude(a) ? b : a), undefined);
  const param = upper?.outcome === "beyond-expected" ? "expectedPrice" : upper?.outcome === "over-budget" ? "collateralAvailable" : "marketId";
  if (!proven || upper === undefined) {
    return [{ param: "search", message: `the exact search quoted ${trace.length} candidates without finding a size that fits or proving that none does` }];
  }
  if (lower === undefined) {
    return [{ param, message: `no size fits: the smallest size the exact search quotes, ${magnitude(upper)} wei (sizes below ${dust} wei prove nothing), ${describeTooLarge(upper, request)}` }];
  }
  return [{
    param: "priceLimit",
    message:
      `no size fits: ${magnitude(lower)} wei moves the price only to ${priceAfterOf(lower)}, not past priceLimit, and one wei more ` +
      `${describeTooLarge(upper, request)}`,
  }];
}

/** The largest budget whose cap (budget × 10^18 / price) is at most `size`: 0 when none is. */
function smallerBudget(size: bigint, currentPrice: bigint): bigint {
  return ((size + 1n) * currentPrice - 1n) / D18;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}
