// The README's five lines of viem (quote with taker, send trade.calls with sendCalls, wait for their status), taken
// from the README itself so that it cannot drift: they compile against the client's and viem's types, and run on the
// embedded chain with the typed client over HTTP, the demo's trader as the wallet. anvil has no EIP-5792, so viem falls
// back to one transaction after the other: the approval, then the trade; a position of the answer's maxSize opens.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import ts from "typescript";
import { createQuoterClient } from "../../client/src/index.ts";
import { DEMO_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { servedForFile } from "../support/liveService.ts";
import { runProcess } from "../support/processes.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const OUTPUT = new URL("../../test-output/", import.meta.url).pathname;
const TSC = new URL("../../node_modules/typescript/bin/tsc", import.meta.url).pathname;

/** The README's code block that trades: the one that asks with `taker`. */
function readmeLines(): string {
  const readme = readFileSync(`${ROOT}README.md`, "utf8");
  const block = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!).find((code) => code.includes("taker:"));
  assert.ok(block, "the README has a ts block that quotes with taker");
  return block;
}

const served = servedForFile({ probe: true });

test("the README's trade is five lines that compile against the client's and viem's types", async () => {
  const lines = readmeLines();
  assert.equal(lines.trim().split("\n").length, 5, lines);
  mkdirSync(OUTPUT, { recursive: true });
  const file = `${OUTPUT}readme-trade.ts`;
  writeFileSync(
    file,
    [
      'import type { Account, Chain, Hex, PublicClient, Transport, WalletClient } from "viem";',
      `import type { QuoterClient, QuoteRequest } from "${ROOT}client/src/index.ts";`,
      "declare const quoter: QuoterClient;",
      "declare const request: QuoteRequest;",
      "declare const wallet: WalletClient<Transport, Chain, Account>;",
      "declare const client: PublicClient;",
      "export async function readme(): Promise<void> {",
      lines,
      "}",
      "export type { Hex };",
    ].join("\n"),
  );
  const args = [TSC, "--noEmit", "--strict", "--noUncheckedIndexedAccess", "--skipLibCheck", "--target", "ES2022", "--module", "NodeNext", "--moduleResolution", "NodeNext", "--allowImportingTsExtensions", "--types", "node", file];
  const run = await runProcess(process.execPath, args);
  assert.equal(run.code, 0, run.stdout + run.stderr);
});

test("the README's trade, run as written on the embedded chain: sendCalls falls back to the approval, then the trade; a position of maxSize opens", async () => {
  const { traderClient: wallet, publicClient: client } = served.chain.devchain.chain;
  const quoter = createQuoterClient({ baseUrl: served.service.base });
  // The README's request (its client section): demo market 2, expectedPrice 1030, a budget of 1000 tokens.
  const request = { chainId: "31337", marketAddress: DEMO_MARKET_GROUP_ADDRESS, marketId: "2", expectedPrice: "1030", collateralAvailable: "1000000000000000000000" };
  const { maxSize } = await quoter.quote(request);
  const { trade } = await quoter.quote({ ...request, taker: wallet.account.address });
  const approvalTo = trade?.approval?.transaction.to;
  assert.ok(approvalTo, "nothing is approved on the demo: the approval is the first call");
  const positions = () => client.readContract({ address: DEMO_MARKET_GROUP_ADDRESS, abi: marketGroupAbi, functionName: "balanceOf", args: [wallet.account.address] });
  const before = await positions();
  const js = ts.transpileModule(readmeLines(), { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<void>;
  await new AsyncFunction("quoter", "request", "wallet", "client", js)(quoter, request, wallet, client);
  assert.equal(await positions(), before + 1n, "one position more");
  const head = await client.getBlock({ includeTransactions: true });
  const receipt = await client.getTransactionReceipt({ hash: head.transactions[0]!.hash });
  assert.equal(receipt.status, "success");
  assert.equal(receipt.to?.toLowerCase(), DEMO_MARKET_GROUP_ADDRESS.toLowerCase(), "the trade is the last call");
  const approval = (await client.getBlock({ blockNumber: head.number - 1n, includeTransactions: true })).transactions[0];
  assert.equal(approval?.to?.toLowerCase(), approvalTo.toLowerCase(), "the approval was mined the block before");
  const logs = (await client.getContractEvents({ address: DEMO_MARKET_GROUP_ADDRESS, abi: marketGroupAbi, eventName: "Transfer", fromBlock: head.number, toBlock: head.number })) as unknown as { args: { tokenId: bigint } }[];
  const size = await client.readContract({ address: DEMO_MARKET_GROUP_ADDRESS, abi: marketGroupAbi, functionName: "getPositionSize", args: [logs[0]!.args.tokenId] });
  assert.equal(size, BigInt(maxSize), "the position is the answer's maxSize");
});
