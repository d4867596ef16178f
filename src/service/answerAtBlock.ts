// Semantics §3.5 to §5 over the reads of one block: the same decisions whichever strategy fetched them.
import {
  interpretCollateralAsset,
  interpretCollateralDecimals,
  interpretMarket,
  interpretQuote,
  interpretReferencePrice,
} from "../chain/marketGroup.ts";
import type { BlockPin } from "../chain/call.ts";
import type { ChainEndpoint } from "../chain/client.ts";
import type { MarketReader, SearchPosition } from "../chain/marketReader.ts";
import { SearcherUnsupportedError } from "../chain/searcher.ts";
import { buildAnswer, planSearch, type QuoteResponseBody } from "../quote/quoteAnswer.ts";
import { currentPriceNotFound, marketNotFound, marketSettled } from "../quote/quoteErrors.ts";
import { DEFAULT_EXACT_MAX_CANDIDATES, runExactSearch } from "../quote/exactSearch.ts";
import type { QuoteRequest } from "../quote/request.ts";
import { runSearch } from "../quote/search.ts";
import { currentQuoteStats } from "../observability/quoteStats.ts";
import type { EndpointStrategy } from "./endpointStrategy.ts";

/** The answer to `request` from `reader`'s block: the market, its price, the search, the body or its error. */
export async function answerFrom(
  reader: MarketReader,
  request: QuoteRequest,
  exactMaxCandidates = DEFAULT_EXACT_MAX_CANDIDATES,
): Promise<QuoteResponseBody> {
  // This endpoint's reads replace whatever an endpoint tried before recorded (its RPC requests still count).
  const stats = currentQuoteStats();
  if (stats) {
    stats.blockNumber = reader.block.number;
    delete stats.direction;
    delete stats.candidates;
  }
  const market = interpretMarket(await reader.market(), request.marketId);
  if (market.kind === "missing") throw marketNotFound([{ param: market.param, message: market.reason }]);
  if (market.settled) throw marketSettled();

  const currentPrice = interpretReferencePrice(await reader.referencePrice());
  if (currentPrice === undefined) throw currentPriceNotFound();
  const plan = planSearch(request, currentPrice);
  if (!plan.ok) throw plan.error;
  const collateralDecimals = await readCollateralDecimals(reader);

  if (stats) {
    stats.direction = plan.value.direction;
    stats.candidates = 0;
  }
  const quote = async (size: bigint, at: SearchPosition) => {
    if (stats?.candidates !== undefined) stats.candidates++;
    return interpretQuote(await reader.quote(size, at));
  };
  const result =
    request.search === "exact"
      ? await runExactSearch({ ...plan.value, currentPrice, maxCandidates: exactMaxCandidates }, (size, state) =>
          quote(size, { search: "exact", state }),
        )
      : await runSearch(plan.value, (size, point) => quote(size, { search: "bisection", point }));
  reader.done?.();
  const answer = buildAnswer(request, currentPrice, reader.block, plan.value.direction, result, collateralDecimals);
  if (!answer.ok) throw answer.error;
  return answer.value;
}

/** Semantics §3.6, §10: the collateral token's decimals at the pinned block; 18 where they cannot be read. */
async function readCollateralDecimals(reader: MarketReader): Promise<number> {
  const asset = interpretCollateralAsset(await reader.collateralGroup());
  return interpretCollateralDecimals(asset === undefined ? undefined : await reader.collateralDecimals(asset));
}

/**
 * One endpoint's answer to `request` at `block`: its reads, in the way the endpoint takes, then the decisions
 * above. A single call whose resumed call turns out not to be the searcher's is done again call by call (and the
 * endpoint is quoted so from then on).
 */
export async function answerAtEndpoint(
  strategy: EndpointStrategy,
  endpoint: ChainEndpoint,
  request: QuoteRequest,
  at: { readonly block: BlockPin; readonly signal: AbortSignal; readonly exactMaxCandidates?: number },
): Promise<QuoteResponseBody> {
  const first = await strategy.readerAt(endpoint, request, at.block, at.signal);
  try {
    return await answerFrom(first.reader, request, at.exactMaxCandidates);
  } catch (error) {
    if (!(first.singleCall && error instanceof SearcherUnsupportedError)) throw error;
    strategy.notSearcher(endpoint, error);
    const again = await strategy.readerAt(endpoint, request, at.block, at.signal);
    return answerFrom(again.reader, request, at.exactMaxCandidates);
  }
}
