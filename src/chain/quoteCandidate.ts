import type { Address } from "viem";
import type { Evaluation } from "../quote/search.ts";
import { callPinned } from "./call.ts";
import type { ChainClient } from "./client.ts";
import { marketGroupAbi } from "./marketGroup.ts";

/** Simulates `quoteCreateTraderPosition(marketId, signedSize)` at the pinned block: one `eth_call`. */
export async function quoteCandidate(
  chain: ChainClient,
  address: Address,
  marketId: bigint,
  signedSize: bigint,
  blockNumber: bigint,
): Promise<Evaluation> {
  const result = await callPinned(chain, {
    abi: marketGroupAbi,
    address,
    functionName: "quoteCreateTraderPosition",
    args: [marketId, signedSize],
    blockNumber,
  });
  if (result.kind === "reverted") return { kind: "reverted", data: result.data, errorName: result.errorName };
  const [requiredCollateral, fillPrice, priceAfter] = result.value;
  return { kind: "quoted", quote: { requiredCollateral, fillPrice, priceAfter } };
}
