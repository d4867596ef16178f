// Semantics §9 and §10 through the service, on the demo chain: the answered maxCollateral is the trade's
// collateral limit in the token's own units (createTraderPosition of maxSize with it succeeds, one unit less
// reverts CollateralLimitReached naming the quote's requiredCollateral), an
// expired unsettled market stops the search with a detail naming its end, and trace names each error with
// its arguments. Both strategies answer alike.
import { after, before, describe, test } from "node:test";
import type { FastifyInstance } from "fastify";
import assert from "node:assert/strict";
import fc from "fast-check";
import { createPublicClient, decodeErrorResult, encodeErrorResult, erc20Abi, formatUnits, http, maxUint256, parseAbi, type Address } from "viem";
import { classifyCallError } from "../../src/chain/rpc/chainErrors.ts";
import { decodeRevert } from "../../src/chain/searchers/marketGroup.ts";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { DEMO_MARKET_GROUP_ADDRESS, DEMO_USDC_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { quoterApp } from "../support/quoterHarness.ts";
import { minedReceipt } from "../support/receipts.ts";

const E18 = 10n ** 18n;
let devchain: Devchain;
let apps: FastifyInstance[];
before(async () => {
  devchain = await startDevchain();
  // The trader approves both groups for all it holds, so that a trade simulated at a later block may take it.
  const { traderClient, publicClient } = devchain.chain;
  for (const group of [DEMO_MARKET_GROUP_ADDRESS, DEMO_USDC_MARKET_GROUP_ADDRESS]) {
    const [, token] = await publicClient.readContract({ address: group, abi: marketGroupAbi, functionName: "getMarketGroup" });
    await minedReceipt(publicClient, await traderClient.writeContract({ address: token, abi: erc20Abi, functionName: "approve", args: [group, maxUint256] }));
  }
  const rpc = devchain.endpoint.url;
  apps = [
    await quoterApp({ rpc, strategy: "single-call", timeoutMs: 10_000, probe: true }),
    await quoterApp({ rpc, strategy: "sequential", timeoutMs: 10_000, probe: true }),
  ];
});
after(async () => {
  for (const app of apps) await app.close();
  await devchain.close();
});


/** The answer of both strategies, checked byte-identical. */
async function quote(group: Address, marketId: bigint, query: Record<string, string>) {
  const url = `/quoter/${DEVCHAIN_ID}/${group}/${marketId}?${new URLSearchParams(query)}`;
  const [single, sequential] = await Promise.all(apps.map((app) => app.inject({ url })));
  assert.equal(single!.body, sequential!.body, url);
  return { status: single!.statusCode, body: single!.json() };
}

/** createTraderPosition(marketId, maxSize, limit) simulated at the quote's block, as the trader would send it next. */
async function execute(group: Address, marketId: bigint, size: bigint, limit: bigint, blockNumber: bigint) {
  const client = createPublicClient({ transport: http(devchain.endpoint.url, { retryCount: 0 }) });
  try {
    await client.simulateContract({
      address: group,
      abi: marketGroupAbi,
      functionName: "createTraderPosition",
      args: [{ marketId, size, maxCollateral: limit, deadline: maxUint256 }],
      account: devchain.chain.traderClient.account,
      blockNumber,
    });
    return { ok: true as const };
  } catch (error) {
    const failure = classifyCallError(error);
    if (failure.kind !== "reverted") return { ok: false as const, error: String(error) };
    const { errorName, args } = decodeErrorResult({ abi: marketGroupAbi, data: failure.data });
    return { ok: false as const, error: errorName, args };
  }
}

describe("maxCollateral is the trade's collateral limit (semantics §10)", () => {
  for (const [name, group, decimals] of [
    ["the 6-decimal (USDC) group", DEMO_USDC_MARKET_GROUP_ADDRESS, 6],
    ["the 18-decimal group", DEMO_MARKET_GROUP_ADDRESS, 18],
  ] as const) {
    test(`${name}: creating maxSize with maxCollateral succeeds within the budget; one unit less reverts`, async () => {
      let executed = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.bigInt({ min: 10n ** 12n, max: 10n ** 25n }),
          fc.bigInt({ min: -450_000n, max: 450_000n }).filter((ppm) => ppm !== 0n),
          async (budget, ppm) => {
            const expected = E18 / 2n + (E18 / 2n) * ppm / 1_000_000n;
            const { status, body } = await quote(group, 1n, { expectedPrice: formatUnits(expected, 18), collateralAvailable: budget.toString() });
            if (status !== 200) return;
            assert.equal(body.collateralDecimals, decimals);
            const maxCollateral = BigInt(body.maxCollateral);
            const required = BigInt(body.requiredCollateral);
            const unit = 10n ** BigInt(18 - decimals);
            assert.equal(maxCollateral, (required + unit - 1n) / unit, "rounded up to a whole unit of the token");
            const size = BigInt(body.maxSize);
            const trade = await execute(group, 1n, size, maxCollateral, BigInt(body.blockNumber));
            assert.ok(trade.ok, `maxSize ${size} with limit ${maxCollateral}: ${trade.ok ? "" : trade.error}`);
            assert.ok(required <= budget, "within the budget");
            // A limit of 0 is no limit: one unit less than a single unit passes.
            if (maxCollateral === 1n) return;
            const short = await execute(group, 1n, size, maxCollateral - 1n, BigInt(body.blockNumber));
            assert.ok(!short.ok && short.error === "CollateralLimitReached", `one unit less must revert: ${short.ok ? "it passed" : short.error}`);
            assert.deepEqual(short.args, [required, (maxCollateral - 1n) * unit], "the trade needs what the quote said");
            executed++;
          },
        ),
        { numRuns: 40, seed: 11 },
      );
      assert.ok(executed >= 20, `too few answers executed: ${executed}`);
    });
  }

  test("1000 USDC is 1000000000000000000000 wei: on the USDC group a 200 limits the trade in USDC units", async () => {
    const { status, body } = await quote(DEMO_USDC_MARKET_GROUP_ADDRESS, 1n, { expectedPrice: "0.55", collateralAvailable: "1000000000000000000000" });
    assert.equal(status, 200);
    assert.equal(body.collateralDecimals, 6);
    assert.ok(BigInt(body.requiredCollateral) <= 1000n * E18);
    assert.ok(BigInt(body.maxCollateral) <= 1000n * 10n ** 6n, `at most 1000 USDC: ${body.maxCollateral}`);
    assert.ok(BigInt(body.maxCollateral) * 10n ** 12n >= BigInt(body.requiredCollateral));
  });
});

describe("an expired market that was never settled (semantics §9)", () => {
  test("demo market 5: 400 Could not find a valid position size, the detail names the market's end, both strategies", async () => {
    const { status, body } = await quote(DEMO_MARKET_GROUP_ADDRESS, 5n, { expectedPrice: "0.55", collateralAvailable: E18.toString(), trace: "true" });
    assert.equal(status, 400);
    assert.equal(body.error, "Could not find a valid position size that satisfies the price constraints");
    const [market] = await devchain.chain.publicClient.readContract({ address: DEMO_MARKET_GROUP_ADDRESS, abi: marketGroupAbi, functionName: "getMarket", args: [5n] });
    assert.equal(body.details.length, 1);
    assert.equal(body.details[0].param, "marketId");
    assert.match(body.details[0].message, new RegExp(`^the market ended at ${market.endTime} \\(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\) and is not settled yet`));
    assert.equal(body.trace.length, 1, "the first revert stops the search");
    assert.deepEqual(body.trace[0].revertArgs, { marketEndTime: market.endTime.toString() });
    assert.equal(body.trace[0].revert, "ExpiredMarketNotSettled");
  });
});

describe("trace names each error with its arguments (semantics §7, §9)", () => {
  test("the thin market's PoolPriceOutOfRange shows poolPrice, minPrice and maxPrice", async () => {
    const { status, body } = await quote(DEMO_MARKET_GROUP_ADDRESS, 4n, { expectedPrice: "0.59", collateralAvailable: E18.toString(), trace: "true" });
    assert.equal(status, 400);
    const reverted = body.trace.filter((entry: { outcome: string }) => entry.outcome === "reverted");
    assert.ok(reverted.length >= 1);
    const [market] = await devchain.chain.publicClient.readContract({ address: DEMO_MARKET_GROUP_ADDRESS, abi: marketGroupAbi, functionName: "getMarket", args: [4n] });
    for (const entry of reverted) {
      assert.equal(entry.revert, "PoolPriceOutOfRange");
      assert.deepEqual(Object.keys(entry.revertArgs), ["poolPrice", "minPrice", "maxPrice"]);
      for (const value of Object.values(entry.revertArgs) as string[]) assert.match(value, /^\d+$/);
      assert.ok(BigInt(entry.revertArgs.minPrice) < BigInt(entry.revertArgs.maxPrice));
      const poolPrice = BigInt(entry.revertArgs.poolPrice);
      assert.ok(poolPrice > BigInt(entry.revertArgs.maxPrice) || poolPrice < BigInt(entry.revertArgs.minPrice), "out of the range");
    }
    assert.ok(market.minPriceD18 > 0n);
  });

  test("Error(string) shows its message (QuoterV2's \"Unexpected error\"), the real protocol's errors their arguments, unknown data nothing", () => {
    const encode = (signature: string, args: readonly unknown[]) => {
      const abi = parseAbi([signature]);
      return encodeErrorResult({ abi, errorName: (abi[0] as { name: string }).name, args } as never);
    };
    assert.deepEqual(decodeRevert(encode("error Error(string)", ["Unexpected error"])), { name: "Error", args: { message: "Unexpected error" } });
    assert.deepEqual(decodeRevert(encode("error TradePriceOutOfBounds(uint256 tradeRatioD18, uint256 minTradeRatioD18, uint256 maxTradeRatioD18)", [1n, 2n, 3n])), {
      name: "TradePriceOutOfBounds",
      args: { tradeRatioD18: "1", minTradeRatioD18: "2", maxTradeRatioD18: "3" },
    });
    assert.deepEqual(decodeRevert(encode("error InvalidInternalTradeSize(uint256 tradeSize)", [2n])), { name: "InvalidInternalTradeSize", args: { tradeSize: "2" } });
    assert.deepEqual(decodeRevert(encode("error InsufficientCollateral(uint256 amountRequired, uint256 collateralAvailable)", [5n, 4n])), {
      name: "InsufficientCollateral",
      args: { amountRequired: "5", collateralAvailable: "4" },
    });
    assert.deepEqual(decodeRevert("0x4e487b710000000000000000000000000000000000000000000000000000000000000012"), { name: "Panic", args: { reason: "18" } });
    assert.equal(decodeRevert("0xdeadbeef"), undefined);
  });
});
