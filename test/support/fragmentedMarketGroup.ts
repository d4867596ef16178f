// A market group whose quotes cost millions of gas, like a real one over fragmented liquidity, in front of the
// demo market group (contracts/test/FragmentedMarketGroup.sol): the same markets, prices and answers.
import type { Address } from "viem";
import { fragmentedMarketGroupAbi, fragmentedMarketGroupBytecode } from "../../src/generated/contracts.ts";
import type { EmbeddedChain } from "../../src/devchain/chain.ts";
import { minedReceipt } from "./receipts.ts";

export interface Fragmentation {
  /** Size (wei) that crosses one more tick; each tick costs about 2,200 gas. */
  readonly sizePerTick: bigint;
  readonly baseTicks: bigint;
  readonly maxTicks: bigint;
}

/** Gas of one tick crossed: a cold storage read and the loop around it. */
export const GAS_PER_TICK = 2_200n;

export async function deployFragmentedMarketGroup(chain: EmbeddedChain, inner: Address, fragmentation: Fragmentation): Promise<Address> {
  const { walletClient, publicClient } = chain;
  const receipt = await minedReceipt(
    publicClient,
    await walletClient.deployContract({
      abi: fragmentedMarketGroupAbi,
      bytecode: fragmentedMarketGroupBytecode,
      args: [inner, fragmentation.sizePerTick, fragmentation.baseTicks, fragmentation.maxTicks],
    }),
  );
  if (receipt.status !== "success" || !receipt.contractAddress) throw new Error("the fragmented market group did not deploy");
  return receipt.contractAddress;
}

/** Ticks a quote of `size` crosses, as the contract counts them. */
export function ticksCrossed(fragmentation: Fragmentation, size: bigint): bigint {
  const ticks = fragmentation.baseTicks + (size < 0n ? -size : size) / fragmentation.sizePerTick;
  return ticks < fragmentation.maxTicks ? ticks : fragmentation.maxTicks;
}
