// One quote, in the order of semantics §3: checks that need only the request, then the chain reads (all at
// one block, through a MarketReader of either strategy), then the search. Transport failures become 503,
// never an outcome.
import type { ChainRegistry } from "../chain/client.ts";
import { ChainUnavailableError } from "../chain/errors.ts";
import { interpretMarket, interpretQuote, interpretReferencePrice } from "../chain/marketGroup.ts";
import type { MarketReader } from "../chain/marketReader.ts";
import { sequentialReader } from "../chain/sequential.ts";
import { buildAnswer, checkExpectedPrice, planSearch, type QuoteResponseBody } from "../quote/answer.ts";
import { currentPriceNotFound, marketNotFound, marketSettled, rpcUnavailable } from "../quote/errors.ts";
import type { QuoteRequest } from "../quote/request.ts";
import { runSearch } from "../quote/search.ts";
import type { Quoter } from "../http/quoteRoute.ts";

export interface QuoterOptions {
  readonly chains: ChainRegistry;
}

export function createQuoter({ chains }: QuoterOptions): Quoter {
  return {
    async quote(request) {
      const notPositive = checkExpectedPrice(request.expectedPrice);
      if (notPositive) throw notPositive;
      const chain = chains.get(request.chainId);
      if (!chain) throw marketNotFound([{ param: "chainId", message: `no RPC endpoint is configured for chain ${request.chainId}` }]);
      try {
        return await answerFrom(await sequentialReader(chain, request.marketAddress, request.marketId), request);
      } catch (error) {
        if (error instanceof ChainUnavailableError) throw rpcUnavailable();
        throw error;
      }
    },
  };
}

/** Semantics §3.5 to §5 over the reads of one block: the same decisions whichever strategy fetched them. */
export async function answerFrom(reader: MarketReader, request: QuoteRequest): Promise<QuoteResponseBody> {
  const market = interpretMarket(await reader.market(), request.marketId);
  if (market.kind === "missing") throw marketNotFound([{ param: "marketId", message: market.reason }]);
  if (market.settled) throw marketSettled();

  const currentPrice = interpretReferencePrice(await reader.referencePrice());
  if (currentPrice === undefined) throw currentPriceNotFound();
  const plan = planSearch(request, currentPrice);
  if (!plan.ok) throw plan.error;

  const result = await runSearch(plan.value, async (size) => interpretQuote(await reader.quote(size)));
  const answer = buildAnswer(request, currentPrice, reader.blockNumber, plan.value.direction, result);
  if (!answer.ok) throw answer.error;
  return answer.value;
}
