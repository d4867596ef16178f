// Block headers as the head follower reads them (eth_getBlockByNumber, eth_getBlockByHash, or pushed by a
// newHeads subscription): number, hash, parent hash and timestamp, each checked.
import { isHash, numberToHex, type Hex } from "viem";
import { notAnExecution, quantity, send, unavailable } from "../rpc/call.ts";
import type { ChainEndpoint, RpcMethod } from "../rpc/client.ts";
import { classifyRpcError } from "../rpc/chainErrors.ts";
import { ensureChainId } from "../rpc/chainIdCheck.ts";
import { RpcTransportError } from "../rpc/transport.ts";

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
