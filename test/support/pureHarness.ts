// A test-only contract of pure functions, asked as a deployless eth_call on an embedded chain that the test file
// starts and stops: how the contract tests put a rule's Solidity beside its TypeScript.
import { after, before } from "node:test";
import { createPublicClient, decodeFunctionResult, encodeFunctionData, http, type Abi, type Hex, type PublicClient } from "viem";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";

/** Registers the file's chain (before and after its tests); the function calls the harness's `functionName`. */
export function pureHarness(abi: Abi, bytecode: Hex): (functionName: string, args: readonly unknown[]) => Promise<unknown> {
  let devchain: Devchain;
  let client: PublicClient;
  before(async () => {
    devchain = await startDevchain();
    client = createPublicClient({ transport: http(devchain.endpoint.url) });
  });
  after(() => devchain.close());
  return async (functionName, args) => {
    const data = encodeFunctionData({ abi, functionName, args } as never);
    const { data: returned } = await client.call({ code: bytecode, data });
    return decodeFunctionResult({ abi, functionName, data: returned as Hex } as never) as unknown;
  };
}
