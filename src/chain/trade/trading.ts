// The calls of a trade (semantics §9, §12, §13): the market group's createTraderPosition and modifyTraderPosition, and the collateral token's
// ERC-20 allowance, balanceOf and approve. How each is encoded, and how a read's raw answer reads.
import { decodeAbiParameters, encodeFunctionData, parseAbi, type Address, type Hex } from "viem";
import type { RawCall } from "../rpc/call.ts";
import { bytesOf } from "../rpc/decode.ts";

/** Signatures exact (semantics §9): the selector of createTraderPosition((uint256,int256,uint256,uint256)). */
export const tradingAbi = parseAbi([
  "function createTraderPosition((uint256 marketId, int256 size, uint256 maxCollateral, uint256 deadline) params) returns (uint256 positionId)",
  "function modifyTraderPosition((uint256 positionId, int256 size, int256 deltaCollateralLimit, uint256 deadline) params)",
  "function createLiquidityPosition((uint256 marketId, uint256 amountBaseToken, uint256 amountQuoteToken, uint256 collateralAmount, int24 lowerTick, int24 upperTick, uint256 minAmountBaseToken, uint256 minAmountQuoteToken, uint256 deadline) params)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function balanceOf(address account) view returns (uint256)",
  "function approve(address spender, uint256 value) returns (bool)",
]);

/** What a new position takes: the market, its signed size, the collateral limit in token units, the deadline. */
export type TraderPosition = { readonly marketId: bigint; readonly size: bigint; readonly maxCollateral: bigint; readonly deadline: bigint };

export const encodeCreateTraderPosition = (position: TraderPosition): Hex =>
  encodeFunctionData({ abi: tradingAbi, functionName: "createTraderPosition", args: [position] });

/** What a held position's modification takes (semantics §13): its new size, the signed limit in token units, the deadline. */
export type PositionModification = { readonly positionId: bigint; readonly size: bigint; readonly deltaCollateralLimit: bigint; readonly deadline: bigint };

export const encodeModifyTraderPosition = (modification: PositionModification): Hex =>
  encodeFunctionData({ abi: tradingAbi, functionName: "modifyTraderPosition", args: [modification] });

/** What a new liquidity position takes (semantics §14): its tokens, collateral in token units, range, minimums, deadline. */
export type LiquidityMint = {
  readonly marketId: bigint;
  readonly amountBaseToken: bigint;
  readonly amountQuoteToken: bigint;
  readonly collateralAmount: bigint;
  readonly lowerTick: number;
  readonly upperTick: number;
  readonly minAmountBaseToken: bigint;
  readonly minAmountQuoteToken: bigint;
  readonly deadline: bigint;
};

export const encodeCreateLiquidityPosition = (mint: LiquidityMint): Hex =>
  encodeFunctionData({ abi: tradingAbi, functionName: "createLiquidityPosition", args: [mint] });

export const encodeAllowance = (owner: Address, spender: Address): Hex => encodeFunctionData({ abi: tradingAbi, functionName: "allowance", args: [owner, spender] });

export const encodeBalanceOf = (account: Address): Hex => encodeFunctionData({ abi: tradingAbi, functionName: "balanceOf", args: [account] });

export const encodeApprove = (spender: Address, value: bigint): Hex => encodeFunctionData({ abi: tradingAbi, functionName: "approve", args: [spender, value] });

const UINT256 = [{ type: "uint256" }] as const;

/** An ERC-20 read's uint256 (allowance, balanceOf); undefined when it reverted or answered something else. */
export function interpretAmount(raw: RawCall): bigint | undefined {
  if (!raw.success || raw.data.length < 2 + 64) return undefined;
  try {
    return decodeAbiParameters(UINT256, bytesOf(raw.data))[0];
  } catch {
    return undefined;
  }
}
