// How a failed JSON-RPC call is read: a revert (the contract said no) or a transport failure (the chain
// could not be asked). Semantics §1: a JSON-RPC error carrying revert data, code 3, or a node's words for an
// EVM execution failure (out of gas, invalid opcode...) is a revert; every other failure is the transport's.
import { QuoterError } from "../../quote/quoterError.ts";
import { BaseError, RpcRequestError, isHex, type Hex } from "viem";
import { DEFAULT_RETRY_AFTER_SECONDS } from "../../quote/quoteErrors.ts";
import type { ChainEndpoint } from "./client.ts";
import { RpcTransportError, type JsonRpcError } from "./transport.ts";

/**
 * The chain could not be reached or did not answer properly: never a search outcome (semantics §6).
 * `reason` is safe to log: it names the failure, never the URL.
 */
export class ChainUnavailableError extends QuoterError {
  readonly reason: string;
  /** Where the endpoint is configured (`RPC_URL_10`), once known: what a user's message names. */
  source?: string;
  constructor(
    readonly chainId: number,
    options?: { cause?: unknown; reason?: string },
  ) {
    const reason = options?.reason ?? describeFailure(options?.cause);
    super("chain-unavailable", `chain ${chainId}: RPC unavailable (${reason})`, { cause: options?.cause });
    this.reason = reason;
  }
}

/**
 * The endpoint does not have the block the quote is pinned to: a node behind the chain's head (a lagging backend
 * of a load balancer), or a block a reorg replaced. Not a failure of the endpoint: the quote tries again at the
 * chain's head once the endpoint has it (semantics §11).
 */
export class BlockUnknownError extends ChainUnavailableError {
  override name = "BlockUnknownError";
  constructor(chainId: number, reason: string) {
    super(chainId, { reason });
  }
}

/**
 * The endpoint ran a pinned call at another block than the pin's (anvil, for one, resolves the hash to a number and
 * may run the call on the block it mined since): its answer is of no use, but the chain moved rather than the node
 * failed, so the quote tries again at the head, as for a block the node does not have.
 */
export class BlockMismatchError extends BlockUnknownError {
  override name = "BlockMismatchError";
}

/** The endpoint serves another chain than the one it is configured for: it never answers a quote. */
export class WrongChainError extends ChainUnavailableError {
  override name = "WrongChainError";
  constructor(
    chainId: number,
    override readonly source: string,
    readonly other: number,
  ) {
    super(chainId, { reason: `${source} serves chain ${other}, not ${chainId}` });
  }
}

/** The endpoint asked to be left alone (a rate limit's `Retry-After`) for `restMs` more: no request was sent. */
export class EndpointRestingError extends ChainUnavailableError {
  override name = "EndpointRestingError";
  constructor(
    chainId: number,
    readonly restMs: number,
  ) {
    super(chainId, { reason: `rate limited: resting for ${Math.ceil(restMs / 1000)} s more, as its Retry-After asked (no request sent)` });
  }
}

export interface EndpointFailure {
  readonly endpoint: ChainEndpoint;
  readonly error: ChainUnavailableError;
}

/** No endpoint of the chain answered: each one's failure, for the 503's details and for what to do next. */
export class EndpointsFailedError extends QuoterError {
  /** Each failure, as its detail says it: where the endpoint is configured (never its URL), what failed, what to check. */
  constructor(
    readonly chainId: number,
    readonly failures: readonly EndpointFailure[],
  ) {
    super("endpoints-failed", `chain ${chainId}: no endpoint answered`, {
      details: failures.map(({ error }) => ({ param: "chainId", message: failureDetail(error) })),
    });
  }

  /** An endpoint did not have the block yet: worth asking again at the chain's head (semantics §11). */
  get lagging(): boolean {
    return this.failures.some((failure) => failure.error instanceof BlockUnknownError);
  }

  /** How long a client should wait: until the first rate-limited endpoint rests no more, else the default. */
  get retryAfterSeconds(): number {
    // Each endpoint's rest as it stands now: one just answered 429 rests as long as one that was not asked.
    const now = Date.now();
    const rests = this.failures.map((failure) => failure.endpoint.state.restingUntil - now);
    const all = rests.length > 0 && rests.every((rest) => rest > 0);
    return all ? Math.max(1, Math.ceil(Math.min(...rests) / 1000)) : DEFAULT_RETRY_AFTER_SECONDS;
  }

}

/** What a user reads of one endpoint's failure: where it is configured, what failed, what to check. */
function failureDetail(error: ChainUnavailableError): string {
  if (error instanceof WrongChainError) {
    return `${error.reason}: point ${configuredIn(error.source)} at a node of chain ${error.chainId}`;
  }
  if (error instanceof BlockUnknownError) return error.reason;
  const hint = whatToCheck(error.reason);
  return `${error.source ?? `chain ${error.chainId}`}: ${error.reason}${hint ? `: ${hint}` : ""}`;
}

/** The variable (or flag) an endpoint's source names: `RPC_URL_10 (URL 2 of 3)` is set in `RPC_URL_10`. */
export function configuredIn(source: string): string {
  return source.replace(/ \(.*\)$/, "");
}

/** For a transport failure: what an operator checks first. */
function whatToCheck(reason: string): string | undefined {
  if (/ECONNREFUSED/.test(reason)) return "nothing listens at that host and port; check that the node runs and the URL";
  if (/ENOTFOUND|EAI_AGAIN/.test(reason)) return "the host name does not resolve; check the URL";
  if (/timed out/.test(reason)) return "the node did not answer in RPC_TIMEOUT_MS; check its load or raise RPC_TIMEOUT_MS";
  if (/HTTP (401|403)/.test(reason)) return "the endpoint refused the request; check the URL's API key";
  if (/HTTP 404/.test(reason)) return "no JSON-RPC endpoint at that path; check the URL";
  return undefined;
}

/** A short, URL-free description of a transport failure, for logs. */
function describeFailure(cause: unknown): string {
  if (cause instanceof RpcTransportError) return cause.reason;
  return cause instanceof Error ? cause.name : "unknown failure";
}

export type CallFailure = { kind: "reverted"; data: Hex } | { kind: "unknown-block" } | { kind: "transport" };

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

/**
 * How nodes say they do not have the block a request names: geth's `header not found` (by number) and `header for
 * hash not found`, anvil's `Resource not found` (EIP-1474's -32001, for a hash) and `BlockOutOfRangeError` (a
 * number past its head), erigon's and besu's `block not found`, nethermind's `Block … could not be found`,
 * `unknown block`. Not a failure of the endpoint: it lags, or the block was replaced (semantics §11).
 */
const UNKNOWN_BLOCK = /header (?:for hash )?not found|unknown block|block (?:\S+ )?not found|block \S* ?could not be found|BlockOutOfRange|resource not found/i;

/** Classifies an endpoint's JSON-RPC error. Hardhat/EDR: code -32603 with `data.data`; geth: code 3 with `data`. */
export function classifyRpcError(error: JsonRpcError): CallFailure {
  const data = revertData(error.data);
  if (data !== undefined) return { kind: "reverted", data };
  if (error.code === 3) return { kind: "reverted", data: "0x" };
  if (EXECUTION_FAILURE.test(error.message)) return { kind: "reverted", data: "0x" };
  if (error.code === -32001 || UNKNOWN_BLOCK.test(error.message)) return { kind: "unknown-block" };
  return { kind: "transport" };
}

/** {@link classifyRpcError} of an error thrown by a viem client's call (tools and tests); anything unanswered is the transport's. */
export function classifyCallError(error: unknown): { kind: "reverted"; data: Hex } | { kind: "transport" } {
  const rpcError = answeredRpcError(error);
  const failure = rpcError ? classifyRpcError({ code: rpcError.code, message: rpcError.details, data: rpcError.data }) : undefined;
  return failure?.kind === "reverted" ? failure : { kind: "transport" };
}

function revertData(data: unknown): Hex | undefined {
  if (typeof data === "string") return isHex(data) ? data : undefined;
  if (data !== null && typeof data === "object" && "data" in data) {
    const inner = (data as { data: unknown }).data;
    if (isHex(inner)) return inner;
  }
  return undefined;
}

/**
 * How nodes refuse eth_call's third parameter, the state override: invalid params (-32602: "too many arguments, want
 * at most 2", "invalid argument 2"), or a message that names it.
 */
const OVERRIDE_REFUSED = /override|too many arguments|argument 2|state/i;

export function refusesStateOverride(error: JsonRpcError): boolean {
  return error.code === -32602 || OVERRIDE_REFUSED.test(error.message);
}

/** The endpoint will not run a call with a state override: it is then quoted otherwise (semantics §13). */
export class StateOverrideRefusedError extends QuoterError {
  constructor(endpoint: ChainEndpoint, error: JsonRpcError) {
    super("state-override-refused", `${endpoint.source} refused eth_call's state override (JSON-RPC error ${error.code}: ${error.message.slice(0, 80)})`);
  }
}
