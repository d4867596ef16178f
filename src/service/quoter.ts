// One quote, in the order of semantics §3: checks that need only the request, then the chain reads (all at
// one block, through a MarketReader of either strategy), then the search. Transport failures become 503,
// never an outcome.
import type { FastifyBaseLogger } from "fastify";
import type { ChainClient, ChainRegistry } from "../chain/client.ts";
import { ChainUnavailableError } from "../chain/errors.ts";
import { interpretMarket, interpretQuote, interpretReferencePrice } from "../chain/marketGroup.ts";
import type { MarketReader } from "../chain/marketReader.ts";
import { sequentialReader } from "../chain/sequential.ts";
import { DEFAULT_SEARCH_GAS_CAP, SearcherRevertedError, probeDeployless, singleCallReader } from "../chain/singleCall.ts";
import { buildAnswer, checkExpectedPrice, planSearch, type QuoteResponseBody } from "../quote/answer.ts";
import { currentPriceNotFound, marketNotFound, marketSettled, rpcUnavailable } from "../quote/errors.ts";
import type { QuoteRequest } from "../quote/request.ts";
import { runSearch } from "../quote/search.ts";
import type { Quoter } from "../http/quoteRoute.ts";

export type SearchStrategy = "single-call" | "sequential";

export interface QuoterOptions {
  readonly chains: ChainRegistry;
  /** Default "single-call": the whole quote in one eth_call where the endpoint runs deployless calls. */
  readonly strategy?: SearchStrategy;
  /** Gas of the single-call search (default 30,000,000). */
  readonly searchGasCap?: bigint;
  readonly logger?: Pick<FastifyBaseLogger, "warn" | "error">;
}

export interface QuoterService extends Quoter {
  /** Probes every chain for deployless calls now, so that no quote pays for it (failures retry later). */
  probe(): Promise<void>;
}

export function createQuoter({ chains, strategy = "single-call", searchGasCap = DEFAULT_SEARCH_GAS_CAP, logger }: QuoterOptions): QuoterService {
  /** Per chain: can its endpoint run the single-call search? Absent: not yet known. */
  const deployless = new Map<number, boolean>();

  async function canRunSingleCall(chain: ChainClient): Promise<boolean> {
    if (strategy === "sequential") return false;
    let known = deployless.get(chain.chainId);
    if (known === undefined) {
      known = await probeDeployless(chain, searchGasCap);
      deployless.set(chain.chainId, known);
      if (!known) logger?.warn({ chainId: chain.chainId }, "the RPC endpoint does not run deployless calls: quoting this chain sequentially");
    }
    return known;
  }

  async function readerFor(chain: ChainClient, request: QuoteRequest): Promise<MarketReader> {
    if (await canRunSingleCall(chain)) {
      try {
        return await singleCallReader(chain, request, searchGasCap);
      } catch (error) {
        if (!(error instanceof SearcherRevertedError)) throw error;
        logger?.error({ chainId: chain.chainId, err: error }, "the single-call search reverted: answering this quote sequentially");
      }
    }
    return sequentialReader(chain, request.marketAddress, request.marketId);
  }

  return {
    async quote(request) {
      const notPositive = checkExpectedPrice(request.expectedPrice);
      if (notPositive) throw notPositive;
      const chain = chains.get(request.chainId);
      if (!chain) throw marketNotFound([{ param: "chainId", message: `no RPC endpoint is configured for chain ${request.chainId}` }]);
      try {
        return await answerFrom(await readerFor(chain, request), request);
      } catch (error) {
        if (error instanceof ChainUnavailableError) throw rpcUnavailable();
        throw error;
      }
    },
    async probe() {
      await Promise.all(
        [...chains.values()].map((chain) =>
          canRunSingleCall(chain).catch((error: unknown) => {
            if (!(error instanceof ChainUnavailableError)) throw error;
          }),
        ),
      );
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
  reader.done?.();
  const answer = buildAnswer(request, currentPrice, reader.blockNumber, plan.value.direction, result);
  if (!answer.ok) throw answer.error;
  return answer.value;
}
