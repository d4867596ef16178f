// A raw eth_call: its success flag and return (or revert) data. A transport failure throws.
import { numberToHex, type BlockTag, type Hex } from "viem";
import { ChainUnavailableError, classifyCallError } from "./errors.ts";
import { ChainOverloadedError } from "./limiter.ts";
import type { ChainEndpoint, RpcMethod, RpcOutcome } from "./client.ts";

/** What one call of the market group answered: return data on success, revert data otherwise. */
export interface RawCall {
  readonly success: boolean;
  readonly data: Hex;
}

export interface CallRequest {
  /** Omitted for a deployless call: `data` is then creation code. */
  readonly to?: Hex;
  readonly data: Hex;
  readonly block: bigint | BlockTag;
  readonly gas?: bigint;
  /** The call answers by reverting (the deployless searcher): a revert is then counted as `ok`. */
  readonly answersByReverting?: boolean;
}

/**
 * `eth_call`; a revert is an answer (semantics §1), anything else failing throws {@link ChainUnavailableError}.
 * Sent as a bare JSON-RPC request, not through viem's `call` action: the action formats every failure into an
 * error that prints the whole call (the searcher's creation code included), and the searcher answers by failing,
 * so that cost, about 40% of a round trip's CPU, was paid on every quote (bench/transport.ts).
 */
export async function ethCall(endpoint: ChainEndpoint, request: CallRequest): Promise<RawCall> {
  const call = {
    ...(request.to === undefined ? {} : { to: request.to }),
    data: request.data,
    ...(request.gas === undefined ? {} : { gas: numberToHex(request.gas) }),
  };
  const block = typeof request.block === "bigint" ? numberToHex(request.block) : request.block;
  try {
    const data = await endpoint.limiter.run(() => endpoint.client.request({ method: "eth_call", params: [call, block] }));
    endpoint.observer?.({ chainId: endpoint.chainId, method: "eth_call", outcome: "ok" });
    return { success: true, data: data ?? "0x" };
  } catch (error) {
    const failure = classifyCallError(error);
    const outcome = failure.kind === "transport" ? "transport_failure" : request.answersByReverting ? "ok" : "reverted";
    observeFailure(endpoint, "eth_call", error, outcome);
    if (failure.kind === "transport") throw asUnavailable(endpoint, error);
    return { success: false, data: failure.data };
  }
}

/** The latest block number, the pin of every read of one quote (semantics §3.4). */
export async function latestBlockNumber(endpoint: ChainEndpoint): Promise<bigint> {
  try {
    const blockNumber = await endpoint.limiter.run(() => endpoint.client.getBlockNumber({ cacheTime: 0 }));
    endpoint.observer?.({ chainId: endpoint.chainId, method: "eth_blockNumber", outcome: "ok" });
    return blockNumber;
  } catch (error) {
    observeFailure(endpoint, "eth_blockNumber", error, "transport_failure");
    throw asUnavailable(endpoint, error);
  }
}

/** Reports a failed request to the endpoint's observer, unless the limiter refused it before it was sent. */
export function observeFailure(endpoint: ChainEndpoint, method: RpcMethod, error: unknown, outcome: RpcOutcome): void {
  if (!(error instanceof ChainOverloadedError)) endpoint.observer?.({ chainId: endpoint.chainId, method, outcome });
}

/** Back-pressure refusals pass through as they are; every other failure is the endpoint's. */
function asUnavailable(endpoint: ChainEndpoint, error: unknown): Error {
  return error instanceof ChainOverloadedError ? error : new ChainUnavailableError(endpoint.chainId, { cause: error });
}
