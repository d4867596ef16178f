import type { Address } from "viem";
import { callPinned } from "./call.ts";
import type { ChainClient } from "./client.ts";
import { marketGroupAbi } from "./marketGroup.ts";

/** Semantics §3.6: the current D18 reference price, or undefined when `getReferencePrice` reverts or returns 0. */
export async function readReferencePrice(chain: ChainClient, address: Address, marketId: bigint, blockNumber: bigint): Promise<bigint | undefined> {
  const result = await callPinned(chain, { abi: marketGroupAbi, address, functionName: "getReferencePrice", args: [marketId], blockNumber });
  if (result.kind === "reverted" || result.value === 0n) return undefined;
  return result.value;
}
