// Semantics §13: a held position's search mapped to its 200 body or its error. The body has §5's fields that mean the
// same, and in place of requiredCollateral and maxCollateral the position's: its id, owner, market, sizes, the signed
// collateral delta and close PnL of the trade, and the delta's limit in token units.
import type { Address } from "viem";
import type { ExactSearchResult } from "./exactSearch.ts";
import type { PositionRequest } from "./positionRequest.ts";
import { unshiftedTrace, type HeldPosition, type HeldQuote, type ModifyQuote } from "./positionSearch.ts";
import { buildAnswer, serializeTrace, toTokenUnits, type AnswerBlock, type Checked, type QuoteResponseBody, type TraceEntryJson } from "./quoteAnswer.ts";
import type { CandidateQuote, Direction, SearchResult, TraceEntry } from "./search.ts";

/** A trace entry of §7 with the modification's signed delta and close PnL in place of requiredCollateral. */
export type PositionTraceEntryJson = Omit<TraceEntryJson, "requiredCollateral"> & { collateralDelta?: string; closePnL?: string };

/** §5's answer with the position's fields in place of requiredCollateral and maxCollateral (their order is §13's). */
export type PositionResponseBody = Omit<QuoteResponseBody, "requiredCollateral" | "maxCollateral" | "trace"> & {
  positionId: string;
  /** Who holds it at the block: the only account that can modify it. */
  owner: Address;
  marketId: string;
  currentSize: string;
  /** currentSize + maxSize (the trade, signed like a new position's): what modifyTraderPosition takes. */
  targetSize: string;
  /** 18-decimal units, positive when the trader deposits, negative when collateral comes back. */
  collateralDelta: string;
  closePnL: string;
  /** collateralDelta in token units, rounded towards +infinity: the tightest limit of the modify that passes. */
  collateralDeltaLimit: string;
  trace?: PositionTraceEntryJson[];
};

/** §7 for a position: each candidate's trade, its signed delta and close PnL, its prices or its revert. */
export function serializePositionTrace(trace: readonly TraceEntry[]): PositionTraceEntryJson[] {
  const modifyCollateral = (quote: CandidateQuote) => {
    const { collateralDelta, closePnL } = quote as CandidateQuote & ModifyQuote;
    return { collateralDelta: collateralDelta.toString(), closePnL: closePnL.toString() };
  };
  return serializeTrace(trace, modifyCollateral) as PositionTraceEntryJson[];
}

/** The held position's answer (or its error, worded as a new position's, in the position's own numbers). */
export function buildPositionAnswer(
  request: PositionRequest,
  held: HeldPosition & { readonly owner: Address },
  currentPrice: bigint,
  block: AnswerBlock,
  direction: Direction,
  result: SearchResult | ExactSearchResult,
  collateralDecimals: number,
): Checked<PositionResponseBody> {
  const best = result.kind === "found" ? (result.quote as HeldQuote).modify : undefined;
  const unshifted = { ...result, trace: unshiftedTrace(result.trace) } as SearchResult | ExactSearchResult;
  const built = buildAnswer({ ...request, marketId: held.marketId }, currentPrice, block, direction, unshifted, collateralDecimals, serializePositionTrace);
  if (!built.ok || best === undefined) return built as Checked<never>;
  const { requiredCollateral: _required, maxCollateral: _max, fillPrice, priceAfter, limitedBy, blockNumber, blockHash, iterations, collateralDecimals: _decimals, exact, upperBound, trace, ...front } = built.value;
  const trade = BigInt(front.maxSize);
  const body: PositionResponseBody = {
    ...front,
    positionId: request.positionId.toString(),
    owner: held.owner,
    marketId: held.marketId.toString(),
    currentSize: held.current.toString(),
    targetSize: (held.current + trade).toString(),
    collateralDelta: best.collateralDelta.toString(),
    closePnL: best.closePnL.toString(),
    collateralDeltaLimit: toTokenUnits(best.collateralDelta, collateralDecimals).toString(),
    fillPrice,
    priceAfter,
    limitedBy,
    blockNumber,
    blockHash,
    iterations,
    collateralDecimals,
  };
  if (exact !== undefined) body.exact = exact;
  if (upperBound !== undefined) body.upperBound = upperBound;
  if (trace !== undefined) body.trace = trace as unknown as PositionTraceEntryJson[];
  return { ok: true, value: body };
}
