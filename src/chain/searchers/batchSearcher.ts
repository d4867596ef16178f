// Many quotes at one block in one deployless eth_call of contracts/BatchQuoteSearcher.sol: the facts of each quote
// it started, in order, each then replayed like a one-quote searcher's. Quotes it left for lack of gas go in the
// next call at the same block, so a batch takes as few calls as fit the gas cap. A depth ladder spaced from the
// market's price runs contracts/DepthLadderSearcher.sol instead, which reads the price and plans the levels itself.
import { encodeDeployData, getAbiItem, type Hex } from "viem";
import { batchQuoteSearcherAbi, batchQuoteSearcherBytecode, depthLadderSearcherAbi, depthLadderSearcherBytecode } from "../../generated/contracts.ts";
import { plannedRequests, type SpacedLadder } from "../../quote/depthRequest.ts";
import type { QuoteRequest } from "../../quote/request.ts";
import { ethCall, type RawCall, type ReadContext } from "../rpc/call.ts";
import type { ChainEndpoint } from "../rpc/client.ts";
import { errorSelector } from "../rpc/decode.ts";
import { decodeBatchSearchFacts, decodeLadderFacts } from "./factsDecoder.ts";
import { interpretReferencePrice } from "./marketGroup.ts";
import { checkSearchedBlock, countSearchGas, decodeAnswer, type Facts } from "./searcher.ts";
import type { SearchLimits } from "./singleCall.ts";

const batchSearchFacts = getAbiItem({ abi: batchQuoteSearcherAbi, name: "BatchSearchFacts" });
const BATCH_SEARCH_FACTS_SELECTOR = errorSelector(batchSearchFacts);
const LADDER_FACTS_SELECTOR = errorSelector(getAbiItem({ abi: depthLadderSearcherAbi, name: "LadderFacts" }));

/** A request as the searchers' `Item` (an exact search quotes at most `exactMaxCandidates`). */
const itemOf = (request: QuoteRequest, exactMaxCandidates: number) => ({
  marketGroup: request.marketAddress,
  marketId: request.marketId,
  expectedPrice: request.expectedPrice,
  collateralAvailable: request.collateralAvailable,
  maxIterations: BigInt(request.search === "exact" ? exactMaxCandidates : request.maxIterations),
  exact: request.search === "exact",
});

/** The deployless call's data for `requests`, each searched as it asks. */
export function encodeBatchSearch(requests: readonly QuoteRequest[], exactMaxCandidates: number): Hex {
  const items = requests.map((request) => itemOf(request, exactMaxCandidates));
  return encodeDeployData({ abi: batchQuoteSearcherAbi, bytecode: batchQuoteSearcherBytecode, args: [items] });
}

/** The deployless call's data for a ladder the searcher plans from the market's price, as plannedRequests does. */
export function encodeLadderSearch(ladder: SpacedLadder, exactMaxCandidates: number): Hex {
  return encodeDeployData({
    abi: depthLadderSearcherAbi,
    bytecode: depthLadderSearcherBytecode,
    args: [itemOf(ladder.farthest, exactMaxCandidates), BigInt(ladder.levels)],
  });
}

/** A spaced ladder at one block: the price read there, the quotes planned from it, and the facts of the first of them. */
export interface LadderSearched {
  readonly price: RawCall;
  readonly requests: readonly QuoteRequest[];
  /** The facts of `requests` in order: fewer when the rest must be searched alone. */
  readonly facts: readonly Facts[];
}

/**
 * The facts of `requests` at the context's block, in order, in as many calls as the gas cap needs; fewer than
 * asked when a call could not start even one (its first quote's reads need more than a whole call): those are
 * left to be searched alone. Throws what a one-quote searcher's call throws (an endpoint that does not run it:
 * {@link SearcherUnsupportedError}).
 */
export async function runBatchSearcher(endpoint: ChainEndpoint, requests: readonly QuoteRequest[], limits: SearchLimits, context: ReadContext): Promise<Facts[]> {
  const facts: Facts[] = [];
  while (facts.length < requests.length) {
    context.signal?.throwIfAborted();
    const data = encodeBatchSearch(requests.slice(facts.length), limits.exactMaxCandidates);
    const answer = await ethCall(endpoint, { data, gas: limits.gasCap, answersByReverting: true, ...context });
    const started = decodeAnswer(answer, BATCH_SEARCH_FACTS_SELECTOR, decodeBatchSearchFacts);
    if (started.length === 0) break;
    for (const item of started) {
      checkSearchedBlock(endpoint, item.blockNumber, context.block);
      countSearchGas(context.tally, item);
    }
    facts.push(...started);
  }
  return facts;
}

/**
 * A spaced ladder at the context's block: the market's price and the levels' facts in one call of the ladder
 * searcher, which plans the levels by the service's rule; the levels it left for lack of gas in a batch's further
 * calls. Throws what a one-quote searcher's call throws.
 */
export async function runLadderSearcher(endpoint: ChainEndpoint, ladder: SpacedLadder, limits: SearchLimits, context: ReadContext): Promise<LadderSearched> {
  context.signal?.throwIfAborted();
  const data = encodeLadderSearch(ladder, limits.exactMaxCandidates);
  const answer = await ethCall(endpoint, { data, gas: limits.gasCap, answersByReverting: true, ...context });
  const { blockNumber, price, prices, facts } = decodeAnswer(answer, LADDER_FACTS_SELECTOR, decodeLadderFacts);
  checkSearchedBlock(endpoint, blockNumber, context.block);
  for (const item of facts) {
    checkSearchedBlock(endpoint, item.blockNumber, context.block);
    countSearchGas(context.tally, item);
  }
  const requests = plannedRequests(ladder, interpretReferencePrice(price));
  // Facts of other prices than the service planned would answer other quotes: the levels are then searched anew.
  const agreed = prices.length === requests.length && prices.every((planned, i) => planned === requests[i]!.expectedPrice) ? facts : [];
  // A call that started no level cannot start one in the next either: those are searched alone.
  const rest = facts.length === 0 ? [] : await runBatchSearcher(endpoint, requests.slice(agreed.length), limits, context);
  return { price, requests, facts: [...agreed, ...rest] };
}
