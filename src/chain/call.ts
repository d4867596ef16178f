// A read of the market group at a pinned block, telling a revert from a transport failure.
import {
  decodeErrorResult,
  decodeFunctionResult,
  encodeFunctionData,
  type Abi,
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type ContractFunctionReturnType,
  type Hex,
} from "viem";
import { ChainUnavailableError, classifyCallError } from "./errors.ts";
import type { ChainClient } from "./client.ts";

export type CallResult<T> = { kind: "ok"; value: T } | { kind: "reverted"; data: Hex; errorName?: string };

export interface PinnedCall<
  abi extends Abi,
  name extends ContractFunctionName<abi>,
> {
  readonly abi: abi;
  readonly address: Address;
  readonly functionName: name;
  readonly args: ContractFunctionArgs<abi, "nonpayable" | "view" | "pure", name>;
  readonly blockNumber: bigint;
}

/**
 * `eth_call` of one contract function at `blockNumber`. A result that cannot be decoded counts as a revert
 * (semantics §1): no code at the address answers `0x`. A transport failure throws {@link ChainUnavailableError}.
 */
export async function callPinned<abi extends Abi, name extends ContractFunctionName<abi>>(
  chain: ChainClient,
  call: PinnedCall<abi, name>,
): Promise<CallResult<ContractFunctionReturnType<abi, "nonpayable" | "view" | "pure", name>>> {
  const data = encodeFunctionData({ abi: call.abi, functionName: call.functionName, args: call.args } as never);
  let returned: Hex | undefined;
  try {
    ({ data: returned } = await chain.client.call({ to: call.address, data, blockNumber: call.blockNumber }));
  } catch (error) {
    const failure = classifyCallError(error);
    if (failure.kind === "transport") throw new ChainUnavailableError(chain.chainId, { cause: error });
    return { kind: "reverted", data: failure.data, errorName: decodeErrorName(call.abi, failure.data) };
  }
  try {
    const value = decodeFunctionResult({ abi: call.abi, functionName: call.functionName, data: returned ?? "0x" } as never);
    return { kind: "ok", value: value as never };
  } catch {
    return { kind: "reverted", data: returned ?? "0x" };
  }
}

/** The custom error's name (or viem's built-in `Error`/`Panic`), or undefined when the data matches nothing. */
export function decodeErrorName(abi: Abi, data: Hex): string | undefined {
  if (data.length < 10) return undefined;
  try {
    return decodeErrorResult({ abi, data }).errorName;
  } catch {
    return undefined;
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
