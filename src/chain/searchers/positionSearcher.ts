// The position searcher's call (semantics §13): contracts/PositionSearcher.sol's runtime code run at the owner's
// address through eth_call's state override, so that the market group sees the owner as the sender of every quote;
// for a new search or one resumed where an earlier call stopped; and the facts it answers with (by reverting).
import { encodeFunctionData, getAbiItem, type Address, type Hex } from "viem";
import { positionSearcherAbi, positionSearcherCode } from "../../generated/contracts.ts";
import type { PositionRequest } from "../../quote/positionRequest.ts";
import { ethCall, type ReadContext } from "../rpc/call.ts";
import type { ChainEndpoint } from "../rpc/client.ts";
import { errorSelector } from "../rpc/decode.ts";
import { decodePositionSearchFacts, type Facts, type PositionFacts } from "./factsDecoder.ts";
import { bisectionResumeArgs, checkSearchedBlock, countSearchGas, decodeAnswer, exactResumeArgs, type Resume } from "./searcher.ts";

export type { PositionFacts };

/** What a resumed call knows of the position from the first call's reads: its market, size and offset. */
export type HeldResume = { readonly marketId: bigint; readonly current: bigint; readonly offset: bigint };

const NOT_HELD: HeldResume = { marketId: 0n, current: 0n, offset: 0n };

/** The call's data: the bisection's or the exact search's function, new (reads the position first) or resumed. */
export function encodePositionSearch(request: PositionRequest, maxCandidates: number, resumed?: { readonly held: HeldResume; readonly at: Resume }): Hex {
  const ask = {
    marketGroup: request.marketAddress,
    positionId: request.positionId,
    expectedPrice: request.expectedPrice,
    collateralAvailable: request.collateralAvailable,
    maxCandidates: BigInt(request.search === "exact" ? maxCandidates : request.maxIterations),
  };
  const held = resumed?.held ?? NOT_HELD;
  if (request.search === "exact") {
    return encodeFunctionData({ abi: positionSearcherAbi, functionName: "exact", args: [ask, resumed !== undefined, held, exactResumeArgs(resumed?.at)] });
  }
  return encodeFunctionData({ abi: positionSearcherAbi, functionName: "bisect", args: [ask, resumed !== undefined, held, bisectionResumeArgs(resumed?.at)] });
}

const positionFacts = getAbiItem({ abi: positionSearcherAbi, name: "PositionSearchFacts" });
const POSITION_FACTS_SELECTOR = errorSelector(positionFacts);

/**
 * The searcher run as `owner` at the pinned block: the position's reads and the search's facts. A node that ran it
 * at another block did not answer the question asked; one that refuses the state override throws
 * StateOverrideRefusedError (call.ts); one that answers anything else than the facts, SearcherUnsupportedError.
 */
export async function runPositionSearcher(
  endpoint: ChainEndpoint,
  owner: Address,
  data: Hex,
  gasCap: bigint,
  context: ReadContext,
): Promise<{ position: PositionFacts; facts: Facts }> {
  const answer = await ethCall(endpoint, { to: owner, data, gas: gasCap, answersByReverting: true, codeAt: { address: owner, code: positionSearcherCode }, ...context });
  const decoded = decodeAnswer(answer, POSITION_FACTS_SELECTOR, decodePositionSearchFacts);
  checkSearchedBlock(endpoint, decoded.facts.blockNumber, context.block);
  countSearchGas(context.tally, decoded.facts);
  return decoded;
}
