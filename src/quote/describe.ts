// How a quoted candidate reads in an error's details: its price after, how it went too far, its revert and what
// the revert's arguments say of the market, in figures.
import { D18, formatD18 } from "./decimal.ts";
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
