// How a quoted candidate reads in an error's details: its price after, how it went too far, its revert and what
// the revert's arguments say of the market, in figures.
import { formatD18, roundSignificant } from "./fixedPoint.ts";
import { priceD18FromSqrtX96Nearest } from "./priceMath.ts";
import type { QuoteRequest } from "./request.ts";
import type { TraceEntry } from "./search.ts";

/** The request as far as the explanations read it. */
export type ExplainedRequest = Pick<QuoteRequest, "expectedPrice" | "collateralAvailable" | "maxIterations" | "priceLimit">;

/** How a candidate went too far, in figures. */
export function describeTooLarge(entry: TraceEntry, request: ExplainedRequest): string {
  switch (entry.outcome) {
    case "beyond-expected":
      return `moves it to ${priceAfterOf(entry)}, past expectedPrice ${formatD18(request.expectedPrice)}`;
    case "over-budget":
      return `needs ${entry.quote?.requiredCollateral ?? "more"} wei of collateral, more than collateralAvailable ${request.collateralAvailable} wei`;
    default:
      return `reverted (${describeRevert(entry)})`;
  }
}

export function priceAfterOf(entry: TraceEntry): string {
  return entry.quote === undefined ? "unknown" : formatD18(entry.quote.priceAfter);
}

/** The revert's name, with what its arguments say of the market where they say something. */
export function describeRevert(entry: TraceEntry): string {
  const name = entry.revert ?? "an undecoded revert";
  const args = entry.revertArgs ?? {};
  if (name === "PoolPriceOutOfRange" && isDigits(args.minPrice) && isDigits(args.maxPrice)) {
    return `${name}: the trade leaves the market's range [${approximate(priceD18FromSqrtX96Nearest(BigInt(args.minPrice)))}, ${approximate(priceD18FromSqrtX96Nearest(BigInt(args.maxPrice)))}]`;
  }
  if (name === "Error" && args.message !== undefined) return `Error: ${args.message}`;
  return name;
}

function isDigits(text: string | undefined): text is string {
  return text !== undefined && /^\d{1,80}$/.test(text);
}

/**
 * A D18 price to 6 significant digits, prefixed "about" when rounding changed it: the range in a sqrt price
 * is not an exact decimal (0.4 reads back as 0.399999999999999999...).
 */
export function approximate(value: bigint, digits = 6): string {
  if (value <= 0n) return formatD18(value);
  const rounded = roundSignificant(value, digits);
  return rounded === value ? formatD18(value) : `about ${formatD18(rounded)}`;
}
