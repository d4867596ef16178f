// A raw eth_call: its success flag and return (or revert) data, at a block named by its hash. A transport failure
// throws; so does a node that does not have the block (BlockUnknownError), which is not a failure of the node.
import { isHex, numberToHex, type Address, type BlockTag, type Hex } from "viem";
import { BlockUnknownError, ChainUnavailableError, EndpointRestingError, StateOverrideRefusedError, classifyRpcError, refusesStateOverride } from "./chainErrors.ts";

export { StateOverrideRefusedError };
import { ChainOverloadedError, RequestAbandonedError } from "./limiter.ts";
import type { ChainEndpoint, RpcMethod } from "./client.ts";
import { postJsonRpc, RpcTransportError, type JsonRpcAnswer, type JsonRpcError } from "./transport.ts";

const QUANTITY = /^0x[0-9a-fA-F]+$/;

/** What one call of the market group answered: return data on success, revert data otherwise. */
export interface RawCall {
  readonly success: boolean;
  readonly data: Hex;
}

/** One block, by number and hash: every read of a quote names it by its hash (EIP-1898), so that it is that block's. */
export interface BlockPin {
  readonly number: bigint;
  readonly hash: Hex;
}

/**
 * A quote's count of the JSON-RPC requests it sent (its log line): the caller passes one and reads it after;
 * requests of the endpoint's own business (its chain id, the head) are made without one.
 */
export interface RpcTally {
  rpcRequests: number;
  /** Gas the searchers' candidates used, as the searchers measured it (single calls only; none: no searcher ran). */
  searchGas?: bigint;
}

/** Where a quote's reads are made: at one block, until the signal aborts (its deadline), counted in the tally. */
export interface ReadContext {
  readonly block: BlockPin;
  readonly signal?: AbortSignal | undefined;
  readonly tally?: RpcTally | undefined;
}

export interface CallRequest {
  /** The sender (a trade simulated from its taker, semantics §12); none: the node's default. */
  readonly from?: Address;
  /** Omitted for a deployless call: `data` is then creation code. */
  readonly to?: Hex;
  readonly data: Hex;
  /** A pinned block (by its hash), a block number, or a tag. */
  readonly block: BlockPin | bigint | BlockTag;
  readonly gas?: bigint;
  /**
   * Code run in place of an account's for the call (eth_call's state override): the position searcher at the owner's
   * address (semantics §13).
   */
  readonly codeAt?: { readonly address: Address; readonly code: Hex };
  /** The call answers by reverting (the deployless searcher): a revert is then counted as `ok`. */
  readonly answersByReverting?: boolean;
  /** Once aborted (the quote's deadline passed), the request is not sent, or is abandoned. */
  readonly signal?: AbortSignal | undefined;
  /** Counts the request (when it is sent). */
  readonly tally?: RpcTally | undefined;
}

/** The JSON-RPC form of a block: `{ blockHash }` for a pinned block (EIP-1898), a quantity, or the tag. */
export function blockParam(block: BlockPin | bigint | BlockTag): unknown {
  if (typeof block === "bigint") return numberToHex(block);
  if (typeof block === "string") return block;
  return { blockHash: block.hash };
}

/**
 * `eth_call`; a revert is an answer (semantics §1). A node that does not have the block throws
 * {@link BlockUnknownError}; anything else failing throws {@link ChainUnavailableError}: a transport failure, an error
 * the node answered that is no execution's, or a result that is not hex data.
 */
export async function ethCall(endpoint: ChainEndpoint, request: CallRequest): Promise<RawCall> {
  const { block } = request;
  if (typeof block === "object" && endpoint.state.blocksByNumber === true) return callByNumber(endpoint, request, block);
  const answer = await send(endpoint, "eth_call", callParams(request, blockParam(block)), request.signal, request.tally);
  if (answer.error !== undefined && typeof block === "object" && refusesBlockObject(answer.error)) {
    endpoint.observer?.({ chainId: endpoint.chainId, method: "eth_call", outcome: "refused" });
    const read = await callByNumber(endpoint, request, block);
    // Only once the call by number was answered: a refusal of something else than the block would fail it too.
    readByNumberFromNow(endpoint, answer.error);
    return read;
  }
  return callAnswer(endpoint, request, answer);
}

/**
 * How nodes that take no EIP-1898 block object in `eth_call` refuse one: ganache 7's -32700 `Cannot wrap a
 * "object" as a json-rpc type`, OpenEthereum's -32602 `Invalid params: invalid type: map, expected …`. Narrow on
 * purpose: ganache answers a block it does not have with the same -32700 (`header not found`), which is not this.
 */
const BLOCK_OBJECT_REFUSED = /cannot wrap an? "?object"? as a json-rpc type|invalid type: map, expected/i;

export function refusesBlockObject(error: JsonRpcError): boolean {
  return BLOCK_OBJECT_REFUSED.test(error.message);
}

/** eth_call's parameters: the call, the block, and the state override when there is one. */
function callParams(request: CallRequest, block: unknown): unknown[] {
  const { codeAt } = request;
  return codeAt === undefined ? [callObject(request), block] : [callObject(request), block, { [codeAt.address]: { code: codeAt.code } }];
}

function callObject(request: CallRequest) {
  return {
    ...(request.from === undefined ? {} : { from: request.from }),
    ...(request.to === undefined ? {} : { to: request.to }),
    data: request.data,
    ...(request.gas === undefined ? {} : { gas: numberToHex(request.gas) }),
  };
}

/**
 * The call at the pin's number, for a node that takes no block object; then the block at that number, whose hash
 * must still be the pin's: else the call may have run on another block (a reorg meanwhile), and is not answered.
 */
async function callByNumber(endpoint: ChainEndpoint, request: CallRequest, block: BlockPin): Promise<RawCall> {
  const answer = await send(endpoint, "eth_call", callParams(request, numberToHex(block.number)), request.signal, request.tally);
  const read = callAnswer(endpoint, request, answer);
  await checkBlockAtNumber(endpoint, block, request);
  return read;
}

/**
 * After a request made by the pin's number (a node that takes no block object): the block at that number must still
 * be the pin's, else the request may have run on another block (a reorg meanwhile) and is not answered.
 */
export async function checkBlockAtNumber(endpoint: ChainEndpoint, block: BlockPin, request: Pick<CallRequest, "signal" | "tally">): Promise<void> {
  const header = await send(endpoint, "eth_getBlockByNumber", [numberToHex(block.number), false], request.signal, request.tally);
  const hash = header.error === undefined ? (header.result as { hash?: unknown } | null)?.hash : undefined;
  if (typeof hash !== "string" || hash.toLowerCase() !== block.hash) {
    if (header.error !== undefined && classifyRpcError(header.error).kind === "transport") throw unavailable(endpoint, "eth_getBlockByNumber", notAnExecution(header.error));
    endpoint.observer?.({ chainId: endpoint.chainId, method: "eth_getBlockByNumber", outcome: "unknown_block" });
    const unknown = new BlockUnknownError(endpoint.chainId, `${endpoint.source} has another block than ${block.hash} at ${block.number} (read by number: it takes no block hash)`);
    unknown.source = endpoint.source;
    throw unknown;
  }
  endpoint.observer?.({ chainId: endpoint.chainId, method: "eth_getBlockByNumber", outcome: "ok" });
}

/** From now on the endpoint is read by block number; said once. */
export function readByNumberFromNow(endpoint: ChainEndpoint, refusal: JsonRpcError): void {
  if (endpoint.state.blocksByNumber === true) return;
  endpoint.state.blocksByNumber = true;
  endpoint.log?.warn(
    { chainId: endpoint.chainId, endpoint: endpoint.label, refusal: `JSON-RPC error ${refusal.code}: ${refusal.message.slice(0, 80)}` },
    `${endpoint.source} takes no EIP-1898 block hash in eth_call: it is read by block number from now on, each answer's block checked by its hash`,
  );
}

/** What an eth_call answered: its data, a revert, or the failure it throws (the block unknown, the transport). */
function callAnswer(endpoint: ChainEndpoint, request: CallRequest, answer: JsonRpcAnswer): RawCall {
  if (answer.error === undefined) {
    const data = answer.result ?? "0x";
    if (!isHex(data)) {
      throw unavailable(endpoint, "eth_call", new RpcTransportError("eth_call answered a result that is not hex data"));
    }
    endpoint.observer?.({ chainId: endpoint.chainId, method: "eth_call", outcome: "ok" });
    return { success: true, data };
  }
  const failure = classifyRpcError(answer.error);
  if (failure.kind === "unknown-block") throw blockUnknown(endpoint, "eth_call", request.block, answer.error);
  if (failure.kind === "transport" && request.codeAt !== undefined && refusesStateOverride(answer.error)) {
    endpoint.observer?.({ chainId: endpoint.chainId, method: "eth_call", outcome: "refused" });
    throw new StateOverrideRefusedError(endpoint, answer.error);
  }
  if (failure.kind === "transport") throw unavailable(endpoint, "eth_call", notAnExecution(answer.error));
  endpoint.observer?.({ chainId: endpoint.chainId, method: "eth_call", outcome: request.answersByReverting ? "ok" : "reverted" });
  return { success: false, data: failure.data };
}

/** The latest block number (readiness). */
export async function latestBlockNumber(endpoint: ChainEndpoint, signal?: AbortSignal): Promise<bigint> {
  const answer = await send(endpoint, "eth_blockNumber", [], signal);
  if (answer.error !== undefined) throw unavailable(endpoint, "eth_blockNumber", notAnExecution(answer.error));
  const number = quantity(answer.result);
  if (number === undefined) {
    throw unavailable(endpoint, "eth_blockNumber", new RpcTransportError("eth_blockNumber answered a result that is not a quantity"));
  }
  endpoint.observer?.({ chainId: endpoint.chainId, method: "eth_blockNumber", outcome: "ok" });
  return number;
}

/** A JSON-RPC quantity (`0x` and hex digits) as a number; undefined for anything else. */
export function quantity(value: unknown): bigint | undefined {
  return typeof value === "string" && QUANTITY.test(value) ? BigInt(value) : undefined;
}

/**
 * One request through the chain's limiter. A refusal of the limiter passes through as it is; a request sent that
 * got no answer is reported to the observer and throws {@link ChainUnavailableError}. An endpoint resting after a
 * rate limit is not asked at all; one that answered "rate limited" rests for its `Retry-After`; one that failed
 * is asked its chain id again before it serves another quote (it may have come back as another node).
 */
export async function send(
  endpoint: ChainEndpoint,
  method: RpcMethod,
  params: readonly unknown[],
  signal?: AbortSignal,
  tally?: RpcTally,
): Promise<JsonRpcAnswer> {
  const rest = endpoint.state.restingUntil - Date.now();
  if (rest > 0) {
    const resting = new EndpointRestingError(endpoint.chainId, rest);
    resting.source = endpoint.source;
    throw resting;
  }
  try {
    return await endpoint.limiter.run(() => {
      if (tally) tally.rpcRequests++;
      return postJsonRpc(endpoint.target, method, params, signal);
    }, signal);
  } catch (error) {
    if (error instanceof ChainOverloadedError || error instanceof RequestAbandonedError) throw error;
    if (error instanceof RpcTransportError && error.restMs !== undefined) {
      endpoint.state.restingUntil = Math.max(endpoint.state.restingUntil, Date.now() + error.restMs);
    }
    if (!signal?.aborted) endpoint.state.chainId = "unchecked";
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
  const error = new ChainUnavailableError(endpoint.chainId, { cause });
  error.source = endpoint.source;
  return error;
}

/** The node does not have the block: counted apart (`unknown_block`), since the endpoint did not fail. */
export function blockUnknown(endpoint: ChainEndpoint, method: RpcMethod, block: CallRequest["block"], error: JsonRpcError): BlockUnknownError {
  endpoint.observer?.({ chainId: endpoint.chainId, method, outcome: "unknown_block" });
  const named = typeof block === "object" ? `block ${block.number} (${block.hash})` : `block ${String(block)}`;
  const unknown = new BlockUnknownError(endpoint.chainId, `${endpoint.source} does not have ${named} yet (JSON-RPC error ${error.code})`);
  unknown.source = endpoint.source;
  return unknown;
}
