// The devchain's memory does not grow with the gas a call burns: `npm run devchain`, run as a user runs it,
// answers ten 30,000,000-gas eth_calls of a contract that burns nearly all of it, and one call at the 60,000,000
// block gas limit, while its whole process tree (npm, node, the chain) stays under 1 GiB and keeps answering.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createPublicClient, createWalletClient, decodeFunctionResult, encodeFunctionData, http, numberToHex, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { TRADER_PRIVATE_KEY } from "../../src/devchain/chain.ts";
import { gasBurnerAbi, gasBurnerBytecode } from "../../src/generated/contracts.ts";
import { startCommand, type Running } from "../support/processes.ts";
import { isRunning, namedInTree, treeResidentBytes } from "../support/processTree.ts";
import { minedReceipt } from "../support/receipts.ts";

const GIB = 1024 ** 3;
const BURN = encodeFunctionData({ abi: gasBurnerAbi, functionName: "burn" });

let devchain: Running & { match: RegExpMatchArray };
let url: string;
let burner: Address;
let peak = 0;
let sampler: NodeJS.Timeout;

before(async () => {
  devchain = await startCommand(["run", "devchain", "--", "--port", "0"], {}, /listening on (http:\/\/\S+)/);
  url = devchain.match[1]!;
  // Sampled all along, so that a peak between two calls is seen too.
  sampler = setInterval(() => (peak = Math.max(peak, treeResidentBytes(devchain.child.pid!))), 50);
  const chain = { id: 31337, name: "devchain", nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [url] } } };
  const wallet = createWalletClient({ chain, transport: http(url), account: privateKeyToAccount(TRADER_PRIVATE_KEY) });
  const client = createPublicClient({ chain, transport: http(url) });
  const receipt = await minedReceipt(client, await wallet.deployContract({ abi: gasBurnerAbi, bytecode: gasBurnerBytecode }));
  burner = receipt.contractAddress!;
});
after(async () => {
  clearInterval(sampler);
  const [anvil] = namedInTree(devchain.child.pid!, "anvil");
  // npm itself ends by the signal (null); the devchain under it closes the chain and exits 0.
  const code = await devchain.stop();
  assert.ok(code === 0 || code === null, `npm run devchain exited with ${code}`);
  for (let waited = 0; anvil !== undefined && isRunning(anvil) && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(anvil === undefined || !isRunning(anvil), "the chain stopped with npm run devchain");
});

/** One JSON-RPC request; the parsed body (a result or an error), or a throw when no JSON-RPC answer came. */
async function rpc(method: string, params: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
}

const burnCall = (gas: bigint) => rpc("eth_call", [{ to: burner, data: BURN, gas: numberToHex(gas) }, "latest"]);

test("the chain is a process of its own under npm run devchain (anvil)", () => {
  assert.equal(namedInTree(devchain.child.pid!, "anvil").length, 1);
});

test("ten eth_calls of 30,000,000 gas, each burning over 99% of it: the devchain's process tree stays under 1 GiB", async (t) => {
  const answers = await Promise.all(Array.from({ length: 10 }, () => burnCall(30_000_000n)));
  for (const answer of answers) {
    assert.equal(answer.error, undefined, JSON.stringify(answer.error));
    const [rounds, left] = decodeFunctionResult({ abi: gasBurnerAbi, functionName: "burn", data: answer.result as Hex });
    assert.ok(rounds > 100_000n, `only ${rounds} hashes`);
    assert.ok(left < 300_000n, `${left} gas left of 30,000,000`);
  }
  peak = Math.max(peak, treeResidentBytes(devchain.child.pid!));
  assert.ok(peak < GIB, `process tree peaked at ${Math.round(peak / 2 ** 20)} MiB`);
  t.diagnostic(`process tree peak ${Math.round(peak / 2 ** 20)} MiB`);
});

test("one eth_call at the 60,000,000 block gas limit answers (a result or an error), and the node keeps answering", async (t) => {
  const answer = await burnCall(60_000_000n);
  assert.ok(answer.result !== undefined || answer.error !== undefined, JSON.stringify(answer));
  if (answer.result !== undefined) {
    const [, left] = decodeFunctionResult({ abi: gasBurnerAbi, functionName: "burn", data: answer.result as Hex });
    assert.ok(left < 300_000n, `${left} gas left of 60,000,000`);
  }
  assert.deepEqual(await rpc("eth_chainId", []), { jsonrpc: "2.0", id: 1, result: "0x7a69" });
  assert.equal(namedInTree(devchain.child.pid!, "anvil").length, 1, "the chain is still running");
  peak = Math.max(peak, treeResidentBytes(devchain.child.pid!));
  assert.ok(peak < GIB, `process tree peaked at ${Math.round(peak / 2 ** 20)} MiB`);
  t.diagnostic(`${answer.error ? `error ${answer.error.code} ${answer.error.message}` : "a result"}; process tree peak ${Math.round(peak / 2 ** 20)} MiB`);
});
