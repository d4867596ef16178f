// How a failed JSON-RPC call is read: a revert (the contract said no) or a transport failure (the chain
// could not be asked). Semantics §1: a JSON-RPC error carrying revert data, code 3, or a node's words for an
// EVM execution failure (out of gas, invalid opcode...) is a revert; every other failure is the transport's.
import { BaseError, RpcRequestError, isHex, type Hex } from "viem";
import { RpcTransportError, type JsonRpcError } from "./transport.ts";

/**
 * The chain could not be reached or did not answer properly: never a search outcome (semantics §6).
 * `reason` is safe to log: it names the failure, never the URL.
 */
export class ChainUnavailableError extends Error {
  override name = "ChainUnavailableError";
  readonly reason: string;
  constructor(
    readonly chainId: number,
    options?: { cause?: unknown; reason?: string },
  ) {
    const reason = options?.reason ?? describeFailure(options?.cause);
    super(`chain ${chainId}: RPC unavailable (${reason})`, { cause: options?.cause });
    this.reason = reason;
  }
}

/** A short, URL-free description of a transport failure, for logs. */
function describeFailure(cause: unknown): string {
  if (cause instanceof RpcTransportError) return cause.reason;
  return cause instanceof Error ? cause.name : "unknown failure";
}

export type CallFailure = { kind: "reverted"; data: Hex } | { kind: "transport" };

/**
 * The JSON-RPC error a viem client's call failed on, when the endpoint answered one: an answer, not an HTTP error
 * (a JSON-RPC error body on a non-2xx response counts as an HTTP error). For tools and tests that call through viem.
 */
function answeredRpcError(error: unknown): RpcRequestError | undefined {
  const rpcError =
    error instanceof RpcRequestError
      ? error
      : error instanceof BaseError
        ? (error.walk((cause) => cause instanceof RpcRequestError) as RpcRequestError | null)
        : null;
  return rpcError && rpcError.status === undefined ? rpcError : undefined;
}

/**
 * How nodes word an EVM execution failure that carries no revert data (semantics §1): anvil's `EVM error
 * OutOfGas`, `InvalidFEOpcode`, `MemoryLimitOOG`, `OpcodeNotFound`, `NotActivated`, `StackOverflow`...; geth's
 * `out of gas`, `invalid opcode: …`, `stack underflow`, `stack limit reached`, `invalid jump destination`,
 * `max call depth exceeded`; EDR's and ganache's `out of gas` and `invalid opcode` (they attach `0x` data too).
 * Refusals of the request itself (`intrinsic gas too low`, `gas required exceeds allowance`, a block gas limit)
 * are not executions and do not match.
 */
const EXECUTION_FAILURE =
  /\b(?:EVM error (?:\w*OOG|OutOfGas|\w*Opcode\w*|InvalidJump|NotActivated|Stack\w+|OutOfOffset|CallTooDeep|StateChangeDuringStaticCall|CallNotAllowedInsideStatic|CreateContractSizeLimit|\w*Overflow\w*)\b|out of gas|invalid opcode|opcode not (?:found|defined|activated)|undefined opcode|stack (?:underflow|overflow|limit)|invalid jump|call depth|memory limit)/i;

/** Classifies an endpoint's JSON-RPC error. Hardhat/EDR: code -32603 with `data.data`; geth: code 3 with `data`. */
export function classifyRpcError(error: JsonRpcError): CallFailure {
  const data = revertData(error.data);
  if (data !== undefined) return { kind: "reverted", data };
  if (error.code === 3) return { kind: "reverted", data: "0x" };
  if (EXECUTION_FAILURE.test(error.message)) return { kind: "reverted", data: "0x" };
  return { kind: "transport" };
}

/** {@link classifyRpcError} of an error thrown by a viem client's call (tools and tests); anything unanswered is the transport's. */
export function classifyCallError(error: unknown): CallFailure {
  const rpcError = answeredRpcError(error);
  return rpcError ? classifyRpcError({ code: rpcError.code, message: rpcError.details, data: rpcError.data }) : { kind: "transport" };
}

function revertData(data: unknown): Hex | undefined {
  if (typeof data === "string") return isHex(data) ? data : undefined;
  if (data !== null && typeof data === "object" && "data" in data) {
    const inner = (data as { data: unknown }).data;
    if (isHex(inner)) return inner;
  }
  return undefined;
}
