// A batch's searches in as few eth_calls as fit the gas cap: the quotes that need a search at the head are run
// together by the first endpoint's batch searcher, and each then replays its own facts through the same decisions
// as any quote (going on alone where the batch stopped). A depth ladder spaced from the market's price is planned
// and searched together by the ladder searcher, the price read in the same call. Searching together only saves
// calls: when it fails, each quote searches alone, in the usual way, and fails or fails over there.
import type { ReadContext } from "../chain/rpc/call.ts";
import { ensureChainId } from "../chain/rpc/chainIdCheck.ts";
import { ChainUnavailableError } from "../chain/rpc/chainErrors.ts";
import type { ChainClient, ChainEndpoint } from "../chain/rpc/client.ts";
import { ChainOverloadedError } from "../chain/rpc/limiter.ts";
import { interpretReferencePrice } from "../chain/searchers/marketGroup.ts";
import type { Facts } from "../chain/searchers/searcher.ts";
import type { SpacedLadder } from "../quote/depthRequest.ts";
import type { QuoteRequest } from "../quote/request.ts";
import { isNewPositionRequest, type AnyQuoteRequest } from "../quote/positionRequest.ts";
import { quoteKey } from "./coalescer.ts";
import type { EndpointStrategy } from "./endpointStrategy.ts";

/** One quote's facts, searched with others at the head by `endpoint`. */
export type Presearched = { readonly endpoint: ChainEndpoint; readonly facts: Facts };

/** The facts of each distinct quote (by its key) that the batch searcher started; none for fewer than two quotes. */
export async function searchTogether(
  strategy: EndpointStrategy,
  chain: ChainClient,
  quotes: readonly { readonly key: string; readonly request: AnyQuoteRequest }[],
  context: ReadContext,
): Promise<ReadonlyMap<string, Presearched>> {
  // The quotes of one market one after the other: the searcher does not quote a size of a market twice in a call. A
  // held position's quote is searched alone, as its owner (the batch searcher quotes as itself).
  const newPositions = quotes.filter((quote): quote is { key: string; request: QuoteRequest } => isNewPositionRequest(quote.request));
  const byMarket = [...newPositions].sort((a, b) => marketOrder(a.request).localeCompare(marketOrder(b.request)));
  const distinct = new Map(byMarket.map(({ key, request }) => [key, request]));
  if (distinct.size < 2) return new Map();
  const none: ReadonlyMap<string, Presearched> = new Map();
  return atFirstEndpoint(chain, context, none, async (endpoint) => {
    const facts = await strategy.batchFacts(endpoint, [...distinct.values()], context);
    return new Map([...distinct.keys()].slice(0, facts.length).map((key, index) => [key, { endpoint, facts: facts[index]! }]));
  });
}

/** A spaced ladder searched together: the market's price at the head, and the facts of its levels by key. */
export interface LadderPresearched {
  readonly price: bigint | undefined;
  readonly searched: ReadonlyMap<string, Presearched>;
}

/** The ladder's price and the facts of the levels planned from it, in one call where the first endpoint runs the ladder searcher; else undefined. */
export async function searchLadder(strategy: EndpointStrategy, chain: ChainClient, ladder: SpacedLadder, context: ReadContext): Promise<LadderPresearched | undefined> {
  return atFirstEndpoint(chain, context, undefined, async (endpoint) => {
    const ladderSearched = await strategy.ladderFacts(endpoint, ladder, context);
    if (ladderSearched === undefined) return undefined;
    const { price, requests, facts } = ladderSearched;
    return {
      price: interpretReferencePrice(price),
      searched: new Map(facts.map((levelFacts, i) => [quoteKey(requests[i]!), { endpoint, facts: levelFacts }])),
    };
  });
}

/** `run` at the chain's first endpoint, its chain id checked; `none` when it is unavailable or overloaded. */
async function atFirstEndpoint<T>(chain: ChainClient, context: ReadContext, none: T, run: (endpoint: ChainEndpoint) => Promise<T>): Promise<T> {
  const endpoint = chain.endpoints[0];
  if (endpoint === undefined) return none;
  try {
    await ensureChainId(endpoint, context.signal);
    return await run(endpoint);
  } catch (error) {
    if (error instanceof ChainUnavailableError || error instanceof ChainOverloadedError) return none;
    throw error;
  }
}

const marketOrder = (request: QuoteRequest) => `${request.marketAddress}/${request.marketId}`;
