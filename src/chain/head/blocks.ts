// Block headers as the head follower reads them (eth_getBlockByNumber, eth_getBlockByHash, or pushed by a
// newHeads subscription): number, hash, parent hash and timestamp, each checked; and an endpoint's chain id.
import { isHash, numberToHex, type Hex } from "viem";
import { notAnExecution, quantity, send, unavailable } from "../rpc/call.ts";
import type { ChainEndpoint, RpcMethod } from "../rpc/client.ts";
import { classifyRpcError, WrongChainError } from "../rpc/chainErrors.ts";
import { RpcTransportError } from "../rpc/transport.ts";
import { abortable } from "../rpc/waiting.ts";

export interface BlockHeader {
  readonly number: bigint;
  /** Lower case, 32 bytes. */
  readonly hash: Hex;
  readonly parentHash: Hex;
  /** Seconds. */
  readonly timestamp: bigint;
}

/** A header from a JSON-RPC block object; undefined when a field is missing or malformed. */
export function readHeader(value: unknown): BlockHeader | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const block = value as Record<string, unknown>;
  const number = quantity(block.number);
  const timestamp = quantity(block.timestamp);
  const { hash, parentHash } = block;
  if (number === undefined || timestamp === undefined) return undefined;
  if (typeof hash !== "string" || !isHash(hash) || typeof parentHash !== "string" || !isHash(parentHash)) return undefined;
  return { number, hash: hash.toLowerCase() as Hex, parentHash: parentHash.toLowerCase() as Hex, timestamp };
}

/** The endpoint's latest block. A null or malformed answer is the transport's failure. */
export function latestHeader(endpoint: ChainEndpoint, signal?: AbortSignal): Promise<BlockHeader> {
  return header(endpoint, "eth_getBlockByNumber", ["latest", false], signal).then((found) => {
    if (found === undefined) throw unavailable(endpoint, "eth_getBlockByNumber", new RpcTransportError("the latest block is null"));
    return found;
  });
}

/** The endpoint's block at this height, or undefined when it has none there (yet). */
export function headerByNumber(endpoint: ChainEndpoint, number: bigint, signal?: AbortSignal): Promise<BlockHeader | undefined> {
  return header(endpoint, "eth_getBlockByNumber", [numberToHex(number), false], signal);
}

/** The block with this hash, or undefined when the endpoint does not have it. */
export function headerByHash(endpoint: ChainEndpoint, hash: Hex, signal?: AbortSignal): Promise<BlockHeader | undefined> {
  return header(endpoint, "eth_getBlockByHash", [hash, false], signal);
}

async function header(endpoint: ChainEndpoint, method: RpcMethod, params: readonly unknown[], signal?: AbortSignal): Promise<BlockHeader | undefined> {
  const answer = await send(endpoint, method, params, signal);
  if (answer.error !== undefined) {
    if (classifyRpcError(answer.error).kind === "unknown-block") return undefined;
    throw unavailable(endpoint, method, notAnExecution(answer.error));
  }
  if (answer.result === null) {
    endpoint.observer?.({ chainId: endpoint.chainId, method, outcome: "ok" });
    return undefined;
  }
  const read = readHeader(answer.result);
  if (read === undefined) throw unavailable(endpoint, method, new RpcTransportError(`${method} answered something that is not a block`));
  endpoint.observer?.({ chainId: endpoint.chainId, method, outcome: "ok" });
  return read;
}

/** eth_chainId as a number; a malformed answer is the transport's failure. */
export async function readChainId(endpoint: ChainEndpoint, signal?: AbortSignal): Promise<number> {
  const answer = await send(endpoint, "eth_chainId", [], signal);
  const id = answer.error === undefined ? quantity(answer.result) : undefined;
  if (id === undefined || id > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw unavailable(endpoint, "eth_chainId", answer.error ? notAnExecution(answer.error) : new RpcTransportError("eth_chainId answered something that is not a quantity"));
  }
  endpoint.observer?.({ chainId: endpoint.chainId, method: "eth_chainId", outcome: "ok" });
  return Number(id);
}

/** How long an endpoint found serving another chain is refused before it is asked its chain id again, in ms. */
const WRONG_CHAIN_RECHECK_MS = 10_000;

/**
 * Before an endpoint serves a quote, and again after it failed: does it serve the chain it is configured for?
 * Concurrent callers share one eth_chainId. Throws {@link WrongChainError} when it serves another chain (asked
 * again at most every 10 s), or the transport's failure.
 */
export function ensureChainId(endpoint: ChainEndpoint, signal?: AbortSignal): Promise<void> {
  const { state } = endpoint;
  if (state.chainId === "ok") return Promise.resolve();
  const wrong = () => {
    const known = state.chainId;
    if (typeof known === "object") throw new WrongChainError(endpoint.chainId, endpoint.source, known.other);
  };
  if (typeof state.chainId === "object" && Date.now() - (state.checkedAt ?? 0) < WRONG_CHAIN_RECHECK_MS) {
    return Promise.resolve().then(wrong);
  }
  // The endpoint's own business, shared by whoever waits: not counted against the quote that happened to ask.
  state.checking ??= readChainId(endpoint)
    .then((id) => {
      state.chainId = id === endpoint.chainId ? "ok" : { other: id };
      state.checkedAt = Date.now();
    })
    .finally(() => {
      state.checking = undefined;
    });
  const checked = state.checking.then(wrong);
  if (signal === undefined) return checked;
  // A quote that gives up does not wait for the check, which others may still share.
  return abortable(checked, signal);
}

/** A header by hash, from the first of `endpoints` that has it (each asked its chain id first); undefined when none does. */
export async function headerFromAny(endpoints: readonly ChainEndpoint[], hash: Hex): Promise<BlockHeader | undefined> {
  for (const endpoint of endpoints) {
    try {
      await ensureChainId(endpoint);
      const found = await headerByHash(endpoint, hash);
      if (found !== undefined) return found;
    } catch {
      // the next endpoint
    }
  }
  return undefined;
}
