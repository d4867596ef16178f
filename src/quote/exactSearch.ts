// The exact search of semantics §4b, written once over an evaluator of candidate sizes: the largest feasible
// size above DUST, proven by quoting it and the next wei. Feasible sizes form one interval (short of priceLimit
// below it, too large above it), so the search keeps the largest size quoted below the top of the interval
// (`low`: short of the limit or feasible) and the smallest quoted above it (`high`), and chooses each next size
// by interpolation, safeguarded so that it never stalls on one side. Integer arithmetic only, each rounding as
// the rule states it, so that the same rule can run on chain and pick the same candidates.
import { ExactSearchRule } from "./exactRule.ts";
import { START, type ExactRuleInput, type ExactState } from "./exactState.ts";
import {
  classifyQuote,
  recordRevert as recordRevertedCandidate,
  type CandidateQuote,
  type Direction,
  type Evaluation,
  type SearchResult,
  type TraceEntry,
} from "./search.ts";

export const DEFAULT_EXACT_MAX_CANDIDATES = 32;

export type ExactSearchInput = ExactRuleInput & {
  priceLimit: bigint;
  /** The most candidates quoted (EXACT_MAX_CANDIDATES). */
  maxCandidates: number;
};

/** The exact search's result: the bisection's kinds, a found size carrying whether it is proven. */
export type ExactSearchResult =
  | (Extract<SearchResult, { kind: "found" }> & { exact: boolean; upperBound?: bigint })
  | Extract<SearchResult, { kind: "market-settled" }>
  | (Extract<SearchResult, { kind: "no-valid-size" | "insufficient-liquidity" }> & {
      /** Whether the quotes prove that no size fits (else the bound of candidates was reached first). */
      proven?: boolean;
    });

/** Quotes one signed size, the candidate of `state`; a throw is a transport failure and ends the search. */
export type ExactEvaluator = (signedSize: bigint, state: ExactState) => Evaluation | Promise<Evaluation>;

/** Reads the price edge at the search's block (none where the market has none to read), when the rule asks for it. */
export type EdgeReader = (state: ExactState) => bigint | undefined | Promise<bigint | undefined>;

/**
 * The D18 price where a `PoolPriceOutOfRange(poolPrice, minPrice, maxPrice)` revert says the market's range ends
 * in the trade's direction (its bounds are sqrt prices X96), by the rule's rangeEndOf (as ExactSearch.sol's _rangeEnd).
 */
function rangeEnd(direction: Direction, evaluation: Extract<Evaluation, { kind: "reverted" }>): bigint | undefined {
  if (evaluation.errorName !== "PoolPriceOutOfRange") return undefined;
  const bound = evaluation.errorArgs?.[direction === "LONG" ? "maxPrice" : "minPrice"];
  if (bound === undefined || !/^\d{1,49}$/.test(bound)) return undefined;
  return ExactSearchRule.rangeEndOf(BigInt(bound));
}

/** Semantics §4b: the largest feasible size over DUST .. 2^255-1, proven at the pinned block when it can be. */
export async function runExactSearch(input: ExactSearchInput, evaluate: ExactEvaluator, readEdge: EdgeReader = () => undefined): Promise<ExactSearchResult> {
  const trace: TraceEntry[] = [];
  const rule = ExactSearchRule.prepare(input);
  let state = START;
  let best: { size: bigint; quote: CandidateQuote } | undefined;
  let reverted = false;
  let rejectedForPrice = false;

  while (trace.length < input.maxCandidates && !ExactSearchRule.closed(state)) {
    const next = ExactSearchRule.next(rule, state);
    if (next.kind === "edge") {
      state = ExactSearchRule.recordEdge(state, await readEdge(state));
      continue;
    }
    const { size: unsigned, guided } = next;
    const size = input.direction === "LONG" ? unsigned : -unsigned;
    const evaluation = await evaluate(size, state);
    if (evaluation.kind === "reverted") {
      const stopped = recordRevertedCandidate(trace, size, evaluation);
      if (stopped !== undefined) return stopped;
      reverted = true;
      state = ExactSearchRule.recordRevert(state, guided, unsigned, rangeEnd(input.direction, evaluation));
      continue;
    }
    const outcome = classifyQuote(input, evaluation.quote);
    trace.push({ size, outcome, quote: evaluation.quote });
    if (outcome === "feasible" || outcome === "short-of-limit") {
      if (outcome === "feasible" && (best === undefined || unsigned > best.size)) best = { size: unsigned, quote: evaluation.quote };
      if (outcome === "short-of-limit") rejectedForPrice = true;
      state = ExactSearchRule.recordBelow(state, guided, unsigned, evaluation.quote);
    } else {
      if (outcome === "beyond-expected") rejectedForPrice = true;
      state = ExactSearchRule.recordAbove(state, guided, unsigned, evaluation.quote);
    }
  }

  const { low, high } = state;
  const record = { iterations: trace.length, trace };
  if (best !== undefined) {
    const proven = ExactSearchRule.closed(state) && low !== undefined && low.size === best.size;
    const upperBound = high === undefined ? undefined : input.direction === "LONG" ? high.size : -high.size;
    return {
      kind: "found",
      size: best.size,
      quote: best.quote,
      ...record,
      exact: proven,
      ...(proven || upperBound === undefined ? {} : { upperBound }),
    };
  }
  const proven = ExactSearchRule.closed(state);
  if (reverted && !rejectedForPrice) return { kind: "insufficient-liquidity", ...record, proven };
  return { kind: "no-valid-size", ...record, proven };
}
