// The bounded search of semantics §4, written once over an evaluator of candidate sizes.
// A sequential strategy evaluates by simulating each candidate on chain; the single-call strategy
// answers from the candidates its on-chain search recorded (src/chain/searchers/singleCall.ts). Either way the
// classification and the bounds are these.
import { maxInt256 } from "viem";
import { D18 } from "./fixedPoint.ts";

export type Direction = "LONG" | "SHORT";

export type CandidateQuote = { requiredCollateral: bigint; fillPrice: bigint; priceAfter: bigint };

export type Evaluation =
  | { kind: "quoted"; quote: CandidateQuote }
  /**
   * errorName: the decoded error ("PoolPriceOutOfRange", "MarketSettled", "Error", "Panic", ...) when known;
   * errorArgs: its arguments by name, numbers as decimal strings.
   */
  | { kind: "reverted"; data: `0x${string}`; errorName?: string; errorArgs?: Readonly<Record<string, string>> };

/**
 * Where the bisection stands when it asks for a candidate: its bounds and how many candidates it has quoted.
 * The candidate is (low + high) / 2. A searcher that runs on chain continues the same search from here.
 */
export type SearchPoint = { readonly low: bigint; readonly high: bigint; readonly iteration: number };

/**
 * Quotes one signed size (positive LONG, negative SHORT), the candidate of `point`. A throw is a transport
 * failure and ends the search.
 */
export type Evaluator = (signedSize: bigint, point: SearchPoint) => Evaluation | Promise<Evaluation>;

export type Outcome = "feasible" | "reverted" | "over-budget" | "beyond-expected" | "short-of-limit";

export type TraceEntry = {
  /** Signed: negative for SHORT. */
  size: bigint;
  outcome: Outcome;
  quote?: CandidateQuote;
  /** The decoded error name, or the raw revert data. */
  revert?: string;
  /** The decoded error's arguments by name. */
  revertArgs?: Readonly<Record<string, string>>;
};

export type SearchInput = {
  direction: Direction;
  /** The top of the range [0, cap]: see {@link computeCap}. */
  cap: bigint;
  maxIterations: number;
  expectedPrice: bigint;
  priceLimit: bigint;
  collateralAvailable: bigint;
};

type SearchRecord = { iterations: number; trace: TraceEntry[] };

export type SearchResult =
  | (SearchRecord & { kind: "found"; size: bigint; quote: CandidateQuote })
  | (SearchRecord & { kind: "insufficient-liquidity" })
  | (SearchRecord & { kind: "no-valid-size"; revertName?: string; revertArgs?: Readonly<Record<string, string>> })
  | (SearchRecord & { kind: "market-settled"; revertName: string });

/** Reverts that say the market is settled: the search stops and the quote is 400 "Market is settled". */
const SETTLED_REVERTS: readonly string[] = ["MarketSettled", "EpochSettled"];
/** Reverts that say nothing about size: the search stops with no valid size (semantics §4, §9). */
const UNUSABLE_MARKET_REVERTS: readonly string[] = ["InvalidMarket", "ExpiredMarket", "ExpiredMarketNotSettled", "MarketNotStarted"];

/** LONG when the expected price is above the current one, else SHORT (§3.8). */
export function inferDirection(expectedPrice: bigint, currentPrice: bigint): Direction {
  return expectedPrice > currentPrice ? "LONG" : "SHORT";
}

/** collateral * 10^18 / currentPrice, integer division at full precision, capped at 2^255-1 (§4). */
export function computeCap(collateralAvailable: bigint, currentPrice: bigint): bigint {
  if (currentPrice <= 0n) throw new RangeError("computeCap: the current price must be positive");
  const cap = (collateralAvailable * D18) / currentPrice;
  return cap > maxInt256 ? maxInt256 : cap;
}

/** The rules a quoted candidate is classified by. */
export type QuoteRules = Pick<SearchInput, "direction" | "expectedPrice" | "priceLimit" | "collateralAvailable">;

/** The outcome of one quoted candidate, in the order of §4 (a revert is classified by the caller). */
export function classifyQuote(input: QuoteRules, quote: CandidateQuote): Exclude<Outcome, "reverted"> {
  if (quote.requiredCollateral > input.collateralAvailable) return "over-budget";
  const after = quote.priceAfter;
  if (input.direction === "LONG") {
    if (after > input.expectedPrice) return "beyond-expected";
    if (after <= input.priceLimit) return "short-of-limit";
  } else {
    if (after < input.expectedPrice) return "beyond-expected";
    if (after >= input.priceLimit) return "short-of-limit";
  }
  return "feasible";
}

/**
 * Records a reverted candidate in `trace` (its decoded error and arguments, or its raw data) and, when the revert
 * says nothing about size (§4: settled, or a market that cannot trade), the result that ends the search.
 */
export function recordRevert(
  trace: TraceEntry[],
  size: bigint,
  evaluation: Extract<Evaluation, { kind: "reverted" }>,
): Extract<SearchResult, { kind: "market-settled" | "no-valid-size" }> | undefined {
  const revert = evaluation.errorName ?? evaluation.data;
  const revertArgs = evaluation.errorArgs;
  const hasArgs = revertArgs !== undefined && Object.keys(revertArgs).length > 0;
  trace.push(hasArgs ? { size, outcome: "reverted", revert, revertArgs } : { size, outcome: "reverted", revert });
  const name = evaluation.errorName;
  if (name !== undefined && SETTLED_REVERTS.includes(name)) return { kind: "market-settled", revertName: name, iterations: trace.length, trace };
  if (name !== undefined && UNUSABLE_MARKET_REVERTS.includes(name)) {
    return { kind: "no-valid-size", revertName: name, ...(revertArgs ? { revertArgs } : {}), iterations: trace.length, trace };
  }
  return undefined;
}

/**
 * Bisects [0, cap] for at most maxIterations candidates. Feasible and too-small candidates move the
 * low bound up; reverted, over-budget and beyond-expected ones move the high bound down. A throw from
 * the evaluator rejects the returned promise: it is never turned into an outcome.
 */
export async function runSearch(input: SearchInput, evaluate: Evaluator): Promise<SearchResult> {
  if (!Number.isSafeInteger(input.maxIterations) || input.maxIterations < 0) {
    throw new RangeError("runSearch: maxIterations must be a non-negative integer");
  }
  if (input.cap < 0n) throw new RangeError("runSearch: cap must not be negative");

  const trace: TraceEntry[] = [];
  let low = 0n;
  let high = input.cap;
  let best: { size: bigint; quote: CandidateQuote } | undefined;
  let reverted = false;
  let rejectedForPrice = false;

  for (let i = 0; i < input.maxIterations; i++) {
    if (high - low <= 1n) break;
    const mid = (low + high) / 2n;
    const size = input.direction === "LONG" ? mid : -mid;
    const evaluation = await evaluate(size, { low, high, iteration: i });

    if (evaluation.kind === "reverted") {
      const stopped = recordRevert(trace, size, evaluation);
      if (stopped !== undefined) return stopped;
      reverted = true;
      high = mid;
      continue;
    }

    const outcome = classifyQuote(input, evaluation.quote);
    trace.push({ size, outcome, quote: evaluation.quote });
    if (outcome === "feasible") {
      best = { size: mid, quote: evaluation.quote };
      low = mid;
    } else if (outcome === "short-of-limit") {
      rejectedForPrice = true;
      low = mid;
    } else {
      if (outcome === "beyond-expected") rejectedForPrice = true;
      high = mid;
    }
  }

  if (best !== undefined) return { kind: "found", size: best.size, quote: best.quote, iterations: trace.length, trace };
  if (reverted && !rejectedForPrice) return { kind: "insufficient-liquidity", iterations: trace.length, trace };
  return { kind: "no-valid-size", iterations: trace.length, trace };
}
