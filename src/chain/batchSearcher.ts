// Many quotes at one block in one deployless eth_call of contracts/BatchQuoteSearcher.sol: the facts of each quote
// it started, in order, each then replayed like a one-quote searcher's. Quotes it left for lack of gas go in the
// next call at the same block, so a batch takes as few calls as fit the gas cap.
import { encodeDeployData, getAbiItem, type Hex } from "viem";
import { batchQuoteSearcherAbi, batchQuoteSearcherBytecode } from "../generated/contracts.ts";
import type { QuoteRequest } from "../quote/request.ts";
import { ethCall, type ReadContext } from "./call.ts";
import type { ChainEndpoint } from "./client.ts";
import { errorSelector } from "./decode.ts";
import { decodeBatchSearchFacts } from "./factsDecoder.ts";
import { checkSearchedBlock, countSearchGas, decodeAnswer, type Facts } from "./searcher.ts";
import type { SearchLimits } from "./singleCall.ts";

const batchSearchFacts = getAbiItem({ abi: batchQuoteSearcherAbi, name: "BatchSearchFacts" });
const BATCH_SEARCH_FACTS_SELECTOR = errorSelector(batchSearchFacts);

/** The deployless call's data for `requests`, each searched as it asks (an exact search quotes at most `exactMaxCandidates`). */
export function encodeBatchSearch(requests: readonly QuoteRequest[], exactMaxCandidates: number): Hex {
  const items = requests.map((request) => ({
    marketGroup: request.marketAddress,
    marketId: request.marketId,
    expectedPrice: request.expectedPrice,
    collateralAvailable: request.collateralAvailable,
    maxIterations: BigInt(request.search === "exact" ? exactMaxCandidates : request.maxIterations),
    exact: request.search === "exact",
  }));
  return encodeDeployData({ abi: batchQuoteSearcherAbi, bytecode: batchQuoteSearcherBytecode, args: [items] });
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
