// Semantics §13 on the embedded chain, over HTTP: the quote of each demo position (a long and a short on market 1, a
// long on the 6-decimal group), LONG and SHORT, bisection and exact, against the test's own search over
// quoteModifyTraderPosition at the answer's block (test/support/positionBruteForce.ts); both strategies byte for byte
// alike, the single-call one in one JSON-RPC request (the position searcher at the owner's address); a reduce through
// zero that turns the position around; a budget of 0; the errors; batch items with positionId.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Address } from "viem";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { DEMO_DEPLOYER, DEMO_MARKET_GROUP_ADDRESS, DEMO_TRADER, DEMO_USDC_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import { servedBothWays } from "../support/bothStrategies.ts";
import { bisectionOfPosition, feasibleTrade, maximumOfPosition, quoteTrade } from "../support/positionBruteForce.ts";
import { d18 } from "../support/verify.ts";

const served = servedBothWays();
const { ask } = served;

const E18 = 10n ** 18n;
const positionPath = (group: Address, positionId: bigint | string, query: Record<string, string>) =>
  `/quoter/${DEVCHAIN_ID}/${group}/positions/${positionId}?${new URLSearchParams(query)}`;

const magnitude = (value: bigint) => (value < 0n ? -value : value);

const POSITIONS = [
  { what: "the trader's long of 1000 (18 decimals)", group: DEMO_MARKET_GROUP_ADDRESS, positionId: 1n, owner: DEMO_TRADER, current: 1000n * E18 },
  { what: "the deployer's short of 500 (18 decimals)", group: DEMO_MARKET_GROUP_ADDRESS, positionId: 2n, owner: DEMO_DEPLOYER, current: -500n * E18 },
  { what: "the trader's long of 1000 (6 decimals)", group: DEMO_USDC_MARKET_GROUP_ADDRESS, positionId: 1n, owner: DEMO_TRADER, current: 1000n * E18 },
] as const;

/** LONG and SHORT asks: one adds to the position, the other trades against it (the budgets bind some, prices others). */
const ASKS = [
  { expectedPrice: "0.55", budget: 100n * E18 },
  { expectedPrice: "0.5004", budget: 1000n * E18 },
  { expectedPrice: "0.45", budget: 0n },
  { expectedPrice: "0.4999", budget: 20n * E18 },
] as const;

describe("each demo position, LONG and SHORT, against the test's own search at the same block", () => {
  for (const position of POSITIONS) {
    for (const { expectedPrice, budget } of ASKS) {
      for (const search of ["bisection", "exact"] as const) {
        test(`${position.what}, expectedPrice ${expectedPrice}, budget ${budget}, ${search}`, { timeout: 120_000 }, async () => {
          const query = { expectedPrice, collateralAvailable: budget.toString(), search, trace: "true" };
          const { status, body, requests } = await ask(positionPath(position.group, position.positionId, query));
          const held = { group: position.group, positionId: position.positionId, expectedPrice: d18(expectedPrice), budget, blockNumber: BigInt(body.blockNumber ?? 0) };
          if (status !== 200) {
            // No trade fits: the test's own search agrees.
            assert.equal(status, 400, JSON.stringify(body));
            const head = await served.setup().devchain.chain.publicClient.getBlockNumber();
            const none = search === "exact" ? await maximumOfPosition(served.setup().devchain.chain, { ...held, blockNumber: head }) : await bisectionOfPosition(served.setup().devchain.chain, { ...held, blockNumber: head });
            assert.equal(none, undefined, JSON.stringify(body));
            return;
          }
          assert.ok(requests.length <= 2 && requests.every((method) => method === "eth_call"), `${requests}`);
          assert.equal(body.positionId, position.positionId.toString());
          assert.equal(body.owner, position.owner);
          assert.equal(body.currentSize, position.current.toString());
          const trade = BigInt(body.maxSize);
          assert.equal(body.targetSize, (position.current + trade).toString(), "targetSize = currentSize + maxSize");
          const expected = search === "exact" ? await maximumOfPosition(served.setup().devchain.chain, held) : await bisectionOfPosition(served.setup().devchain.chain, held);
          assert.equal(magnitude(trade), expected, "the test's own search finds the same trade");
          const quote = (await quoteTrade(served.setup().devchain.chain, held, magnitude(trade)))!;
          assert.equal(body.collateralDelta, quote.delta.toString(), "the quote at the trade");
          assert.equal(body.closePnL, quote.closePnL.toString());
          assert.ok(quote.delta <= budget, "within the budget");
          const scale = position.group === DEMO_USDC_MARKET_GROUP_ADDRESS ? 10n ** 12n : 1n;
          const limit = BigInt(body.collateralDeltaLimit);
          assert.ok(limit * scale >= quote.delta && (limit - 1n) * scale < quote.delta, "collateralDeltaLimit: the delta in token units, rounded up");
          if (search === "exact") {
            assert.equal(body.exact, true, "proven");
            assert.equal(await feasibleTrade(served.setup().devchain.chain, held, magnitude(trade) + 1n), false, "the next trade is infeasible");
            const sizes = body.trace.map((entry: { size: string }) => magnitude(BigInt(entry.size)));
            assert.ok(sizes.includes(magnitude(trade) + 1n), "maxSize + 1 quoted");
            assert.ok(body.iterations <= 12, `${body.iterations} candidates`);
          }
        });
      }
    }
  }

  test("a position quoted before is one JSON-RPC request: the searcher's call at its owner's address", async () => {
    const url = positionPath(DEMO_MARKET_GROUP_ADDRESS, 2n, { expectedPrice: "0.52", collateralAvailable: (5n * E18).toString(), search: "exact" });
    await ask(url);
    const { status, requests } = await ask(`${url}&trace=true`);
    assert.equal(status, 200);
    assert.deepEqual(requests, ["eth_call"]);
    const call = served.setup().proxy.requests.find((request) => request.method === "eth_call")!;
    const [object, , override] = call.params as [{ to: string }, unknown, Record<string, { code: string }>];
    assert.equal(object.to.toLowerCase(), DEMO_DEPLOYER.toLowerCase(), "run at the owner's address");
    assert.deepEqual(Object.keys(override).map((key) => key.toLowerCase()), [DEMO_DEPLOYER.toLowerCase()], "its code there by a state override");
  });
});

describe("reduces, closes and turnarounds (the range adds |current| against the position)", () => {
  test("a SHORT of the long with no new collateral reduces through zero and turns it around, returning collateral", async () => {
    const { body } = await ask(positionPath(DEMO_MARKET_GROUP_ADDRESS, 1n, { expectedPrice: "0.45", collateralAvailable: "0", search: "exact" }));
    assert.ok(BigInt(body.targetSize) < 0n, `flipped to ${body.targetSize}`);
    assert.ok(magnitude(BigInt(body.maxSize)) > 1000n * E18, "more than the position was sold");
    assert.ok(BigInt(body.collateralDelta) <= 0n, "no new collateral");
  });

  test("the bisection with no budget searches [0, |current|]: a reduce that returns collateral", async () => {
    const { body } = await ask(positionPath(DEMO_MARKET_GROUP_ADDRESS, 1n, { expectedPrice: "0.45", collateralAvailable: "0" }));
    assert.ok(BigInt(body.targetSize) >= 0n && BigInt(body.targetSize) < 1000n * E18, body.targetSize);
    assert.ok(BigInt(body.collateralDelta) < 0n, "collateral comes back");
  });

  test("adding with no budget: nothing fits, 400 as for a new position", async () => {
    const { status, body } = await ask(positionPath(DEMO_MARKET_GROUP_ADDRESS, 1n, { expectedPrice: "0.55", collateralAvailable: "0", search: "exact" }));
    assert.equal(status, 400, JSON.stringify(body));
  });
});

describe("errors of a position's quote", () => {
  const query = { expectedPrice: "0.55", collateralAvailable: E18.toString() };
  test("an unknown position: 404 Position not found", async () => {
    const { status, body } = await ask(positionPath(DEMO_MARKET_GROUP_ADDRESS, 99n, query));
    assert.equal(status, 404);
    assert.equal(body.error, "Position not found");
    assert.equal(body.details[0].param, "positionId");
  });
  test("the liquidity position: 400 Position is not a trader position", async () => {
    const { status, body } = await ask(positionPath(DEMO_MARKET_GROUP_ADDRESS, 3n, query));
    assert.equal(status, 400);
    assert.equal(body.error, "Position is not a trader position");
  });
  test("a taker that is not the owner: 400 naming the owner", async () => {
    const { status, body } = await ask(positionPath(DEMO_MARKET_GROUP_ADDRESS, 1n, { ...query, taker: DEMO_DEPLOYER }));
    assert.equal(status, 400);
    assert.equal(body.details[0].param, "taker");
    assert.match(body.details[0].message, new RegExp(DEMO_TRADER));
  });
  test("every parameter's 400 as for a new position; a budget of 0 is allowed, a negative one is not", async () => {
    for (const [bad, param] of [
      [{ ...query, expectedPrice: "abc" }, "expectedPrice"],
      [{ ...query, collateralAvailable: "-1" }, "collateralAvailable"],
      [{ ...query, maxIterations: "11" }, "maxIterations"],
      [{ ...query, search: "fast" }, "search"],
      [{ ...query, taker: "0x1" }, "taker"],
    ] as const) {
      const { status, body } = await ask(positionPath(DEMO_MARKET_GROUP_ADDRESS, 1n, bad));
      assert.equal(status, 400);
      assert.equal(body.error, "Invalid query parameters");
      assert.equal(body.details[0].param, param);
    }
    const path = await ask(positionPath(DEMO_MARKET_GROUP_ADDRESS, "x1", query));
    assert.deepEqual([path.status, path.body.error, path.body.details[0].param], [400, "Invalid path parameters", "positionId"]);
    assert.equal((await ask(positionPath(DEMO_MARKET_GROUP_ADDRESS, 1n, { ...query, expectedPrice: "0" }))).body.error, "Expected price must be greater than 0");
  });
});

describe("a batch with positions", () => {
  test("items with positionId in place of marketId: each the GET's body, byte for byte", async () => {
    const items: Record<string, string>[] = [
      { marketAddress: DEMO_MARKET_GROUP_ADDRESS, positionId: "1", expectedPrice: "0.45", collateralAvailable: "0", search: "exact" },
      { marketAddress: DEMO_MARKET_GROUP_ADDRESS, marketId: "1", expectedPrice: "0.55", collateralAvailable: E18.toString() },
      { marketAddress: DEMO_MARKET_GROUP_ADDRESS, positionId: "3", expectedPrice: "0.55", collateralAvailable: "1" },
      { marketAddress: DEMO_MARKET_GROUP_ADDRESS, positionId: "2", marketId: "1", expectedPrice: "0.55", collateralAvailable: "1" },
    ];
    const batch = await served.apps()[0]!.inject({ method: "POST", url: `/quoter/${DEVCHAIN_ID}/batch`, payload: { quotes: items } });
    assert.equal(batch.statusCode, 200, batch.body);
    const results = batch.json().results;
    for (const [i, { marketAddress, positionId, marketId, ...query }] of items.slice(0, 3).entries()) {
      const url = positionId === undefined ? `/quoter/${DEVCHAIN_ID}/${marketAddress}/${marketId}?${new URLSearchParams(query)}` : positionPath(marketAddress as Address, positionId, query);
      const get = await served.apps()[0]!.inject({ url });
      assert.equal(results[i].status, get.statusCode);
      assert.equal(JSON.stringify(results[i].body), get.body);
    }
    assert.equal(results[3].status, 400, "an item with both ids is its own 400");
  });
});
