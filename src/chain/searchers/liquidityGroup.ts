// The market group calls of a new liquidity position's quote (semantics §14): how each is encoded, and how its raw
// answer reads. Both strategies go through these pure functions, and contracts/LiquiditySearcher.sol reads the same
// words by the same rules: the market's bound ticks, the pool's sqrt price and tick spacing, the group's quote, and a
// candidate's tokens and the requirement its mint names (InsufficientCollateral's first argument; 0 for a mint that
// needed none).
import { decodeAbiParameters, encodeFunctionData, getAbiItem, maxUint256, parseAbi, type Hex } from "viem";
import type { LiquidityOutcome, LiquidityRange, RangeBounds } from "../../quote/liquiditySearch.ts";
import { MAX_TICK } from "../../quote/tickMath.ts";
import type { RawCall } from "../rpc/call.ts";
import { decodeRevert, decodeSuccess, marketGroupAbi } from "./marketGroup.ts";

const poolAbi = parseAbi(["function tickSpacing() view returns (int24)"]);
const getMarketOutputs = getAbiItem({ abi: marketGroupAbi, name: "getMarket" }).outputs;
const groupQuoteOutputs = getAbiItem({ abi: marketGroupAbi, name: "quoteLiquidityPositionTokens" }).outputs;
const tokensOutputs = getAbiItem({ abi: marketGroupAbi, name: "getTokensFromLiquidity" }).outputs;
const sqrtOutputs = getAbiItem({ abi: marketGroupAbi, name: "getSqrtPriceX96" }).outputs;
const spacingOutputs = getAbiItem({ abi: poolAbi, name: "tickSpacing" }).outputs;

/** Any account may simulate a mint (the group takes no collateral before its check): one without code takes the token. */
export const LIQUIDITY_QUOTE_SENDER = "0x000000000000000000000000000000000000dEaD";

export const encodeGetSqrtPrice = (marketId: bigint): Hex => encodeFunctionData({ abi: marketGroupAbi, functionName: "getSqrtPriceX96", args: [marketId] });
export const encodeTickSpacing = (): Hex => encodeFunctionData({ abi: poolAbi, functionName: "tickSpacing" });

/** The range's prices a mint takes: the pool's sqrt price and the range's. */
export type MintPrices = { readonly marketId: bigint; readonly sqrtPrice: bigint; readonly range: LiquidityRange };

export const encodeGroupQuote = (at: MintPrices, budget: bigint): Hex =>
  encodeFunctionData({
    abi: marketGroupAbi,
    functionName: "quoteLiquidityPositionTokens",
    args: [at.marketId, budget, at.sqrtPrice, at.range.sqrtLower, at.range.sqrtUpper],
  });

export const encodeTokensOf = (at: MintPrices, liquidity: bigint): Hex =>
  encodeFunctionData({ abi: marketGroupAbi, functionName: "getTokensFromLiquidity", args: [liquidity, at.sqrtPrice, at.range.sqrtLower, at.range.sqrtUpper] });

/** createLiquidityPosition of the tokens in the range with no collateral, no minimums and no deadline. */
export function encodeQuoteMint(at: MintPrices, amount0: bigint, amount1: bigint): Hex {
  const params = {
    marketId: at.marketId,
    amountBaseToken: amount0,
    amountQuoteToken: amount1,
    collateralAmount: 0n,
    lowerTick: at.range.lowerTick,
    upperTick: at.range.upperTick,
    minAmountBaseToken: 0n,
    minAmountQuoteToken: 0n,
    deadline: maxUint256,
  };
  return encodeFunctionData({ abi: marketGroupAbi, functionName: "createLiquidityPosition", args: [params] });
}

/** The market's bound ticks and its pool's spacing; none when the answers are not a v3 market's. */
export function interpretBounds(market: RawCall, spacing: RawCall): RangeBounds | undefined {
  const ticks = decodeSuccess(market, (data) => decodeAbiParameters(getMarketOutputs, data)[0]);
  const step = decodeSuccess(spacing, (data) => decodeAbiParameters(spacingOutputs, data)[0]);
  if (ticks === undefined || step === undefined || step <= 0 || step > MAX_TICK) return undefined;
  return { minTick: ticks.baseAssetMinPriceTick, maxTick: ticks.baseAssetMaxPriceTick, spacing: step };
}

/** The pool's sqrt price as the group gives it; none when it reverted or is 0. */
export function interpretSqrtPrice(raw: RawCall): bigint | undefined {
  const sqrt = decodeSuccess(raw, (data) => decodeAbiParameters(sqrtOutputs, data)[0]);
  return sqrt === 0n ? undefined : sqrt;
}

/** The group's own quote: its tokens and liquidity; none when it reverted. */
export function interpretGroupQuote(raw: RawCall): { amount0: bigint; amount1: bigint; liquidity: bigint } | undefined {
  const quote = decodeSuccess(raw, (data) => decodeAbiParameters(groupQuoteOutputs, data));
  return quote === undefined ? undefined : { amount0: quote[0], amount1: quote[1], liquidity: quote[2] };
}

/** The tokens of a liquidity, as getTokensFromLiquidity answered; none when it reverted. */
export function interpretTokens(raw: RawCall): { amount0: bigint; amount1: bigint } | undefined {
  const tokens = decodeSuccess(raw, (data) => decodeAbiParameters(tokensOutputs, data));
  return tokens === undefined ? undefined : { amount0: tokens[0], amount1: tokens[1] };
}

/** The requirement a mint with no collateral names: InsufficientCollateral's first argument, 0 when it minted. */
export function interpretMintRequirement(raw: RawCall): bigint | Extract<LiquidityOutcome, { kind: "reverted" }> {
  if (raw.success) return 0n;
  const error = decodeRevert(raw.data);
  if (error?.name === "InsufficientCollateral" && error.args.amountRequired !== undefined) return BigInt(error.args.amountRequired);
  return error === undefined ? { kind: "reverted", data: raw.data } : { kind: "reverted", data: raw.data, errorName: error.name, errorArgs: error.args };
}

/** A candidate's outcome from its tokens' read and its mint's simulation (none: the read failed, no mint was run). */
export function interpretCandidate(tokensRaw: RawCall, mintRaw: RawCall | undefined): LiquidityOutcome {
  const tokens = interpretTokens(tokensRaw);
  if (tokens === undefined || mintRaw === undefined) {
    const error = tokensRaw.success ? undefined : decodeRevert(tokensRaw.data);
    return error === undefined ? { kind: "reverted", data: tokensRaw.data } : { kind: "reverted", data: tokensRaw.data, errorName: error.name, errorArgs: error.args };
  }
  const required = interpretMintRequirement(mintRaw);
  return typeof required === "bigint" ? { kind: "required", ...tokens, required } : required;
}
