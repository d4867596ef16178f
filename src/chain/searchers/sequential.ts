// The sequential strategy: one eth_call per read and per candidate, each pinned to the quote's block by its hash.
import type { Address } from "viem";
import { ethCall, type ReadContext } from "../rpc/call.ts";
import type { ChainEndpoint } from "../rpc/client.ts";
import { encodeDecimals, encodeGetMarket, encodeGetMarketGroup, encodeGetReferencePrice, encodePoolLiquidity, encodeQuote } from "./marketGroup.ts";
import type { MarketReader } from "./marketReader.ts";

/** Once the context's signal aborts (the quote's deadline passed), no further call is made. */
export async function sequentialReader(
  endpoint: ChainEndpoint,
  market: { readonly marketAddress: Address; readonly marketId: bigint },
  context: ReadContext,
): Promise<MarketReader> {
  const { marketAddress, marketId } = market;
  const { block, signal } = context;
  const call = (data: `0x${string}`, to: `0x${string}` = marketAddress) => {
    signal?.throwIfAborted();
    return ethCall(endpoint, { to, data, ...context });
  };
  return {
    block,
    market: () => call(encodeGetMarket(marketId)),
    referencePrice: () => call(encodeGetReferencePrice(marketId)),
    collateralGroup: () => call(encodeGetMarketGroup()),
    collateralDecimals: (asset) => call(encodeDecimals(), asset),
    poolLiquidity: (pool) => call(encodePoolLiquidity(), pool),
    edge: ({ edgeCall }) => call(edgeCall.data, edgeCall.to),
    quote: (signedSize) => call(encodeQuote(marketId, signedSize)),
  };
}
