// Semantics §14 on the embedded chain, over HTTP: every answer on a grid of ranges (the market's whole range, narrow
// around the price, entirely above it, entirely below it), budgets (0.01 token to 10^6 tokens) and both demo groups
// (18- and 6-decimal collateral) is checked by the test's own arithmetic and the group's own InsufficientCollateral at
// the answer's block (test/support/liquidityCheck.ts): liquidity L fits and L + 1 does not, the tokens are L's, the
// minted liquidity is v3's of them, maxCollateral is the requirement in token units rounded up, the group's quote and
// whether it fits as the test finds it; both strategies answer the same bytes, the single-call one in one JSON-RPC
// request; and the 400s and 404 with the parameter they name.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { decodeFunctionData, type Address } from "viem";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { DEMO_MARKET_GROUP_ADDRESS, DEMO_USDC_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import { servedBothWays } from "../support/bothStrategies.ts";
import { requirementOfLiquidity, requirementOfTokens } from "../support/liquidityCheck.ts";

const served = servedBothWays(30_000);
const { ask } = served;

const E18 = 10n ** 18n;
const liquidityPath = (group: Address, marketId: number | string, query: Record<string, string>) =>
  `/quoter/${DEVCHAIN_ID}/${group}/${marketId}/liquidity?${new URLSearchParams(query)}`;

const GROUPS = [
  { group: DEMO_MARKET_GROUP_ADDRESS, decimals: 18 },
  { group: DEMO_USDC_MARKET_GROUP_ADDRESS, decimals: 6 },
] as const;
/** Market 1 trades at about 0.5 in [0.01, 0.98]. */
const RANGES = [
  { what: "the whole range", query: {} },
  { what: "narrow around the price", query: { lowerPrice: "0.49", upperPrice: "0.51" } },
  { what: "entirely above the price", query: { lowerPrice: "0.6", upperPrice: "0.7" } },
  { what: "entirely below the price", query: { lowerPrice: "0.2", upperPrice: "0.3" } },
] as const;
const BUDGETS = [E18 / 100n, E18, 1000n * E18, 10n ** 6n * E18];

describe("every answer of the grid against the group's own check at the answer's block", () => {
  const candidates: number[] = [];
  for (const { group, decimals } of GROUPS) {
    for (const range of RANGES) {
      for (const budget of BUDGETS) {
        test(`${decimals}-decimal group, ${range.what}, budget ${budget} wei`, async () => {
          const { status, body, requests } = await ask(liquidityPath(group, 1, { ...range.query, collateralAvailable: String(budget) }));
          assert.equal(status, 200, JSON.stringify(body));
          assert.deepEqual(requests, ["eth_call"]);
          candidates.push(body.candidates);
          const at = { group, marketId: 1n, lowerTick: body.lowerTick, upperTick: body.upperTick, blockHash: body.blockHash };
          const L = BigInt(body.liquidity);
          const here = await requirementOfLiquidity(served.setup().devchain.chain, at, L);
          const above = await requirementOfLiquidity(served.setup().devchain.chain, at, L + 1n);
          assert.ok(here.required !== undefined && here.required <= budget, `L fits: ${here.required} <= ${budget}`);
          assert.ok(above.required !== undefined && above.required > budget, `L + 1 does not: ${above.required} > ${budget}`);
          assert.deepEqual(
            [body.amountBaseToken, body.amountQuoteToken, body.requiredCollateral, body.mintedLiquidity],
            [here.amount0, here.amount1, here.required, here.minted].map(String),
          );
          const scale = 10n ** BigInt(18 - decimals);
          assert.equal(body.maxCollateral, String((here.required + scale - 1n) / scale));
          assert.equal(body.collateralDecimals, decimals);
          assert.equal(body.exact, true);
          assert.ok(body.lowerTick % 200 === 0 && body.upperTick % 200 === 0, "ticks on the spacing");
          const quoted = body.groupQuote;
          const groupRequired = await requirementOfTokens(served.setup().devchain.chain, at, BigInt(quoted.amountBaseToken), BigInt(quoted.amountQuoteToken));
          assert.equal(quoted.fits, groupRequired !== undefined && groupRequired <= budget);
        });
      }
    }
  }
  test("few candidates per answer", (t) => {
    const sorted = [...candidates].sort((x, y) => x - y);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    t.diagnostic(`candidates per answer: median ${median}, most ${sorted.at(-1)}`);
    assert.ok(median <= 8 && sorted.at(-1)! <= 24, `candidates: median ${median}, most ${sorted.at(-1)}`);
  });
});

describe("the 400s and the 404", () => {
  const ONE = String(E18);
  const cases: { what: string; group?: Address; marketId?: number; query: Record<string, string>; status: number; error: string; param: string; message?: RegExp }[] = [
    { what: "a range past the lowest bound", query: { collateralAvailable: ONE, lowerPrice: "0.001" }, status: 400, error: "Invalid query parameters", param: "lowerPrice", message: /market's range is \[0\.010054147778594249, 0\.980199653440576966\]/ },
    { what: "a range past the highest bound", query: { collateralAvailable: ONE, upperPrice: "0.99" }, status: 400, error: "Invalid query parameters", param: "upperPrice", message: /market's range is \[0\.010054147778594249, 0\.980199653440576966\]/ },
    { what: "an empty range", query: { collateralAvailable: ONE, lowerPrice: "0.6", upperPrice: "0.4" }, status: 400, error: "Invalid query parameters", param: "upperPrice", message: /empty/ },
    { what: "a settled market", marketId: 3, query: { collateralAvailable: ONE }, status: 400, error: "Market is settled", param: "marketId" },
    { what: "a budget too small for the range", query: { collateralAvailable: "1" }, status: 400, error: "Insufficient collateral for this range", param: "collateralAvailable" },
    { what: "an unknown market", marketId: 99, query: { collateralAvailable: ONE }, status: 404, error: "Market not found", param: "marketId" },
    { what: "no budget", query: {}, status: 400, error: "Invalid query parameters", param: "collateralAvailable", message: /required/ },
    { what: "a budget of 0", query: { collateralAvailable: "0" }, status: 400, error: "Invalid query parameters", param: "collateralAvailable" },
    { what: "a decimal budget", query: { collateralAvailable: "1.5" }, status: 400, error: "Invalid query parameters", param: "collateralAvailable", message: /wei/ },
    { what: "a price of 0", query: { collateralAvailable: ONE, lowerPrice: "0" }, status: 400, error: "Invalid query parameters", param: "lowerPrice", message: /greater than 0/ },
    { what: "a price finer than 10^-18", query: { collateralAvailable: ONE, upperPrice: "1e-19" }, status: 400, error: "Invalid query parameters", param: "upperPrice" },
    { what: "a price as .5", query: { collateralAvailable: ONE, upperPrice: ".5" }, status: 400, error: "Invalid query parameters", param: "upperPrice" },
    { what: "a bad minBlock", query: { collateralAvailable: ONE, minBlock: "-1" }, status: 400, error: "Invalid query parameters", param: "minBlock" },
    { what: "a bad taker", query: { collateralAvailable: ONE, taker: "0x12" }, status: 400, error: "Invalid query parameters", param: "taker" },
    { what: "a bad slippageBps", query: { collateralAvailable: ONE, slippageBps: "5001" }, status: 400, error: "Invalid query parameters", param: "slippageBps" },
    { what: "a bad deadlineSeconds", query: { collateralAvailable: ONE, deadlineSeconds: "0" }, status: 400, error: "Invalid query parameters", param: "deadlineSeconds" },
  ];
  for (const c of cases) {
    test(c.what, async () => {
      const { status, body } = await ask(liquidityPath(c.group ?? DEMO_MARKET_GROUP_ADDRESS, c.marketId ?? 1, c.query));
      assert.equal(status, c.status, JSON.stringify(body));
      assert.equal(body.error, c.error);
      assert.equal(body.details[0].param, c.param);
      if (c.message) assert.match(body.details[0].message, c.message);
    });
  }

  test("a parameter given twice, and a bad path before a bad query", async () => {
    const twice = await served.apps()[0]!.inject({ url: `${liquidityPath(DEMO_MARKET_GROUP_ADDRESS, 1, { collateralAvailable: "1" })}&collateralAvailable=2` });
    assert.equal(twice.json().details[0].param, "collateralAvailable");
    const both = await served.apps()[0]!.inject({ url: liquidityPath(DEMO_MARKET_GROUP_ADDRESS, "x", { collateralAvailable: "0" }) });
    assert.equal(both.json().error, "Invalid path parameters");
  });
});

describe("batch items and the trade", () => {
  test('items with "kind": "liquidity" are the liquidity route\'s, each the GET\'s body byte for byte; another kind is its own 400', async () => {
    const items: Record<string, string>[] = [
      { kind: "liquidity", marketAddress: DEMO_MARKET_GROUP_ADDRESS, marketId: "1", collateralAvailable: String(E18), lowerPrice: "0.45", upperPrice: "0.55" },
      { marketAddress: DEMO_MARKET_GROUP_ADDRESS, marketId: "1", expectedPrice: "0.55", collateralAvailable: String(E18) },
      { kind: "liquidity", marketAddress: DEMO_USDC_MARKET_GROUP_ADDRESS, marketId: "1", collateralAvailable: "1000", taker: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" },
      { kind: "liquidity", marketAddress: DEMO_MARKET_GROUP_ADDRESS, marketId: "1", collateralAvailable: String(E18), upperPrice: "2" },
      { kind: "lp", marketAddress: DEMO_MARKET_GROUP_ADDRESS, marketId: "1", collateralAvailable: String(E18) },
    ];
    const batch = await served.apps()[0]!.inject({ method: "POST", url: `/quoter/${DEVCHAIN_ID}/batch`, payload: { quotes: items } });
    assert.equal(batch.statusCode, 200, batch.body);
    const results = batch.json().results;
    for (const [i, { kind, marketAddress, marketId, ...query }] of items.slice(0, 4).entries()) {
      const url = `/quoter/${DEVCHAIN_ID}/${marketAddress}/${marketId}${kind === undefined ? "" : "/liquidity"}?${new URLSearchParams(query)}`;
      const get = await served.apps()[0]!.inject({ url });
      assert.equal(results[i].status, get.statusCode, url);
      assert.equal(JSON.stringify(results[i].body), get.body, url);
    }
    assert.equal(results[3].status, 400, "a range past the bound");
    assert.deepEqual([results[4].status, results[4].body.details[0].param], [400, "kind"]);
  });

  test("with taker: createLiquidityPosition of the answer's tokens and range, the collateral limit of §12, the minimums less slippage", async () => {
    const taker = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    const budget = 10n * E18;
    const { status, body } = await ask(liquidityPath(DEMO_USDC_MARKET_GROUP_ADDRESS, 1, { collateralAvailable: String(budget), taker, slippageBps: "100" }));
    assert.equal(status, 200);
    const maxCollateral = BigInt(body.maxCollateral);
    const withSlippage = (maxCollateral * 10_100n + 9_999n) / 10_000n;
    const budgetUnits = budget / 10n ** 12n;
    assert.equal(body.trade.collateralLimit, String(withSlippage < budgetUnits ? withSlippage : budgetUnits > maxCollateral ? budgetUnits : maxCollateral));
    const { args } = decodeFunctionData({ abi: marketGroupAbi, data: body.trade.transaction.data });
    const params = (args as readonly [Record<string, bigint | number>])[0];
    assert.deepEqual(params, {
      marketId: 1n,
      amountBaseToken: BigInt(body.amountBaseToken),
      amountQuoteToken: BigInt(body.amountQuoteToken),
      collateralAmount: BigInt(body.trade.collateralLimit),
      lowerTick: body.lowerTick,
      upperTick: body.upperTick,
      minAmountBaseToken: (BigInt(body.amountBaseToken) * 9_900n) / 10_000n,
      minAmountQuoteToken: (BigInt(body.amountQuoteToken) * 9_900n) / 10_000n,
      deadline: BigInt(body.trade.deadline),
    });
    assert.deepEqual(body.trade.calls.map((call: { to: string }) => call.to), [body.trade.approval.token, DEMO_USDC_MARKET_GROUP_ADDRESS]);
    assert.equal(body.trade.simulation.ok, true, JSON.stringify(body.trade.simulation));
  });
});
