// The single-call strategy: the whole quote (market, price, every candidate) in one deployless eth_call of
// contracts/QuoteSearcher.sol, whose facts are then replayed through the same decisions as the sequential one.
import { decodeAbiParameters, encodeDeployData, parseAbiParameters, type Hex } from "viem";
import { quoteSearcherAbi, quoteSearcherBytecode } from "../generated/contracts.ts";
import type { QuoteRequest } from "../quote/request.ts";
import { ethCall, observeFailure, type RawCall } from "./call.ts";
import type { ChainEndpoint } from "./client.ts";
import { ChainUnavailableError, answeredRpcError } from "./errors.ts";
import { ChainOverloadedError } from "./limiter.ts";
import type { MarketReader } from "./marketReader.ts";

/** Gas given to the deployless call unless configured otherwise. */
export const DEFAULT_SEARCH_GAS_CAP = 30_000_000n;

const factsParameters = parseAbiParameters(
  "(uint256 blockNumber, (bool success, bytes data) market, bool priceRead, (bool success, bytes data) price, (int256 size, bool success, bytes data)[] candidates)",
);

/** The service asked the recorded facts for a read the searcher did not make: a bug on one side. */
export class SearcherMismatchError extends Error {
  override name = "SearcherMismatchError";
}

/** The searcher itself reverted (it never does by design: out of gas under the cap, or a bug). */
export class SearcherRevertedError extends Error {
  override name = "SearcherRevertedError";
  constructor(readonly data: Hex) {
    super(`the deployless searcher reverted with ${data.length > 66 ? `${data.slice(0, 66)}…` : data}`);
  }
}

export function encodeSearch(request: QuoteRequest): Hex {
  return encodeDeployData({
    abi: quoteSearcherAbi,
    bytecode: quoteSearcherBytecode,
    args: [
      request.marketAddress,
      request.marketId,
      request.expectedPrice,
      request.collateralAvailable,
      BigInt(request.maxIterations),
    ],
  });
}

/** One eth_call at the latest block; its facts as a {@link MarketReader} that checks each read was made. */
export async function singleCallReader(endpoint: ChainEndpoint, request: QuoteRequest, gasCap: bigint): Promise<MarketReader> {
  const raw = await ethCall(endpoint, { data: encodeSearch(request), block: "latest", gas: gasCap });
  if (!raw.success) throw new SearcherRevertedError(raw.data);
  const [facts] = decodeAbiParameters(factsParameters, raw.data);
  const candidates = facts.candidates;
  let next = 0;
  return {
    blockNumber: facts.blockNumber,
    market: async () => facts.market,
    async referencePrice() {
      if (!facts.priceRead) throw new SearcherMismatchError("the searcher did not read the price");
      return facts.price;
    },
    async quote(signedSize): Promise<RawCall> {
      const candidate = candidates[next];
      if (candidate === undefined || candidate.size !== signedSize) {
        throw new SearcherMismatchError(`candidate ${next}: the searcher quoted ${candidate?.size ?? "nothing"}, the service asks ${signedSize}`);
      }
      next++;
      return { success: candidate.success, data: candidate.data };
    },
    done() {
      if (next !== candidates.length) throw new SearcherMismatchError(`the searcher quoted ${candidates.length} candidates, the service ${next}`);
    },
  };
}

/** Creation code that returns the word 1: a deployless call any capable endpoint runs. */
const PROBE_CODE: Hex = "0x600160005260206000f3";
const PROBE_ANSWER: Hex = `0x${"0".repeat(63)}1`;

/** How endpoints say no to a call without `to`, or to the gas it asks for. */
const REFUSAL = /\b(to|create|creation|deploy\w*|gas)\b/i;
const INVALID_PARAMS = -32602;

/**
 * Asks the endpoint whether it runs deployless calls with `gasCap` gas: false only when it answers that it
 * will not (invalid params, or an error about `to`, contract creation or gas), or answers wrongly.
 * Any other failure decides nothing (semantics §7) and throws {@link ChainUnavailableError}.
 */
export async function probeDeployless(endpoint: ChainEndpoint, gasCap: bigint): Promise<boolean> {
  try {
    const { data } = await endpoint.limiter.run(() => endpoint.client.call({ data: PROBE_CODE, gas: gasCap, blockTag: "latest" }));
    endpoint.observer?.({ chainId: endpoint.chainId, method: "eth_call", outcome: "ok" });
    return data === PROBE_ANSWER;
  } catch (error) {
    if (error instanceof ChainOverloadedError) throw error;
    const refusal = answeredRpcError(error);
    const refused = refusal !== undefined && (refusal.code === INVALID_PARAMS || REFUSAL.test(refusal.details));
    observeFailure(endpoint, "eth_call", error, refused ? "refused" : "transport_failure");
    if (refused) return false;
    throw new ChainUnavailableError(endpoint.chainId, { cause: error });
  }
}
