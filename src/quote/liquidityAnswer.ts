// Semantics §14: a new liquidity position's search mapped to its 200 body (fields in §14's order) or its error: the
// aligned range and its prices, the largest liquidity that fits with the tokens and collateral it takes, what its mint
// gets (v3's liquidity of those tokens), the group's own quote beside it, and the proof's candidates.
import { formatD18 } from "./fixedPoint.ts";
import type { LiquidityRequest } from "./liquidityRequest.ts";
import type { LiquidityOutcome, LiquidityRange, LiquiditySearchResult, LiquidityTraceEntry } from "./liquiditySearch.ts";
import { toTokenUnits, type AnswerBlock, type Checked } from "./quoteAnswer.ts";
import { insufficientCollateralForRange, liquidityNotMinted, marketSettled } from "./quoteErrors.ts";
import { liquidityForAmounts, priceAtTick } from "./tickMath.ts";

/** What the group's own quote gives for the budget, and whether its tokens mint with it. */
export type GroupQuoteJson = { liquidity: string; amountBaseToken: string; amountQuoteToken: string; fits: boolean };

export type LiquidityTraceJson = {
  liquidity: string;
  outcome: "fits" | "over-budget" | "reverted";
  amountBaseToken?: string;
  amountQuoteToken?: string;
  requiredCollateral?: string;
  revert?: string;
  revertArgs?: Record<string, string>;
};

export type LiquidityResponseBody = {
  lowerTick: number;
  upperTick: number;
  lowerPrice: string;
  upperPrice: string;
  currentPrice: string;
  liquidity: string;
  mintedLiquidity: string;
  amountBaseToken: string;
  amountQuoteToken: string;
  requiredCollateral: string;
  maxCollateral: string;
  collateralAvailable: string;
  /** Null where quoteLiquidityPositionTokens reverted. */
  groupQuote: GroupQuoteJson | null;
  candidates: number;
  exact: true;
  blockNumber: string;
  blockHash: `0x${string}`;
  collateralDecimals: number;
  trace?: LiquidityTraceJson[];
};

/** The market at the block as the answer shows it: its price, the pool's sqrt price, the group's quote. */
export type LiquidityMarketAt = {
  readonly currentPrice: bigint;
  readonly sqrtPrice: bigint;
  readonly range: LiquidityRange;
  readonly groupQuote: GroupQuoteJson | null;
  readonly collateralDecimals: number;
  readonly block: AnswerBlock;
};

/** Reverts that say the market takes no new liquidity at all (the real group's ExpiredMarket for settled and ended). */
const CLOSED = new Set(["ExpiredMarket", "MarketSettled", "EpochSettled", "ExpiredMarketNotSettled"]);

/** A revert as a trace names it: the decoded error with its arguments, else its data. */
export function revertText(outcome: Extract<LiquidityOutcome, { kind: "reverted" }>): string {
  if (outcome.errorName === undefined) return outcome.data;
  const args = Object.values(outcome.errorArgs ?? {});
  return `${outcome.errorName}(${args.join(", ")})`;
}

export function serializeLiquidityTrace(trace: readonly LiquidityTraceEntry[], budget: bigint): LiquidityTraceJson[] {
  return trace.map(({ liquidity, outcome }) => {
    if (outcome.kind === "reverted") {
      const json: LiquidityTraceJson = { liquidity: liquidity.toString(), outcome: "reverted", revert: outcome.errorName ?? outcome.data };
      if (outcome.errorArgs !== undefined) json.revertArgs = outcome.errorArgs;
      return json;
    }
    return {
      liquidity: liquidity.toString(),
      outcome: outcome.required <= budget ? "fits" : "over-budget",
      amountBaseToken: outcome.amount0.toString(),
      amountQuoteToken: outcome.amount1.toString(),
      requiredCollateral: outcome.required.toString(),
    };
  });
}

/** The 200 body, or the search's error. */
export function buildLiquidityAnswer(request: LiquidityRequest, at: LiquidityMarketAt, result: LiquiditySearchResult): Checked<LiquidityResponseBody> {
  if (result.kind === "reverted") {
    if (result.outcome.errorName !== undefined && CLOSED.has(result.outcome.errorName)) return { ok: false, error: marketSettled() };
    // Tokens too few for the pool to mint any liquidity: only a dust budget's search gets there without a fitting one.
    const fitted = result.trace.some(({ outcome }) => outcome.kind === "required" && outcome.required <= request.collateralAvailable);
    if (result.outcome.data === "0x" && !fitted) return { ok: false, error: insufficientCollateralForRange(0n, result.liquidity) };
    return { ok: false, error: liquidityNotMinted(result.liquidity, revertText(result.outcome)) };
  }
  if (result.kind === "insufficient") return { ok: false, error: insufficientCollateralForRange(result.least) };
  const { best } = result;
  const { range } = at;
  const body: LiquidityResponseBody = {
    lowerTick: range.lowerTick,
    upperTick: range.upperTick,
    lowerPrice: formatD18(priceAtTick(range.lowerTick)),
    upperPrice: formatD18(priceAtTick(range.upperTick)),
    currentPrice: formatD18(at.currentPrice),
    liquidity: best.liquidity.toString(),
    mintedLiquidity: liquidityForAmounts(at.sqrtPrice, range.sqrtLower, range.sqrtUpper, best.amount0, best.amount1).toString(),
    amountBaseToken: best.amount0.toString(),
    amountQuoteToken: best.amount1.toString(),
    requiredCollateral: best.required.toString(),
    maxCollateral: toTokenUnits(best.required, at.collateralDecimals).toString(),
    collateralAvailable: request.collateralAvailable.toString(),
    groupQuote: at.groupQuote,
    candidates: result.trace.length,
    exact: true,
    blockNumber: at.block.number.toString(),
    blockHash: at.block.hash,
    collateralDecimals: at.collateralDecimals,
  };
  if (request.trace) body.trace = serializeLiquidityTrace(result.trace, request.collateralAvailable);
  return { ok: true, value: body };
}
