// A batch's searches in as few eth_calls as fit the gas cap: the quotes that need a search at the head are run
// together by the first endpoint's batch searcher, and each then replays its own facts through the same decisions
// as any quote (going on alone where the batch stopped). Searching together only saves calls: when it fails, each
// quote searches alone, in the usual way, and fails or fails over there.
import type { ReadContext } from "../chain/call.ts";
import { ensureChainId } from "../chain/blocks.ts";
import { ChainUnavailableError } from "../chain/chainErrors.ts";
import type { ChainClient, ChainEndpoint } from "../chain/client.ts";
import { ChainOverloadedError } from "../chain/limiter.ts";
import type { Facts } from "../chain/searcher.ts";
import type { QuoteRequest } from "../quote/request.ts";
import type { EndpointStrategy } from "./endpointStrategy.ts";

/** One quote's facts, searched with others at the head by `endpoint`. */
export type Presearched = { readonly endpoint: ChainEndpoint; readonly facts: Facts };

/** The facts of each distinct quote (by its key) that the batch searcher started; none for fewer than two quotes. */
export async function searchTogether(
  strategy: EndpointStrategy,
  chain: ChainClient,
  quotes: readonly { readonly key: string; readonly request: QuoteRequest }[],
  context: ReadContext,
): Promise<ReadonlyMap<string, Presearched>> {
  // The quotes of one market one after the other: the searcher does not quote a size of a market twice in a call.
  const byMarket = [...quotes].sort((a, b) => marketOrder(a.request).localeCompare(marketOrder(b.request)));
  const distinct = new Map(byMarket.map(({ key, request }) => [key, request]));
  const endpoint = chain.endpoints[0];
  if (distinct.size < 2 || endpoint === undefined) return new Map();
  try {
    await ensureChainId(endpoint, context.signal);
    const facts = await strategy.batchFacts(endpoint, [...distinct.values()], context);
    return new Map([...distinct.keys()].slice(0, facts.length).map((key, index) => [key, { endpoint, facts: facts[index]! }]));
  } catch (error) {
    if (error instanceof ChainUnavailableError || error instanceof ChainOverloadedError) return new Map();
    throw error;
  }
}

const marketOrder = (request: QuoteRequest) => `${request.marketAddress}/${request.marketId}`;
