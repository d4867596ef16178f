// A raw eth_call: its success flag and return (or revert) data. A transport failure throws.
import { isHex, numberToHex, type BlockTag, type Hex } from "viem";
import { ChainUnavailableError, classifyRpcError } from "./errors.ts";
import { ChainOverloadedError } from "./limiter.ts";
import type { ChainEndpoint, RpcMethod } from "./client.ts";
import { postJsonRpc, RpcTransportError, type JsonRpcAnswer, type JsonRpcError } from "./transport.ts";

const QUANTITY = /^0x[0-9a-fA-F]+$/;

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
 * `eth_call`; a revert is an answer (semantics §1), anything else failing throws {@link ChainUnavailableError}:
 * a transport failure, an error the node answered that is no execution's, or a result that is not hex data.
 */
export async function ethCall(endpoint: ChainEndpoint, request: CallRequest): Promise<RawCall> {
  const call = {
    ...(request.to === undefined ? {} : { to: request.to }),
    data: request.data,
    ...(request.gas === undefined ? {} : { gas: numberToHex(request.gas) }),
  };
  const block = typeof request.block === "bigint" ? numberToHex(request.block) : request.block;
  const answer = await send(endpoint, "eth_call", [call, block]);
  if (answer.error === undefined) {
    const data = answer.result ?? "0x";
    if (!isHex(data)) {
      throw unavailable(endpoint, "eth_call", new RpcTransportError("eth_call answered a result that is not hex data"));
    }
    endpoint.observer?.({ chainId: endpoint.chainId, method: "eth_call", outcome: "ok" });
    return { success: true, data };
  }
  const failure = classifyRpcError(answer.error);
  if (failure.kind === "transport") throw unavailable(endpoint, "eth_call", notAnExecution(answer.error));
  endpoint.observer?.({ chainId: endpoint.chainId, method: "eth_call", outcome: request.answersByReverting ? "ok" : "reverted" });
  return { success: false, data: failure.data };
}

/** The latest block number, the pin of every read of one quote (semantics §3.4). */
export async function latestBlockNumber(endpoint: ChainEndpoint): Promise<bigint> {
  const answer = await send(endpoint, "eth_blockNumber", []);
  if (answer.error !== undefined) throw unavailable(endpoint, "eth_blockNumber", notAnExecution(answer.error));
  if (typeof answer.result !== "string" || !QUANTITY.test(answer.result)) {
    throw unavailable(endpoint, "eth_blockNumber", new RpcTransportError("eth_blockNumber answered a result that is not a quantity"));
  }
  endpoint.observer?.({ chainId: endpoint.chainId, method: "eth_blockNumber", outcome: "ok" });
  return BigInt(answer.result);
}

/**
 * One request through the chain's limiter. A refusal of the limiter passes through as it is; a request sent that
 * got no answer is reported to the observer and throws {@link ChainUnavailableError}.
 */
export async function send(endpoint: ChainEndpoint, method: RpcMethod, params: readonly unknown[]): Promise<JsonRpcAnswer> {
  try {
    return await endpoint.limiter.run(() => postJsonRpc(endpoint.target, method, params));
  } catch (error) {
    if (error instanceof ChainOverloadedError) throw error;
    throw unavailable(endpoint, method, error);
  }
}

/** An error the node answered, as a failure of the transport: it tells nothing about the call (semantics §1). */
export function notAnExecution(error: JsonRpcError): RpcTransportError {
  return new RpcTransportError(`JSON-RPC error ${error.code}`);
}

/** Reports the request as a transport failure and gives the error a quote throws for it. */
export function unavailable(endpoint: ChainEndpoint, method: RpcMethod, cause: unknown): ChainUnavailableError {
  endpoint.observer?.({ chainId: endpoint.chainId, method, outcome: "transport_failure" });
  return new ChainUnavailableError(endpoint.chainId, { cause });
}
