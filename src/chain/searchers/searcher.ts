// The searcher's call: contracts/QuoteSearcher.sol run as a deployless eth_call (its creation code and
// arguments as data, no `to`), for a new search or one resumed where an earlier call stopped, and the facts it
// answers with (by reverting); and the probe of whether an endpoint runs it at all.
import { QuoterError } from "../../quote/quoterError.ts";
import { encodeDeployData, getAbiItem, numberToHex, zeroAddress, type Address, type Hex } from "viem";
import { SETTINGS } from "../../config.ts";
import { exactQuoteSearcherAbi, exactQuoteSearcherBytecode, quoteSearcherAbi, quoteSearcherBytecode } from "../../generated/contracts.ts";
import type { ExactState, Known } from "../../quote/exactState.ts";
import type { EdgeCall } from "./priceEdge.ts";
import type { ExactMarket } from "./marketReader.ts";
import { DEFAULT_EXACT_MAX_CANDIDATES } from "../../quote/exactSearch.ts";
import type { QuoteRequest } from "../../quote/request.ts";
import type { SearchPoint } from "../../quote/search.ts";
import { ethCall, notAnExecution, send, unavailable, type BlockPin, type RawCall, type ReadContext, type RpcTally } from "../rpc/call.ts";
import type { ChainEndpoint } from "../rpc/client.ts";
import { errorSelector } from "../rpc/decode.ts";
import { decodeSearchFacts, type Facts } from "./factsDecoder.ts";
import { BlockMismatchError, ChainUnavailableError, classifyRpcError } from "../rpc/chainErrors.ts";

/** Gas given to each deployless call unless configured otherwise: the setting's default. */
export const DEFAULT_SEARCH_GAS_CAP = BigInt(SETTINGS.SEARCH_GAS_CAP.default);

/**
 * The endpoint ran the searcher but did not answer with its facts: it cannot run it (an opcode it lacks, a gas
 * cap too small for the reads), or answered something else. The endpoint is then quoted sequentially.
 */
export class SearcherUnsupportedError extends QuoterError {
  constructor(readonly answer: RawCall) {
    const data = answer.data.length > 66 ? `${answer.data.slice(0, 66)}…` : answer.data;
    super("searcher-unsupported", `the deployless searcher answered ${answer.success ? "successfully" : "a revert"} with ${data}, not its facts`);
  }
}

/**
 * Where a resumed search continues: its direction and where the search stands (for the exact search, with the
 * price the first call read).
 */
export type Resume = { readonly isLong: boolean } & (
  | { readonly search: "bisection"; readonly point: SearchPoint }
  | {
      readonly search: "exact";
      readonly state: ExactState;
      readonly currentPrice: bigint;
      /** What the rule reads of the market: its worst settlement price for the direction, fee, pool liquidity. */
      readonly market: ExactMarket;
      /** The QuoterV2 call that measures the price edge, planned from the market's answer; none for a market without. */
      readonly edgeCall: EdgeCall | undefined;
    }
);

const NO_SIDE = { known: false, size: 0n, quoted: false, requiredCollateral: 0n, fillPrice: 0n, priceAfter: 0n, rangeEnd: 0n } as const;

/** The exact search's state as the searcher's `ExactSearchRule.State`. */
export function exactStateArgs(state: ExactState | undefined) {
  return {
    low: encodeSide(state?.low),
    high: encodeSide(state?.high),
    prior: encodeSide(state?.prior),
    streak: BigInt(state?.streak ?? 0),
    quoted: BigInt(state?.quoted ?? 0),
    edgeAsked: state?.edge.asked ?? false,
    hasEdge: state?.edge.size !== undefined,
    edge: state?.edge.size ?? 0n,
  };
}

/** A side of the exact search as the searcher's `ExactSearchRule.Side`; a range end of 0 stands for none. */
function encodeSide(side: Known | undefined) {
  if (side === undefined) return NO_SIDE;
  return {
    known: true,
    size: side.size,
    quoted: side.quote !== undefined,
    requiredCollateral: side.quote?.requiredCollateral ?? 0n,
    fillPrice: side.quote?.fillPrice ?? 0n,
    priceAfter: side.quote?.priceAfter ?? 0n,
    rangeEnd: side.rangeEnd ?? 0n,
  };
}

/**
 * The deployless call's data: a searcher's creation code and arguments, for a new search or a resumed one.
 * `request.search` chooses the searcher (the bisection's, or the exact search's, which quotes at most
 * `exactMaxCandidates`): a bisection's call does not carry the exact search's code.
 */
export function encodeSearch(request: QuoteRequest, resume?: Resume, exactMaxCandidates = DEFAULT_EXACT_MAX_CANDIDATES): Hex {
  const head = [request.marketAddress, request.marketId, request.expectedPrice, request.collateralAvailable] as const;
  if (request.search === "exact") {
    return encodeDeployData({
      abi: exactQuoteSearcherAbi,
      bytecode: exactQuoteSearcherBytecode,
      args: [...head, BigInt(exactMaxCandidates), resume !== undefined, exactResumeArgs(resume)],
    });
  }
  return encodeDeployData({
    abi: quoteSearcherAbi,
    bytecode: quoteSearcherBytecode,
    args: [...head, BigInt(request.maxIterations), resume !== undefined, bisectionResumeArgs(resume)],
  });
}

/** Where an exact search resumes, as the searchers' `ExactResume` (zeros for a new search). */
export function exactResumeArgs(resume: Resume | undefined) {
  const exact = resume?.search === "exact" ? resume : undefined;
  return {
    isLong: resume?.isLong ?? false,
    currentPrice: exact?.currentPrice ?? 0n,
    worstPrice: exact?.market.worstPrice ?? 0n,
    feeRate: exact?.market.feeRate ?? 0n,
    liquidity: exact?.market.liquidity ?? 0n,
    state: exactStateArgs(exact?.state),
    edgeQuoter: exact?.edgeCall?.to ?? zeroAddress,
    edgeData: exact?.edgeCall?.data ?? ("0x" as Hex),
  };
}

/** Where a bisection resumes, as the searchers' `BisectionResume` (zeros for a new search). */
export function bisectionResumeArgs(resume: Resume | undefined) {
  const point = resume?.search === "bisection" ? resume.point : { low: 0n, high: 0n, iteration: 0 };
  return { isLong: resume?.isLong ?? false, low: point.low, high: point.high, iteration: BigInt(point.iteration) };
}

export type { Facts };

/** Both searchers answer with SearcherBase's `SearchFacts(Facts)`. */
const searchFacts = getAbiItem({ abi: quoteSearcherAbi, name: "SearchFacts" });
const SEARCH_FACTS_SELECTOR = errorSelector(searchFacts);

/** The searcher's facts from its answer; anything else means the endpoint cannot run it. */
export function decodeFacts(answer: RawCall): Facts {
  return decodeAnswer(answer, SEARCH_FACTS_SELECTOR, decodeSearchFacts);
}

/**
 * The argument of the error a searcher answers with (its `selector`), read by `decode` from the data after the
 * selector; anything else means the endpoint cannot run it.
 */
export function decodeAnswer<T>(answer: RawCall, selector: Hex, decode: (encoded: string) => T): T {
  if (!answer.success && answer.data.slice(0, 10).toLowerCase() === selector) {
    try {
      return decode(answer.data.slice(10));
    } catch {
      // not the searcher's answer
    }
  }
  throw new SearcherUnsupportedError(answer);
}

/** Adds the gas of the facts' candidates to the tally's. */
export function countSearchGas(tally: RpcTally | undefined, facts: Pick<Facts, "candidates">): void {
  if (tally) tally.searchGas = facts.candidates.reduce((sum, candidate) => sum + candidate.gasUsed, tally.searchGas ?? 0n);
}

/** A searcher's block number (`block.number` where it ran) must be the pin's: else the node answered another question. */
export function checkSearchedBlock(endpoint: ChainEndpoint, searched: bigint, block: BlockPin): void {
  if (searched !== block.number) {
    throw new BlockMismatchError(
      endpoint.chainId,
      `${endpoint.source} ran the search at block ${searched}, not at block ${block.number} (${block.hash}) as asked`,
    );
  }
}

/**
 * The searcher's facts at the pinned block. The block number the searcher read (`block.number`) must be the pin's:
 * a node that ran the call elsewhere did not answer the question asked.
 */
export async function runSearcher(endpoint: ChainEndpoint, data: Hex, gasCap: bigint, context: ReadContext): Promise<Facts> {
  const { block } = context;
  const facts = decodeFacts(await ethCall(endpoint, { data, gas: gasCap, answersByReverting: true, ...context }));
  checkSearchedBlock(endpoint, facts.blockNumber, block);
  countSearchGas(context.tally, facts);
  return facts;
}

/** A search of nothing (no code at the zero address): the searcher's shortest run, to see an endpoint runs it. */
const PROBE_REQUEST = {
  marketAddress: zeroAddress as Address,
  marketId: 0n,
  expectedPrice: 1n,
  collateralAvailable: 1n,
  maxIterations: 1,
} as QuoteRequest;

/** How endpoints say no to a call without `to`, or to the gas it asks for. */
const REFUSAL = /\b(to|create|creation|deploy\w*|gas)\b/i;
const INVALID_PARAMS = -32602;

/**
 * Asks the endpoint whether it runs the searcher as a deployless call with `gasCap` gas: false when it
 * answers that it will not (invalid params, or an error about `to`, contract creation or gas), or answers
 * anything but the searcher's facts (a node without an opcode the searcher uses fails it).
 * Any other failure decides nothing (semantics §7) and throws {@link ChainUnavailableError}.
 */
export async function probeDeployless(endpoint: ChainEndpoint, gasCap: bigint, tally?: RpcTally): Promise<boolean> {
  const answer = await send(endpoint, "eth_call", [{ data: encodeSearch(PROBE_REQUEST), gas: numberToHex(gasCap) }, "latest"], undefined, tally);
  const observeOk = () => endpoint.observer?.({ chainId: endpoint.chainId, method: "eth_call", outcome: "ok" });
  if (answer.error === undefined) {
    // The searcher never returns: a result means the endpoint did not run it.
    observeOk();
    return false;
  }
  const failure = classifyRpcError(answer.error);
  if (failure.kind === "unknown-block") throw unavailable(endpoint, "eth_call", notAnExecution(answer.error));
  if (failure.kind === "transport") {
    const refused = answer.error.code === INVALID_PARAMS || REFUSAL.test(answer.error.message);
    if (!refused) throw unavailable(endpoint, "eth_call", notAnExecution(answer.error));
    endpoint.observer?.({ chainId: endpoint.chainId, method: "eth_call", outcome: "refused" });
    return false;
  }
  observeOk();
  const raw: RawCall = { success: false, data: failure.data };
  try {
    decodeFacts(raw);
    return true;
  } catch (error) {
    if (error instanceof SearcherUnsupportedError) return false;
    throw error;
  }
}
