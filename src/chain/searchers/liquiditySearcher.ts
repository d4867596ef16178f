// The liquidity searcher's call (semantics §14): contracts/LiquiditySearcher.sol run as a deployless eth_call (its
// creation code and the quote as data, no `to`), and the facts it answers with (by reverting), read by viem's decoder
// (one call per quote, not the trader searchers' hot path).
import { decodeErrorResult, encodeDeployData, type Hex } from "viem";
import { liquiditySearcherAbi, liquiditySearcherBytecode } from "../../generated/contracts.ts";
import type { LiquidityRequest } from "../../quote/liquidityRequest.ts";
import { askedTicks } from "../../quote/liquiditySearch.ts";
import { ethCall, type RawCall, type ReadContext } from "../rpc/call.ts";
import type { ChainEndpoint } from "../rpc/client.ts";
import { checkSearchedBlock, SearcherUnsupportedError } from "./searcher.ts";

/** A candidate the searcher quoted: its liquidity, its tokens' read, its mint's simulation (none when the read failed). */
export type LiquidityCandidateFacts = { readonly liquidity: bigint; readonly tokens: RawCall; readonly mint: RawCall | undefined; readonly gasUsed: bigint };

/** The market's reads as the trader searchers record them, the range's reads, the group's quote, the candidates. */
export type LiquidityFacts = {
  readonly blockNumber: bigint;
  readonly market: RawCall;
  readonly price: RawCall | undefined;
  readonly collateralGroup: RawCall | undefined;
  readonly collateralDecimals: RawCall | undefined;
  readonly sqrtPrice: RawCall | undefined;
  readonly spacing: RawCall | undefined;
  readonly groupQuote: RawCall | undefined;
  readonly groupMint: RawCall | undefined;
  readonly candidates: readonly LiquidityCandidateFacts[];
};

/** The call's data: the searcher's creation code and the quote, its range as the prices' ticks before alignment. */
export function encodeLiquiditySearch(request: LiquidityRequest): Hex {
  const ticks = askedTicks(request);
  const ask = {
    marketGroup: request.marketAddress,
    marketId: request.marketId,
    collateralAvailable: request.collateralAvailable,
    hasLower: ticks.lower !== undefined,
    lowerTick: ticks.lower ?? 0,
    hasUpper: ticks.upper !== undefined,
    upperTick: ticks.upper ?? 0,
  };
  return encodeDeployData({ abi: liquiditySearcherAbi, bytecode: liquiditySearcherBytecode, args: [ask] });
}

type Call = { readonly success: boolean; readonly data: Hex };
const raw = (call: Call): RawCall => ({ success: call.success, data: call.data });
const readIf = (read: boolean, call: Call): RawCall | undefined => (read ? raw(call) : undefined);

/** The searcher's facts from its answer; anything else means the endpoint cannot run it. */
export function decodeLiquidityFacts(answer: RawCall): LiquidityFacts {
  let decoded;
  try {
    decoded = answer.success ? undefined : decodeErrorResult({ abi: liquiditySearcherAbi, data: answer.data });
  } catch {
    decoded = undefined;
  }
  if (decoded?.errorName !== "LiquiditySearchFacts") throw new SearcherUnsupportedError(answer);
  const [facts] = decoded.args;
  const { base } = facts;
  return {
    blockNumber: base.blockNumber,
    market: raw(base.market),
    price: readIf(base.priceRead, base.price),
    collateralGroup: readIf(base.collateralRead, base.collateralGroup),
    collateralDecimals: readIf(base.decimalsRead, base.collateralDecimals),
    sqrtPrice: readIf(facts.rangeRead, facts.sqrtPrice),
    spacing: readIf(facts.rangeRead, facts.spacing),
    groupQuote: readIf(facts.quoted, facts.groupQuote),
    groupMint: readIf(facts.quoted && facts.groupQuote.success, facts.groupMint),
    candidates: facts.candidates.map((candidate) => ({
      liquidity: candidate.liquidity,
      tokens: raw(candidate.tokens),
      mint: candidate.tokens.success ? raw(candidate.mint) : undefined,
      gasUsed: candidate.gasUsed,
    })),
  };
}

/** The searcher's facts at the pinned block (its block number must be the pin's); its candidates' gas is tallied. */
export async function runLiquiditySearcher(endpoint: ChainEndpoint, request: LiquidityRequest, gasCap: bigint, context: ReadContext): Promise<LiquidityFacts> {
  const answer = await ethCall(endpoint, { data: encodeLiquiditySearch(request), gas: gasCap, answersByReverting: true, ...context });
  const facts = decodeLiquidityFacts(answer);
  checkSearchedBlock(endpoint, facts.blockNumber, context.block);
  if (context.tally) context.tally.searchGas = facts.candidates.reduce((sum, candidate) => sum + candidate.gasUsed, context.tally.searchGas ?? 0n);
  return facts;
}
