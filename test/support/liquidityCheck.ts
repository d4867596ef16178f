// The test's own check of a liquidity answer (semantics §14), never through the service: at the answer's block, its
// own viem client reads the pool's sqrt price, computes the tokens of a liquidity with test/contracts/liquidityModel.ts
// and simulates createLiquidityPosition of them with no collateral, which must revert InsufficientCollateral naming
// the requirement.
import { decodeErrorResult, maxUint256, type Address, type Hex } from "viem";
import type { EmbeddedChain } from "../../src/devchain/chain.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { revertData } from "../contracts/marketGroupHarness.ts";
import { liquidityOf, poolSqrtAtTick, tokensOf } from "../contracts/liquidityModel.ts";

/** Where a liquidity is checked: the group, the market, the range, the block. */
export type LiquidityAt = { readonly group: Address; readonly marketId: bigint; readonly lowerTick: number; readonly upperTick: number; readonly blockHash: Hex };

const SENDER = "0x00000000000000000000000000000000000000f1" as const;

/** The pool's sqrt price and the range's, at the block. */
export async function pricesAt(chain: EmbeddedChain, at: LiquidityAt) {
  const sqrtPrice = await chain.publicClient.readContract({ address: at.group, abi: marketGroupAbi, functionName: "getSqrtPriceX96", args: [at.marketId], blockHash: at.blockHash } as never);
  return { sqrtPrice: sqrtPrice as bigint, a: poolSqrtAtTick(at.lowerTick), b: poolSqrtAtTick(at.upperTick) };
}

/** The requirement the group names for a mint of these tokens with no collateral (undefined: another revert, or a mint). */
export async function requirementOfTokens(chain: EmbeddedChain, at: LiquidityAt, amount0: bigint, amount1: bigint): Promise<bigint | undefined> {
  const params = { marketId: at.marketId, amountBaseToken: amount0, amountQuoteToken: amount1, collateralAmount: 0n, lowerTick: at.lowerTick, upperTick: at.upperTick, minAmountBaseToken: 0n, minAmountQuoteToken: 0n, deadline: maxUint256 };
  const data = await revertData(
    chain.publicClient.simulateContract({ address: at.group, abi: marketGroupAbi, functionName: "createLiquidityPosition", args: [params], account: SENDER, blockHash: at.blockHash } as never),
  );
  if (data === "0x") return undefined;
  const decoded = decodeErrorResult({ abi: marketGroupAbi, data });
  if (decoded.errorName !== "InsufficientCollateral") return undefined;
  const [required, provided] = decoded.args as readonly [bigint, bigint];
  if (provided !== 0n) throw new Error(`InsufficientCollateral names ${provided} provided, not 0`);
  return required;
}

/** L's tokens by the test's arithmetic, and the requirement their mint names. */
export async function requirementOfLiquidity(chain: EmbeddedChain, at: LiquidityAt, liquidity: bigint) {
  const { sqrtPrice, a, b } = await pricesAt(chain, at);
  const [amount0, amount1] = tokensOf(sqrtPrice, a, b, liquidity);
  return { amount0, amount1, required: await requirementOfTokens(chain, at, amount0, amount1), minted: liquidityOf(sqrtPrice, a, b, amount0, amount1) };
}
