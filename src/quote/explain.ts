// What a person can do about an answer that is not a quote: the figures behind an error and the change that
// helps, as `details` entries. The error messages themselves are the interface's and never change; these only
// add to them. Pure: from the request, the current price and the search's record.
import { D18, formatD18 } from "./decimal.ts";
import type { ErrorDetail } from "./errors.ts";
import type { QuoteRequest } from "./request.ts";
import { computeCap, type Direction, type SearchResult, type TraceEntry } from "./search.ts";

/** The request as far as the explanations read it; `search` is the strategy a request may name. */
type ExplainedRequest = Pick<QuoteRequest, "expectedPrice" | "collateralAvailable" | "maxIterations" | "priceLimit">;

/** The most candidates a bisection quotes (semantics §2). */
const MOST_ITERATIONS = 10;

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
  const expected = request.expectedPrice;
  const limit = request.priceLimit ?? currentPrice;
  const limitName = request.priceLimit === undefined ? `priceLimit (by default the current price, ${formatD18(limit)})` : `priceLimit ${formatD18(limit)}`;

  // No size can be both past priceLimit and not past expectedPrice: the bound is the pair itself.
  if (long ? limit >= expected : limit <= expected) {
    const rule = long ? "a LONG needs priceLimit < priceAfter <= expectedPrice" : "a SHORT needs expectedPrice <= priceAfter < priceLimit";
    return [
      {
        param: "priceLimit",
        message:
          `${limitName} is not ${long ? "below" : "above"} expectedPrice ${formatD18(expected)}: ${rule}, so no size can satisfy ` +
          `both; set priceLimit ${long ? "below" : "above"} ${formatD18(expected)}, or leave it out (it defaults to the current price ${formatD18(currentPrice)})`,
      },
    ];
  }

  const cap = computeCap(request.collateralAvailable, currentPrice);
  // The bisection tries sizes strictly inside (0, cap): with a cap of 0 or 1 it has none to try.
  if (cap <= 1n) {
    return [
      {
        param: "collateralAvailable",
        message:
          `${request.collateralAvailable} wei buys ${cap} wei of size at the current price ${formatD18(currentPrice)} ` +
          `(collateralAvailable × 10^18 / currentPrice), and the search tries sizes strictly between 0 and that: no size was quoted; ` +
          `the smallest budget that gives a size of 1 wei to try is ${ceilDiv(2n * currentPrice, D18)} wei`,
      },
    ];
  }

  const entries = result.trace.map((entry) => ({ entry, size: entry.size < 0n ? -entry.size : entry.size }));
  if (entries.length === 0) return [];
  const tooSmall = entries.filter((e) => e.entry.outcome === "short-of-limit");
  const tooLarge = entries.filter((e) => e.entry.outcome !== "short-of-limit" && e.entry.outcome !== "feasible");
  // The bisection's last bounds: the largest size that did not pass priceLimit, the smallest that went too far.
  const lower = tooSmall.reduce<(typeof entries)[number] | undefined>((best, e) => (best === undefined || e.size > best.size ? e : best), undefined);
  const upper = tooLarge.reduce<(typeof entries)[number] | undefined>((best, e) => (best === undefined || e.size < best.size ? e : best), undefined);
  const low = lower?.size ?? 0n;
  const high = upper?.size ?? cap;

  const details: ErrorDetail[] = [];
  if (upper !== undefined && lower === undefined) {
    const size = upper.size;
    const smaller = smallerBudget(size, currentPrice);
    const retry = smaller > 0n ? `; a budget of at most ${smaller} wei ends the search's range at or below ${size} wei, so it tries smaller sizes` : "";
    const every = tooLarge.length === entries.length && entries.every((e) => e.entry.outcome === upper.entry.outcome);
    switch (upper.entry.outcome) {
      case "reverted":
        details.push({
          param: "collateralAvailable",
          message:
            `${every ? "every size tried reverted, down to" : "the smallest size tried,"} ${size} wei${every ? "" : ", reverted"} ` +
            `(${describeRevert(upper.entry)}): the market's liquidity ends below ${size} wei of size${retry}`,
        });
        break;
      case "over-budget":
        details.push({
          param: "collateralAvailable",
          message:
            `the smallest size tried, ${size} wei, needs ${upper.entry.quote?.requiredCollateral ?? "more"} wei of collateral, more than ` +
            `collateralAvailable ${request.collateralAvailable} wei; a budget of at least ${upper.entry.quote?.requiredCollateral ?? "that"} wei covers it`,
        });
        break;
      case "beyond-expected": {
        const after = priceAfterOf(upper.entry);
        details.push({
          param: "expectedPrice",
          message:
            `even the smallest size tried, ${size} wei, moves the price to ${after}, past expectedPrice ${formatD18(expected)}; ` +
            `an expectedPrice of ${long ? "at least" : "at most"} ${after} lets that size fill${retry}`,
        });
        break;
      }
    }
  } else if (lower !== undefined && upper === undefined) {
    const after = priceAfterOf(lower.entry);
    const change =
      request.priceLimit === undefined
        ? "a larger budget reaches larger sizes"
        : `a priceLimit ${long ? "below" : "above"} ${after} lets that size fill, or a larger budget reaches larger sizes`;
    details.push({
      param: "collateralAvailable",
      message:
        `even the largest size tried, ${lower.size} wei (the budget buys at most ${cap} wei at the current price ${formatD18(currentPrice)}), ` +
        `moves the price only to ${after}, not past ${limitName}; ${change}`,
    });
  } else if (lower !== undefined && upper !== undefined) {
    const lowAfter = priceAfterOf(lower.entry);
    const narrow = high - low <= 1n;
    const passLimit = `a priceLimit ${long ? "below" : "above"} ${lowAfter}`;
    const change = {
      "beyond-expected": `widen the band between priceLimit and expectedPrice: ${passLimit}, or an expectedPrice of ${long ? "at least" : "at most"} ${priceAfterOf(upper.entry)}`,
      "over-budget": `${passLimit}, or a budget of at least ${upper.entry.quote?.requiredCollateral ?? "more"} wei`,
      reverted: `${passLimit}: the market cannot fill much more`,
    }[upper.entry.outcome as "beyond-expected" | "over-budget" | "reverted"];
    details.push({
      param: upper.entry.outcome === "beyond-expected" ? "expectedPrice" : upper.entry.outcome === "over-budget" ? "collateralAvailable" : "priceLimit",
      message:
        `${lower.size} wei moves the price only to ${lowAfter}, not past ${limitName}, and ` +
        `${narrow ? "one wei more" : "the next size up the search tried"}, ${upper.size} wei, ${describeTooLarge(upper.entry, request)}` +
        (narrow ? `: no size lies between; ${change}` : `: a size between them may fit; else ${change}`),
    });
  }

  if (high - low > 1n) {
    // The bisection's finest step is its range over 2^maxIterations: what lies below it is never tried.
    const fewer = request.maxIterations < MOST_ITERATIONS;
    details.push({
      param: fewer ? "maxIterations" : "collateralAvailable",
      message:
        `the bisection stopped after ${entries.length} candidate${entries.length === 1 ? "" : "s"} with the sizes between ${low} and ${high} wei untried; ` +
        (fewer
          ? `maxIterations=${MOST_ITERATIONS} halves the step ${MOST_ITERATIONS - request.maxIterations} more times`
          : `its range is [0, collateralAvailable / currentPrice] cut in 2^${MOST_ITERATIONS} steps, so a smaller collateralAvailable tries smaller sizes`),
    });
  }
  return details;
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

/** How a candidate went too far, in figures. */
function describeTooLarge(entry: TraceEntry, request: ExplainedRequest): string {
  switch (entry.outcome) {
    case "beyond-expected":
      return `moves it to ${priceAfterOf(entry)}, past expectedPrice ${formatD18(request.expectedPrice)}`;
    case "over-budget":
      return `needs ${entry.quote?.requiredCollateral ?? "more"} wei of collateral, more than collateralAvailable ${request.collateralAvailable} wei`;
    default:
      return `reverted (${describeRevert(entry)})`;
  }
}

function priceAfterOf(entry: TraceEntry): string {
  return entry.quote === undefined ? "unknown" : formatD18(entry.quote.priceAfter);
}

/** The revert's name, with what its arguments say of the market where they say something. */
function describeRevert(entry: TraceEntry): string {
  const name = entry.revert ?? "an undecoded revert";
  const args = entry.revertArgs ?? {};
  if (name === "PoolPriceOutOfRange" && isDigits(args.minPrice) && isDigits(args.maxPrice)) {
    return `${name}: the trade leaves the market's range [${approximate(sqrtX96ToD18(BigInt(args.minPrice)))}, ${approximate(sqrtX96ToD18(BigInt(args.maxPrice)))}]`;
  }
  if (name === "Error" && args.message !== undefined) return `Error: ${args.message}`;
  return name;
}

function isDigits(text: string | undefined): text is string {
  return text !== undefined && /^\d{1,80}$/.test(text);
}

/** A Uniswap sqrt price (Q64.96) as a D18 price, rounded to nearest. */
export function sqrtX96ToD18(sqrtPriceX96: bigint): bigint {
  const Q192 = 2n ** 192n;
  return (sqrtPriceX96 * sqrtPriceX96 * D18 + Q192 / 2n) / Q192;
}

/**
 * A D18 price to 6 significant digits, prefixed "about" when rounding changed it: the range in a sqrt price
 * is not an exact decimal (0.4 reads back as 0.399999999999999999...).
 */
export function approximate(value: bigint, digits = 6): string {
  if (value <= 0n) return formatD18(value);
  const length = value.toString().length;
  if (length <= digits) return formatD18(value);
  const unit = 10n ** BigInt(length - digits);
  const rounded = ((value + unit / 2n) / unit) * unit;
  return rounded === value ? formatD18(value) : `about ${formatD18(rounded)}`;
}

/** The largest budget whose cap (budget × 10^18 / price) is at most `size`: 0 when none is. */
function smallerBudget(size: bigint, currentPrice: bigint): bigint {
  return ((size + 1n) * currentPrice - 1n) / D18;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}
