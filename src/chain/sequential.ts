// The sequential strategy: one eth_call per read and per candidate, each pinned to the latest block.
import type { Address } from "viem";
import { ethCall, latestBlockNumber } from "./call.ts";
import type { ChainEndpoint } from "./client.ts";
import { encodeDecimals, encodeGetMarket, encodeGetMarketGroup, encodeGetReferencePrice, encodeQuote } from "./marketGroup.ts";
import type { MarketReader } from "./marketReader.ts";

/** `signal`: once aborted (the quote's deadline passed), no further call is made. */
export async function sequentialReader(
  endpoint: ChainEndpoint,
  address: Address,
  marketId: bigint,
  signal?: AbortSignal,
  block?: bigint,
): Promise<MarketReader> {
  // Pinned to `block` when the service knows the chain's head; else to the latest block, read first.
  const blockNumber = block ?? (await latestBlockNumber(endpoint));
  const call = (data: `0x${string}`, to: `0x${string}` = address) => {
    signal?.throwIfAborted();
    return ethCall(endpoint, { to, data, block: blockNumber });
  };
  return {
    blockNumber,
    market: () => call(encodeGetMarket(marketId)),
    referencePrice: () => call(encodeGetReferencePrice(marketId)),
    collateralGroup: () => call(encodeGetMarketGroup()),
    collateralDecimals: (asset) => call(encodeDecimals(), asset),
    quote: (signedSize) => call(encodeQuote(marketId, signedSize)),
  };
}
