// The sequential strategy: one eth_call per read and per candidate, each pinned to the quote's block by its hash.
import type { Address, Hex } from "viem";
import { ethCall, type ReadContext } from "../rpc/call.ts";
import type { ChainEndpoint } from "../rpc/client.ts";
import { encodeDecimals, encodeGetMarket, encodeGetMarketGroup, encodeGetReferencePrice, encodePoolLiquidity, encodeQuote } from "./marketGroup.ts";
import type { MarketReader } from "./marketReader.ts";

/** Once the context's signal aborts (the quote's deadline passed), no further call is made. */
export async function sequentialReader(endpoint: ChainEndpoint, market: MarketAt, context: ReadContext): Promise<MarketReader> {
  return marketCalls(endpoint, market, context);
}

type MarketAt = { readonly marketAddress: Address; readonly marketId: bigint };

/** The reads of `market` at the context's block, each an eth_call when asked (a held position's too). */
export function marketCalls(endpoint: ChainEndpoint, market: MarketAt, context: ReadContext): MarketReader {
  const { marketAddress, marketId } = market;
  const call = (data: Hex, to: Hex = marketAddress) => {
    context.signal?.throwIfAborted();
    return ethCall(endpoint, { to, data, ...context });
  };
  return {
    block: context.block,
    market: () => call(encodeGetMarket(marketId)),
    referencePrice: () => call(encodeGetReferencePrice(marketId)),
    collateralGroup: () => call(encodeGetMarketGroup()),
    collateralDecimals: (asset) => call(encodeDecimals(), asset),
    poolLiquidity: (pool) => call(encodePoolLiquidity(), pool),
    edge: ({ edgeCall }) => call(edgeCall.data, edgeCall.to),
    quote: (signedSize) => call(encodeQuote(marketId, signedSize)),
  };
}
