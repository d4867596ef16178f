// A raw eth_call: its success flag and return (or revert) data. A transport failure throws.
import type { BlockTag, Hex } from "viem";
import { ChainUnavailableError, classifyCallError } from "./errors.ts";
import type { ChainClient } from "./client.ts";

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
}

/** `eth_call`; a revert is an answer (semantics §1), anything else failing throws {@link ChainUnavailableError}. */
export async function ethCall(chain: ChainClient, request: CallRequest): Promise<RawCall> {
  const block = typeof request.block === "bigint" ? { blockNumber: request.block } : { blockTag: request.block };
  try {
    const { data } = await chain.client.call({ to: request.to, data: request.data, gas: request.gas, ...block });
    return { success: true, data: data ?? "0x" };
  } catch (error) {
    const failure = classifyCallError(error);
    if (failure.kind === "transport") throw new ChainUnavailableError(chain.chainId, { cause: error });
    return { success: false, data: failure.data };
  }
}

/** The latest block number, the pin of every read of one quote (semantics §3.4). */
export async function latestBlockNumber(chain: ChainClient): Promise<bigint> {
  try {
    return await chain.client.getBlockNumber({ cacheTime: 0 });
  } catch (error) {
    throw new ChainUnavailableError(chain.chainId, { cause: error });
  }
}
