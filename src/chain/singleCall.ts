// The single-call strategy: the whole quote (market, price, every candidate) in one deployless eth_call of
// contracts/QuoteSearcher.sol, whose facts are then replayed through the same decisions as the sequential one.
// A search heavier than the gas cap continues, at the same block, in further calls (semantics §7).
import { decodeErrorResult, encodeDeployData, zeroAddress, type Address, type Hex } from "viem";
import { quoteSearcherAbi, quoteSearcherBytecode } from "../generated/contracts.ts";
import { DEFAULT_EXACT_MAX_CANDIDATES, type ExactState, type Known } from "../quote/exactSearch.ts";
import type { QuoteRequest } from "../quote/request.ts";
import type { SearchPoint } from "../quote/search.ts";
import { ethCall, observeFailure, type RawCall } from "./call.ts";
import type { ChainEndpoint } from "./client.ts";
import { ChainUnavailableError, answeredRpcError, classifyCallError } from "./errors.ts";
import { ChainOverloadedError } from "./limiter.ts";
import { encodeQuote, interpretReferencePrice } from "./marketGroup.ts";
import type { MarketReader, SearchPosition } from "./marketReader.ts";

/** Gas given to each deployless call unless configured otherwise. */
export const DEFAULT_SEARCH_GAS_CAP = 30_000_000n;

/** The service asked the recorded facts for a read the searcher did not make: a bug on one side. */
export class SearcherMismatchError extends Error {
  override name = "SearcherMismatchError";
}

/**
 * The endpoint ran the searcher but did not answer with its facts: it cannot run it (an opcode it lacks, a gas
 * cap too small for the reads), or answered something else. The endpoint is then quoted sequentially.
 */
export class SearcherUnsupportedError extends Error {
  override name = "SearcherUnsupportedError";
  constructor(readonly answer: RawCall) {
    const data = answer.data.length > 66 ? `${answer.data.slice(0, 66)}…` : answer.data;
    super(`the deployless searcher answered ${answer.success ? "successfully" : "a revert"} with ${data}, not its facts`);
  }
}

/**
 * Where a resumed search continues: its direction and where the search stands (for the exact search, with the
 * price the first call read).
 */
export type Resume = { readonly isLong: boolean } & (
  | { readonly search: "bisection"; readonly point: SearchPoint }
  | { readonly search: "exact"; readonly state: ExactState; readonly currentPrice: bigint }
);

const NO_SIDE = { known: false, size: 0n, quoted: false, requiredCollateral: 0n, priceAfter: 0n, rangeEnd: 0n } as const;

/** The exact search's state as the searcher's `ExactSearchRule.State`. */
export function exactStateArgs(state: ExactState | undefined) {
  return {
    low: encodeSide(state?.low),
    high: encodeSide(state?.high),
    streak: BigInt(state?.streak ?? 0),
    quoted: BigInt(state?.quoted ?? 0),
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
    priceAfter: side.quote?.priceAfter ?? 0n,
    rangeEnd: side.rangeEnd ?? 0n,
  };
}

/**
 * The deployless call's data: the searcher's creation code and arguments, for a new search or a resumed one.
 * `request.search` chooses the search; the exact one quotes at most `exactMaxCandidates`.
 */
export function encodeSearch(request: QuoteRequest, resume?: Resume, exactMaxCandidates = DEFAULT_EXACT_MAX_CANDIDATES): Hex {
  const exact = request.search === "exact";
  const point = resume?.search === "bisection" ? resume.point : undefined;
  const state = resume?.search === "exact" ? resume.state : undefined;
  return encodeDeployData({
    abi: quoteSearcherAbi,
    bytecode: quoteSearcherBytecode,
    args: [
      request.marketAddress,
      request.marketId,
      request.expectedPrice,
      request.collateralAvailable,
      BigInt(exact ? exactMaxCandidates : request.maxIterations),
      resume !== undefined,
      { isLong: resume?.isLong ?? false, low: point?.low ?? 0n, high: point?.high ?? 0n, iteration: BigInt(point?.iteration ?? 0) },
      exact,
      {
        currentPrice: resume?.search === "exact" ? resume.currentPrice : 0n,
        state: exactStateArgs(state),
      },
    ],
  });
}

type Facts = {
  blockNumber: bigint;
  market: RawCall;
  priceRead: boolean;
  price: RawCall;
  collateralRead: boolean;
  collateralGroup: RawCall;
  decimalsRead: boolean;
  collateralDecimals: RawCall;
  candidates: readonly { size: bigint; success: boolean; data: Hex; gasUsed: bigint }[];
};

/** The searcher's facts from its answer; anything else means the endpoint cannot run it. */
export function decodeFacts(answer: RawCall): Facts {
  if (!answer.success) {
    try {
      const decoded = decodeErrorResult({ abi: quoteSearcherAbi, data: answer.data });
      if (decoded.errorName === "SearchFacts") return decoded.args[0];
    } catch {
      // not the searcher's answer
    }
  }
  throw new SearcherUnsupportedError(answer);
}

async function runSearcher(endpoint: ChainEndpoint, data: Hex, block: bigint | "latest", gasCap: bigint): Promise<Facts> {
  return decodeFacts(await ethCall(endpoint, { data, block, gas: gasCap, answersByReverting: true }));
}

/**
 * The facts of one deployless call at the latest block, as a {@link MarketReader} that checks each read was
 * made. When the search asks for a candidate past the recorded ones (the call stopped to stay within its
 * gas), the reader continues the search from that point in another call at the same block; when a call
 * could not record even that one candidate (it needs more gas than a whole call has), the candidate is quoted
 * alone by a plain eth_call at that block, as the sequential strategy quotes it.
 * `signal`: once aborted (the quote's deadline passed), no further call is made.
 */
export async function singleCallReader(
  endpoint: ChainEndpoint,
  request: QuoteRequest,
  gasCap: bigint,
  signal?: AbortSignal,
  exactMaxCandidates = DEFAULT_EXACT_MAX_CANDIDATES,
): Promise<MarketReader> {
  const facts = await runSearcher(endpoint, encodeSearch(request, undefined, exactMaxCandidates), "latest", gasCap);
  const { blockNumber } = facts;
  let candidates = facts.candidates;
  let next = 0;
  let replayed = 0;

  function quoteAlone(signedSize: bigint): Promise<RawCall> {
    signal?.throwIfAborted();
    return ethCall(endpoint, { to: request.marketAddress, data: encodeQuote(request.marketId, signedSize), block: blockNumber });
  }

  function resumeAt(signedSize: bigint, at: SearchPosition): Resume {
    const isLong = signedSize > 0n;
    if (at.search === "bisection") return { isLong, ...at };
    const currentPrice = facts.priceRead ? interpretReferencePrice(facts.price) : undefined;
    if (currentPrice === undefined) throw new SearcherMismatchError("an exact search resumes without the price the searcher read");
    return { isLong, ...at, currentPrice };
  }

  async function continueAt(signedSize: bigint, at: SearchPosition | undefined): Promise<RawCall> {
    if (at === undefined) return quoteAlone(signedSize);
    signal?.throwIfAborted();
    const data = encodeSearch(request, resumeAt(signedSize, at), exactMaxCandidates);
    const resumed = await runSearcher(endpoint, data, blockNumber, gasCap);
    if (resumed.blockNumber !== blockNumber) {
      throw new SearcherMismatchError(`a resumed search ran at block ${resumed.blockNumber}, not ${blockNumber}`);
    }
    candidates = resumed.candidates;
    next = 0;
    return candidates.length > 0 ? take(signedSize) : quoteAlone(signedSize);
  }

  function take(signedSize: bigint): RawCall {
    const candidate = candidates[next]!;
    if (candidate.size !== signedSize) {
      throw new SearcherMismatchError(`candidate ${replayed}: the searcher quoted ${candidate.size}, the service asks ${signedSize}`);
    }
    next++;
    replayed++;
    return { success: candidate.success, data: candidate.data };
  }

  return {
    blockNumber,
    market: async () => facts.market,
    async referencePrice() {
      if (!facts.priceRead) throw new SearcherMismatchError("the searcher did not read the price");
      return facts.price;
    },
    async collateralGroup() {
      if (!facts.collateralRead) throw new SearcherMismatchError("the searcher did not read the market group's collateral");
      return facts.collateralGroup;
    },
    async collateralDecimals() {
      if (!facts.decimalsRead) throw new SearcherMismatchError("the searcher did not read the collateral's decimals");
      return facts.collateralDecimals;
    },
    async quote(signedSize, at) {
      return next < candidates.length ? take(signedSize) : continueAt(signedSize, at);
    },
    done() {
      if (next !== candidates.length) {
        throw new SearcherMismatchError(`the searcher quoted ${candidates.length - next} candidates more than the service asked for`);
      }
    },
  };
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
export async function probeDeployless(endpoint: ChainEndpoint, gasCap: bigint): Promise<boolean> {
  let answer: RawCall;
  try {
    const { data } = await endpoint.limiter.run(() =>
      endpoint.client.call({ data: encodeSearch(PROBE_REQUEST), gas: gasCap, blockTag: "latest" }),
    );
    answer = { success: true, data: data ?? "0x" };
  } catch (error) {
    if (error instanceof ChainOverloadedError) throw error;
    const failure = classifyCallError(error);
    if (failure.kind === "transport") {
      const refusal = answeredRpcError(error);
      const refused = refusal !== undefined && (refusal.code === INVALID_PARAMS || REFUSAL.test(refusal.details));
      observeFailure(endpoint, "eth_call", error, refused ? "refused" : "transport_failure");
      if (refused) return false;
      throw new ChainUnavailableError(endpoint.chainId, { cause: error });
    }
    answer = { success: false, data: failure.data };
  }
  endpoint.observer?.({ chainId: endpoint.chainId, method: "eth_call", outcome: "ok" });
  try {
    decodeFacts(answer);
    return true;
  } catch (error) {
    if (error instanceof SearcherUnsupportedError) return false;
    throw error;
  }
}
