// One quote, in the order of semantics §3: checks that need only the request, then every chain read
// pinned to the latest block, then the search. Transport failures become 503, never an outcome.
import type { ChainRegistry } from "../chain/client.ts";
import { latestBlockNumber } from "../chain/call.ts";
import { ChainUnavailableError } from "../chain/errors.ts";
import { quoteCandidate } from "../chain/quoteCandidate.ts";
import { readMarket } from "../chain/readMarket.ts";
import { readReferencePrice } from "../chain/readReferencePrice.ts";
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
      try {
        return await quoteSequential(chains, request);
      } catch (error) {
        if (error instanceof ChainUnavailableError) throw rpcUnavailable();
        throw error;
      }
    },
  };
}

/** The sequential strategy: one `eth_call` per read and per candidate, all at one block. */
async function quoteSequential(chains: ChainRegistry, request: QuoteRequest): Promise<QuoteResponseBody> {
  const notPositive = checkExpectedPrice(request.expectedPrice);
  if (notPositive) throw notPositive;
  const chain = chains.get(request.chainId);
  if (!chain) throw marketNotFound([{ param: "chainId", message: `no RPC endpoint is configured for chain ${request.chainId}` }]);

  const { marketAddress: address, marketId } = request;
  const blockNumber = await latestBlockNumber(chain);
  const market = await readMarket(chain, address, marketId, blockNumber);
  if (market.kind === "missing") throw marketNotFound([{ param: "marketId", message: market.reason }]);
  if (market.settled) throw marketSettled();

  const currentPrice = await readReferencePrice(chain, address, marketId, blockNumber);
  if (currentPrice === undefined) throw currentPriceNotFound();
  const plan = planSearch(request, currentPrice);
  if (!plan.ok) throw plan.error;

  const result = await runSearch(plan.value, (size) => quoteCandidate(chain, address, marketId, size, blockNumber));
  const answer = buildAnswer(request, currentPrice, blockNumber, plan.value.direction, result);
  if (!answer.ok) throw answer.error;
  return answer.value;
}
