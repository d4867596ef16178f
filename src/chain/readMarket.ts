import type { Address } from "viem";
import { callPinned } from "./call.ts";
import type { ChainClient } from "./client.ts";
import { marketGroupAbi } from "./marketGroup.ts";

export type MarketCheck =
  | { kind: "found"; settled: boolean }
  | { kind: "missing"; reason: string };

/**
 * Semantics §3.5: no code at the address, `getMarket` reverting (or undecodable), a `marketId` field other
 * than the one asked for, or a zero `startTime` (never created) mean the market does not exist.
 */
export async function readMarket(chain: ChainClient, address: Address, marketId: bigint, blockNumber: bigint): Promise<MarketCheck> {
  const result = await callPinned(chain, { abi: marketGroupAbi, address, functionName: "getMarket", args: [marketId], blockNumber });
  if (result.kind === "reverted") {
    return { kind: "missing", reason: result.data === "0x" ? "no market group at this address" : `getMarket reverted${result.errorName ? ` with ${result.errorName}()` : ""}` };
  }
  const [market] = result.value;
  if (market.marketId !== marketId) return { kind: "missing", reason: "getMarket answered for another market id" };
  if (market.startTime === 0n) return { kind: "missing", reason: "the market was never created" };
  return { kind: "found", settled: market.settled };
}
