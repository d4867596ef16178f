// The `quoter` command: `quoter quote` on the embedded chain prints the same body as the HTTP API
// (both on fresh demo chains, so at the same block number), with the exit status of the answer; --help for each.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { DEMO_MARKET_GROUP_ADDRESS, DEMO_TRADER } from "../../src/devchain/demo.ts";
import { ONE, THOUSAND } from "../../src/http/docExamples.ts";
import { trade, waitFor } from "../support/liveService.ts";
import { runProcess, startProcess } from "../support/processes.ts";
import { startQuoterHarness, type QuoterHarness } from "../support/quoterHarness.ts";

const BIN = new URL("../../bin/quoter.js", import.meta.url).pathname;

/** Runs bin/quoter.js as a user would, with no RPC_URL_* in its environment. */
function quoter(args: string[]) {
  const unset = Object.keys(process.env).filter((name) => name.startsWith("RPC_URL_"));
  return runProcess(process.execPath, [BIN, ...args], Object.fromEntries(unset.map((name) => [name, undefined])));
}

let h: QuoterHarness;
before(async () => {
  h = await startQuoterHarness();
});
after(() => h.close());

/** The API's raw body for the same request, on the harness's fresh demo chain. */
async function apiAnswer(marketId: number, query: Record<string, string>): Promise<{ status: number; body: string }> {
  const response = await h.app.inject(h.quotePath(marketId, query));
  return { status: response.statusCode, body: response.body };
}

test("quoter quote prints byte for byte the API's body, for a success, a trace, and each kind of error, with its exit status", async () => {
  assert.equal(h.devchain.marketGroup, DEMO_MARKET_GROUP_ADDRESS);
  const cases: { args: string[]; query: Record<string, string>; marketId: number; code: number }[] = [
    { marketId: 2, args: ["--expected-price", "1030", "--collateral", THOUSAND], query: { expectedPrice: "1030", collateralAvailable: THOUSAND }, code: 0 },
    {
      marketId: 1,
      args: ["--expected-price", "0.45", "--collateral", THOUSAND, "--price-limit", "0.4999", "--max-iterations", "6", "--trace"],
      query: { expectedPrice: "0.45", collateralAvailable: THOUSAND, priceLimit: "0.4999", maxIterations: "6", trace: "true" },
      code: 0,
    },
    { marketId: 3, args: ["--expected-price", "0.6", "--collateral", ONE], query: { expectedPrice: "0.6", collateralAvailable: ONE }, code: 1 },
    { marketId: 4, args: ["--expected-price", "0.59", "--collateral", ONE, "--trace"], query: { expectedPrice: "0.59", collateralAvailable: ONE, trace: "true" }, code: 1 },
    { marketId: 1, args: ["--expected-price", ".5", "--collateral", "0"], query: { expectedPrice: ".5", collateralAvailable: "0" }, code: 1 },
    {
      marketId: 2,
      args: ["--expected-price", "1030", "--collateral", THOUSAND, "--taker", DEMO_TRADER, "--slippage-bps", "0", "--deadline-seconds", "60"],
      query: { expectedPrice: "1030", collateralAvailable: THOUSAND, taker: DEMO_TRADER, slippageBps: "0", deadlineSeconds: "60" },
      code: 0,
    },
    { marketId: 2, args: ["--expected-price", "1030", "--collateral", THOUSAND, "--taker", "0x12"], query: { expectedPrice: "1030", collateralAvailable: THOUSAND, taker: "0x12" }, code: 1 },
  ];
  const runs = await Promise.all(cases.map(({ marketId, args }) => quoter(["quote", "31337", DEMO_MARKET_GROUP_ADDRESS, String(marketId), ...args])));
  for (const [i, { marketId, query, code }] of cases.entries()) {
    const run = runs[i]!;
    const api = await apiAnswer(marketId, query);
    assert.equal(run.stdout, `${api.body}\n`, `market ${marketId} ${JSON.stringify(query)}: same body as the API (${api.status})\n${run.stderr}`);
    assert.equal(run.code, code, `exit status for the API's ${api.status}`);
    assert.equal(api.status === 200, code === 0);
  }
  // The body says why the position is not larger, as the API's does.
  assert.equal(JSON.parse(runs[0]!.stdout).limitedBy, "expectedPrice");
  // With --taker it prints the transaction and its approval, to sign elsewhere: it sends neither (no keys).
  const { trade } = JSON.parse(runs[5]!.stdout);
  assert.equal(trade.transaction.from, DEMO_TRADER);
  assert.equal(trade.approval.transaction.from, DEMO_TRADER);
  assert.equal(trade.collateralLimit, JSON.parse(runs[5]!.stdout).maxCollateral);
});

test("quoter quote: a chain it cannot reach prints the 503 body and exits 3; bad usage exits 2 with nothing on stdout", async () => {
  const [unreachable, missing, unknown, badRpc, apiName] = await Promise.all([
    quoter(["quote", "1", DEMO_MARKET_GROUP_ADDRESS, "1", "--expected-price", "0.6", "--collateral", ONE, "--rpc", "http://127.0.0.1:9/secret-key"]),
    quoter(["quote", "1", DEMO_MARKET_GROUP_ADDRESS]),
    quoter(["quote", "1", DEMO_MARKET_GROUP_ADDRESS, "1", "--price", "3"]),
    quoter(["quote", "1", DEMO_MARKET_GROUP_ADDRESS, "1", "--expected-price", "0.6", "--collateral", ONE, "--rpc", "ws://node"]),
    quoter(["quote", "1", DEMO_MARKET_GROUP_ADDRESS, "1", "--expectedPrice", "abc"]),
  ]);
  assert.equal(unreachable.code, 3);
  assert.deepEqual(JSON.parse(unreachable.stdout), {
    error: "Chain RPC unavailable",
    details: [
      {
        param: "chainId",
        message: "--rpc: request failed (ECONNREFUSED): nothing listens at that host and port; check that the node runs and the URL",
      },
    ],
  });
  assert.ok(!unreachable.stderr.includes("secret-key"), "the warning names the endpoint without its path");
  for (const run of [missing, unknown, badRpc, apiName]) {
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stdout, "");
  }
  assert.match(missing.stderr, /expected <chainId> <marketAddress> <marketId>/);
  assert.match(unknown.stderr, /^quoter quote: unknown option --price; the options are --expected-price, --collateral, /);
  assert.match(apiName.stderr, /^quoter quote: unknown option --expectedPrice: did you mean --expected-price\?\n/, "the API's name, not parseArgs' advice");
  assert.match(badRpc.stderr, /--rpc: must be a comma-separated list of http/);
});

// Before the --watch test, which trades on the harness's chain.
test("quoter position prints byte for byte the API's body of a held position, or its error, with the exit status", async () => {
  const cases: { positionId: string; query: Record<string, string>; code: number }[] = [
    { positionId: "1", query: { expectedPrice: "0.45", collateralAvailable: "0", search: "exact" }, code: 0 },
    { positionId: "2", query: { expectedPrice: "0.55", collateralAvailable: ONE, trace: "true" }, code: 0 },
    { positionId: "3", query: { expectedPrice: "0.55", collateralAvailable: ONE }, code: 1 },
    { positionId: "99", query: { expectedPrice: "0.55", collateralAvailable: ONE }, code: 1 },
  ];
  const flags = (query: Record<string, string>) => [
    "--expected-price", query.expectedPrice!, "--collateral", query.collateralAvailable!,
    ...(query.search ? ["--search", query.search] : []), ...(query.trace ? ["--trace"] : []),
  ];
  const runs = await Promise.all(cases.map(({ positionId, query }) => quoter(["position", "31337", DEMO_MARKET_GROUP_ADDRESS, positionId, ...flags(query)])));
  for (const [i, { positionId, query, code }] of cases.entries()) {
    const api = await h.app.inject(`/quoter/31337/${DEMO_MARKET_GROUP_ADDRESS}/positions/${positionId}?${new URLSearchParams(query)}`);
    assert.equal(runs[i]!.stdout, `${api.body}\n`, `position ${positionId}: same body as the API\n${runs[i]!.stderr}`);
    assert.equal(runs[i]!.code, code);
  }
  const usage = await quoter(["position", "31337", DEMO_MARKET_GROUP_ADDRESS]);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /^quoter position: expected <chainId> <marketAddress> <positionId>/);
});


test("quoter depth prints byte for byte the API's ladder, or its error body, with the exit status", async () => {
  const cases: { marketId: number; args: string[]; query: Record<string, string>; code: number }[] = [
    { marketId: 2, args: ["--collateral", THOUSAND, "--to", "1100", "--levels", "3"], query: { collateralAvailable: THOUSAND, to: "1100", levels: "3" }, code: 0 },
    { marketId: 1, args: ["--collateral", THOUSAND, "--prices", "0.45,0.4"], query: { collateralAvailable: THOUSAND, prices: "0.45,0.4" }, code: 0 },
    { marketId: 1, args: ["--collateral", THOUSAND, "--to", "0.9"], query: { collateralAvailable: THOUSAND, to: "0.9" }, code: 1 },
    { marketId: 3, args: ["--collateral", ONE, "--prices", "0.6"], query: { collateralAvailable: ONE, prices: "0.6" }, code: 1 },
  ];
  const runs = await Promise.all(cases.map(({ marketId, args }) => quoter(["depth", "31337", DEMO_MARKET_GROUP_ADDRESS, String(marketId), ...args])));
  for (const [i, { marketId, query, code }] of cases.entries()) {
    const api = await h.app.inject(`/quoter/31337/${DEMO_MARKET_GROUP_ADDRESS}/${marketId}/depth?${new URLSearchParams(query)}`);
    assert.equal(runs[i]!.stdout, `${api.body}\n`, `market ${marketId} ${JSON.stringify(query)} (${api.statusCode})\n${runs[i]!.stderr}`);
    assert.equal(runs[i]!.code, code);
  }
  const usage = await quoter(["depth", "31337", DEMO_MARKET_GROUP_ADDRESS]);
  assert.equal(usage.code, 2);
  assert.equal(usage.stdout, "");
});

test("quoter liquidity prints byte for byte the API's liquidity answer, or its error body, with the exit status", async () => {
  const HUNDRED = "100000000000000000000";
  const cases: { marketId: number; args: string[]; query: Record<string, string>; code: number }[] = [
    { marketId: 1, args: ["--collateral", HUNDRED, "--lower-price", "0.4", "--upper-price", "0.6"], query: { collateralAvailable: HUNDRED, lowerPrice: "0.4", upperPrice: "0.6" }, code: 0 },
    { marketId: 2, args: ["--collateral", THOUSAND, "--taker", DEMO_TRADER, "--slippage-bps", "0", "--trace"], query: { collateralAvailable: THOUSAND, taker: DEMO_TRADER, slippageBps: "0", trace: "true" }, code: 0 },
    { marketId: 1, args: ["--collateral", HUNDRED, "--lower-price", "0.001"], query: { collateralAvailable: HUNDRED, lowerPrice: "0.001" }, code: 1 },
    { marketId: 3, args: ["--collateral", ONE], query: { collateralAvailable: ONE }, code: 1 },
  ];
  const runs = await Promise.all(cases.map(({ marketId, args }) => quoter(["liquidity", "31337", DEMO_MARKET_GROUP_ADDRESS, String(marketId), ...args])));
  for (const [i, { marketId, query, code }] of cases.entries()) {
    const api = await h.app.inject(`/quoter/31337/${DEMO_MARKET_GROUP_ADDRESS}/${marketId}/liquidity?${new URLSearchParams(query)}`);
    assert.equal(runs[i]!.stdout, `${api.body}\n`, `market ${marketId} ${JSON.stringify(query)} (${api.statusCode})\n${runs[i]!.stderr}`);
    assert.equal(runs[i]!.code, code);
    assert.equal(api.statusCode === 200, code === 0);
  }
  // With --taker it prints the createLiquidityPosition to sign elsewhere: it sends nothing (no keys).
  assert.equal(JSON.parse(runs[1]!.stdout).trade.transaction.from, DEMO_TRADER);
  const [usage, unknown] = await Promise.all([
    quoter(["liquidity", "31337", DEMO_MARKET_GROUP_ADDRESS]),
    quoter(["liquidity", "31337", DEMO_MARKET_GROUP_ADDRESS, "1", "--collateral", ONE, "--expected-price", "0.5"]),
  ]);
  for (const run of [usage, unknown]) {
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stdout, "");
  }
  assert.match(usage.stderr, /^quoter liquidity: expected <chainId> <marketAddress> <marketId>/);
  assert.match(unknown.stderr, /^quoter liquidity: unknown option .--expected-price/i);
});

test("quoter quote --watch: one line per event, the first the API's body at once, another after a trade; a signal ends it with 0", async () => {
  const args = ["quote", "31337", DEMO_MARKET_GROUP_ADDRESS, "2", "--expected-price", "1030", "--collateral", THOUSAND, "--watch", "--rpc", h.devchain.endpoint.url];
  const watching = await startProcess(process.execPath, [BIN, ...args], { LOG_LEVEL: "silent", HEAD_POLL_MS: "100" }, /^\{"event":"quote".*\n/m, 20_000);
  try {
    const first = JSON.parse(watching.match[0]) as { event: string; id: string; data: Record<string, unknown> };
    const api = await apiAnswer(2, { expectedPrice: "1030", collateralAvailable: THOUSAND });
    assert.deepEqual(first, { event: "quote", id: first.data.blockNumber, data: JSON.parse(api.body) });
    const traded = await trade(h.devchain);
    const lines = () => watching.output().split("\n").filter((line) => line.startsWith("{"));
    await waitFor(() => lines().length >= 2, 10_000, "the event after the trade");
    const next = JSON.parse(lines()[1]!) as { event: string; id: string; data: { blockNumber: string } };
    assert.equal(next.event, "quote");
    assert.ok(BigInt(next.id) >= traded.blockNumber);
    assert.equal(await watching.stop(), 0);
  } finally {
    watching.child.kill("SIGKILL");
  }
});

test("--help for the command and each subcommand", async () => {
  const [top, serve, devchain, quote, none, depth, position, liquidity] = await Promise.all([
    quoter(["--help"]),
    quoter(["serve", "--help"]),
    quoter(["devchain", "--help"]),
    quoter(["quote", "--help"]),
    quoter([]),
    quoter(["depth", "--help"]),
    quoter(["position", "--help"]),
    quoter(["liquidity", "--help"]),
  ]);
  for (const run of [top, serve, devchain, quote, depth, position, liquidity]) assert.equal(run.code, 0, run.stderr);
  assert.match(top.stdout, /serve[\s\S]*devchain[\s\S]*quote[\s\S]*position[\s\S]*depth[\s\S]*liquidity/);
  assert.match(liquidity.stdout, /Usage: quoter liquidity <chainId> <marketAddress> <marketId> --collateral C[\s\S]*--lower-price P[\s\S]*--upper-price P[\s\S]*--taker ADDRESS/);
  assert.match(position.stdout, /Usage: quoter position <chainId> <marketAddress> <positionId>[\s\S]*--collateral C/);
  assert.match(depth.stdout, /--collateral C[\s\S]*--prices[\s\S]*--to T --levels N/);
  assert.match(serve.stdout, /Usage: quoter serve/);
  assert.match(devchain.stdout, /--port N[\s\S]*--host H/);
  assert.match(quote.stdout, /--expected-price P[\s\S]*--collateral C[\s\S]*--price-limit L[\s\S]*--max-iterations N[\s\S]*--rpc[\s\S]*--trace/);
  assert.match(quote.stdout, /Exit status[\s\S]*error body is printed on stdout/);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /a command is required/);
});
