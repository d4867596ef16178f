// The packed client's declarations as a frontend's compiler sees them: tsc (strict, browser libraries only) on a
// small consumer in the folder the tarball was installed into. Correct calls compile; each `@ts-expect-error`
// line marks a call the types must refuse (a missing required parameter, a number where a decimal string goes):
// with the directives tsc passes, and without any one of them it fails on that very line.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runProcess } from "../support/processes.ts";
import { installPackedClient, type PackedClient } from "../support/packedClient.ts";

const TSC = new URL("../../node_modules/typescript/bin/tsc", import.meta.url).pathname;

const CONSUMER = `import { createQuoterClient, exact, QuoterError, QuoterNetworkError, type Decimal, type QuoteAnswer, type Trade } from "@quoter/client";

const client = createQuoterClient({ baseUrl: "http://127.0.0.1:3000", headers: { "x-api-key": "k" }, fetch: (input, init) => fetch(input, init) });
const marketAddress = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const request = { chainId: "31337", marketAddress, marketId: "2", expectedPrice: "1030", collateralAvailable: "1000000000000000000000" };

export async function correct(signal: AbortSignal): Promise<bigint> {
  const answer: QuoteAnswer = await client.quote(request, { signal, minBlock: 7n, noCache: true });
  const size: string = answer.maxSize;
  const limitedBy: "expectedPrice" | "collateral" | "liquidity" | "search" = answer.limitedBy;
  await client.quote({ ...request, search: "exact", trace: "true", priceLimit: "1001", maxIterations: "5" }, { minBlock: "7" });
  const read = exact(answer);
  const wei: bigint = read.maxSize + read.requiredCollateral + read.blockNumber;
  const price: Decimal = read.fillPrice;
  const batch = await client.batch({ chainId: "31337", quotes: [{ marketAddress, marketId: "1", expectedPrice: "0.55", collateralAvailable: "1", search: "exact" }] }, { signal });
  const status: number = batch.results[0]!.status;
  const depth = await client.depth({ chainId: "31337", marketAddress, marketId: "2", collateralAvailable: "1", to: "1100", levels: "10" });
  const level = depth.levels[0]!;
  const levelSize: string | undefined = "maxSize" in level ? level.maxSize : undefined;
  for await (const event of client.watch(request, { signal, retry: { maxDelayMs: 5000 }, idleTimeoutMs: 60000 })) {
    if (event.type === "quote") { const streamed: string = event.answer.maxSize; void streamed; }
    else if (event.type === "error") { const code: number = event.answer.status; void code; }
    else if (event.type === "reconnecting") { const wait: number = event.delayMs; void wait; }
    else { const reason: "settled" | "expired" | "transferred" = event.reason; void reason; }
  }
  for await (const event of client.watch({ chainId: "31337", quotes: [{ marketAddress, marketId: "1", expectedPrice: "0.55", collateralAvailable: "1" }] })) {
    if (event.type === "quote") { const results: number = event.answer.results.length; void results; }
  }
  try {
    await client.quote(request);
  } catch (error) {
    if (error instanceof QuoterError) { const later: number | undefined = error.retryAfter; const param: string | undefined = error.details[0]?.param; void later; void param; }
    if (error instanceof QuoterNetworkError) { const url: string = error.url; void url; }
  }
  void size; void limitedBy; void price; void status; void levelSize;
  return wei + price.value + (await traded(signal));
}

const taker = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

export async function traded(signal: AbortSignal): Promise<bigint> {
  const answer = await client.quote({ ...request, taker, slippageBps: "50", deadlineSeconds: "300" }, { signal });
  const trade: Trade | undefined = answer.trade;
  if (trade === undefined) return 0n;
  const sent: { to: string; data: string; value: string } = trade.transaction;
  const approveFirst: string | undefined = trade.approval?.transaction.data;
  const held: string | undefined = trade.balance?.available;
  const { simulation } = trade;
  let said = "";
  if (simulation.ok === true) said = simulation.gas ?? "gas not measured";
  else if (simulation.ok === false) said = simulation.revert + JSON.stringify(simulation.revertArgs ?? {});
  else said = simulation.reason;
  const batch = await client.batch({ chainId: "31337", quotes: [{ marketAddress, marketId: "1", expectedPrice: "0.55", collateralAvailable: "1", taker, slippageBps: "0" }] });
  const depth = await client.depth({ chainId: "31337", marketAddress, marketId: "2", collateralAvailable: "1", prices: "1030", taker, deadlineSeconds: "60" });
  const position = await client.quotePosition({ chainId: "31337", marketAddress, positionId: "1", expectedPrice: "0.45", collateralAvailable: "0", taker });
  const target: string = position.targetSize;
  const delta: string = position.collateralDelta;
  void sent; void approveFirst; void held; void said; void batch; void depth; void target; void delta;
  return BigInt(trade.collateralLimit) + BigInt(trade.deadline);
}

export async function refused(): Promise<void> {
  // @ts-expect-error collateralAvailable is required
  await client.quote({ chainId: "31337", marketAddress, marketId: "2", expectedPrice: "1030" });
  // @ts-expect-error a number where a decimal string goes
  await client.quote({ ...request, expectedPrice: 1030 });
  // @ts-expect-error a number where a wei string goes
  await client.quote({ ...request, collateralAvailable: 1e21 });
  // @ts-expect-error the chain id is a string too
  await client.quote({ ...request, chainId: 31337 });
  // @ts-expect-error minBlock is a decimal string or a bigint, not a number
  await client.quote(request, { minBlock: 7 });
  // @ts-expect-error search is bisection or exact
  await client.quote({ ...request, search: "fast" });
  // @ts-expect-error a batch's quote names its market
  await client.batch({ chainId: "31337", quotes: [{ marketId: "1", expectedPrice: "0.55", collateralAvailable: "1" }] });
  // @ts-expect-error a position's quote names the position, not a market
  await client.quotePosition({ chainId: "31337", marketAddress, marketId: "1", expectedPrice: "0.55", collateralAvailable: "1" });
  // @ts-expect-error a depth ladder's budget is a wei string
  await client.depth({ chainId: "31337", marketAddress, marketId: "2", collateralAvailable: 1, prices: "1030" });
  // @ts-expect-error an answer's amount is a string as sent, not a number
  const size: number = (await client.quote(request)).maxSize;
  // @ts-expect-error exact's prices are exact decimals, never a Number
  const price: number = exact(await client.quote(request)).fillPrice;
  // @ts-expect-error baseUrl is required
  createQuoterClient({});
  // @ts-expect-error a taker is an address string, not a number
  await client.quote({ ...request, taker: 0x70997970c51812dc3a010c7d01b50e0d17dc79c8 });
  // @ts-expect-error slippageBps is a decimal string, as every parameter
  await client.quote({ ...request, taker: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", slippageBps: 50 });
  // @ts-expect-error an answer has a trade only when asked with a taker: it may be absent
  const limit: string = (await client.quote(request)).trade.collateralLimit;
  const simulation = (await client.quote(request)).trade?.simulation;
  // @ts-expect-error a simulation that reverted says why, and no gas
  if (simulation?.ok === false) { const gas: string = simulation.gas; void gas; }
  void size; void price; void limit;
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "ESNext",
    moduleResolution: "Bundler",
    lib: ["ES2022", "DOM", "DOM.Iterable"],
    types: [],
    strict: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    skipLibCheck: false,
  },
  files: ["consumer.ts"],
};

let packed: PackedClient;
before(async () => {
  packed = await installPackedClient();
  writeFileSync(join(packed.dir, "tsconfig.json"), JSON.stringify(TSCONFIG, null, 2));
});
after(() => packed?.remove());

/** tsc on the consumer `source`: its exit code and the lines (1-based) it reports errors on. */
async function compile(source: string): Promise<{ code: number | null; lines: number[]; output: string }> {
  writeFileSync(join(packed.dir, "consumer.ts"), source);
  const run = await runProcess(process.execPath, [TSC, "-p", packed.dir, "--pretty", "false"]);
  const output = run.stdout + run.stderr;
  const lines = [...output.matchAll(/consumer\.ts\((\d+),\d+\): error/g)].map((match) => Number(match[1]));
  return { code: run.code, lines: [...new Set(lines)].sort((a, b) => a - b), output };
}

const directives = CONSUMER.split("\n").flatMap((line, index) => (line.includes("@ts-expect-error") ? [index + 1] : []));

test("the consumer compiles against the packed declarations: correct calls pass, every refused call is expected", { timeout: 120_000 }, async () => {
  assert.equal(directives.length, 16);
  const { code, output } = await compile(CONSUMER);
  assert.equal(code, 0, output);
});

test("without any one directive, tsc fails on the line it marked (and on no other)", { timeout: 120_000 }, async () => {
  // Every directive at once: one run tells that each marked line is an error on its own.
  const bare = await compile(CONSUMER.replace(/\/\/ @ts-expect-error/g, "// expected:"));
  assert.notEqual(bare.code, 0);
  assert.deepEqual(bare.lines, directives.map((line) => line + 1), bare.output);
  // And one removed alone (the number where a decimal string goes) fails the compile by itself.
  const one = await compile(CONSUMER.replace("// @ts-expect-error a number where a decimal string goes", "// a number where a decimal string goes"));
  assert.notEqual(one.code, 0);
  assert.deepEqual(one.lines, [directives[1]! + 1], one.output);
});
