// GET …/depth on the embedded chain over real HTTP: every level is the exact GET at that price and block, byte for
// byte; listed prices cost one eth_call, and so do spaced ones, the price read in the same call (counted at a proxy);
// spaced levels follow the stated rounding; the rules of the request are 400s naming the parameter; a market that
// cannot be quoted is the request's error.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "undici";
import { parseUnits } from "viem";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { DEMO_USDC_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import type { Devchain } from "../../src/devchain/devchain.ts";
import { encodeGetReferencePrice } from "../../src/chain/searchers/marketGroup.ts";
import { serviceBehindProxy, type LiveService, type ServiceBehindProxy } from "../support/liveService.ts";
import { deployPricelessMarketGroup } from "../support/pricelessMarketGroup.ts";
import { quoteRequests, type RpcProxy } from "../support/rpcProxy.ts";
import { searchGas } from "../support/searchGas.ts";
import { formatD18 } from "../../src/quote/fixedPoint.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";

const ONE = 10n ** 18n;
const THOUSAND = 1000n * ONE;

let devchain: Devchain;
let proxy: RpcProxy;
let service: LiveService;
let setup: ServiceBehindProxy;
before(async () => {
  // The endpoint is probed before the service answers: the probe is not a ladder's cost.
  ({ devchain, proxy, service } = setup = await serviceBehindProxy({ probe: true }));
});
after(() => setup.close());

/** A market's reference price on the demo chain now, as a decimal (the pool's price, rounded down). */
async function currentPrice(marketId: string, group: `0x${string}` = devchain.marketGroup): Promise<string> {
  const price = await devchain.chain.publicClient.readContract({ address: group, abi: marketGroupAbi, functionName: "getReferencePrice", args: [BigInt(marketId)] });
  return formatD18(price);
}

async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; json: any }> {
  const response = await request(`${service.base}${path}`, { headers });
  const text = await response.body.text();
  return { status: response.statusCode, text, json: JSON.parse(text) };
}

const depthPath = (group: string, marketId: string, query: Record<string, string>) => `/quoter/${DEVCHAIN_ID}/${group}/${marketId}/depth?${new URLSearchParams(query)}`;

/** Each level equals the exact GET of its price at the ladder's block: a 200 body byte for byte, an error with its status. */
async function assertLevelsAreGets(ladder: any, group: string, marketId: string, budget: string, prices: readonly string[]): Promise<void> {
  assert.equal(ladder.levels.length, prices.length);
  const block = await devchain.chain.publicClient.getBlock({ blockNumber: BigInt(ladder.blockNumber) });
  assert.equal(ladder.blockHash, block.hash);
  for (const [i, price] of prices.entries()) {
    const single = await get(`/quoter/${DEVCHAIN_ID}/${group}/${marketId}?${new URLSearchParams({ expectedPrice: price, collateralAvailable: budget, search: "exact", minBlock: ladder.blockNumber })}`);
    const level = ladder.levels[i];
    if (single.status === 200) {
      assert.equal(single.json.blockNumber, ladder.blockNumber, `level ${i} at the ladder's block`);
      assert.equal(JSON.stringify(level), single.text, `level ${i} (${price})`);
      assert.equal(level.direction, ladder.direction);
      assert.equal(level.currentPrice, ladder.currentPrice);
    } else {
      assert.equal(JSON.stringify(level), JSON.stringify({ status: single.status, ...single.json }), `level ${i} (${price})`);
    }
  }
}

/** A D18 price as the answers write it (no trailing zeros). */
function d18(value: bigint): string {
  const whole = value / ONE;
  const fraction = (value % ONE).toString().padStart(18, "0").replace(/0+$/, "");
  return fraction === "" ? whole.toString() : `${whole}.${fraction}`;
}

describe("a depth ladder", () => {
  test("10 listed prices (LONG): one eth_call, every level the exact GET at that block, byte for byte", async () => {
    const prices = ["0.51", "0.52", "0.53", "0.55", "0.57", "0.6", "0.65", "0.7", "0.8", "0.9"];
    const budget = THOUSAND.toString();
    proxy.clear();
    const ladder = await get(depthPath(devchain.marketGroup, "1", { collateralAvailable: budget, prices: prices.join(",") }));
    assert.equal(ladder.status, 200, ladder.text);
    assert.deepEqual(quoteRequests(proxy.methods), ["eth_call"], "the whole ladder in one eth_call");
    assert.equal(ladder.json.direction, "LONG");
    assert.equal(ladder.json.collateralAvailable, budget);
    assert.deepEqual(Object.keys(ladder.json), ["direction", "currentPrice", "collateralAvailable", "blockNumber", "blockHash", "levels"]);
    await assertLevelsAreGets(ladder.json, devchain.marketGroup, "1", budget, prices);
    // Each level says what stops it: here, the budget at every price, as each level's GET says.
    assert.deepEqual(ladder.json.levels.map((level: { limitedBy?: string }) => level.limitedBy), prices.map(() => "collateral"));
    // Sizes only grow with distance from the current price.
    const sizes = ladder.json.levels.map((level: { maxSize?: string }) => BigInt(level.maxSize ?? "0"));
    for (let i = 1; i < sizes.length; i++) assert.ok(sizes[i] >= sizes[i - 1], `level ${i}`);
  });

  test("SHORT, and the second collateral group, and levels that fail on their own beside the others", async () => {
    // With what stops each level: expectedPrice close to the price, the budget farther.
    const cases: [string, string, string[], string, string[]][] = [
      [devchain.marketGroup, "2", ["999.9", "995", "990", "950", "1"], (10n * ONE).toString(), ["expectedPrice", "expectedPrice", "collateral", "collateral", "collateral"]],
      [DEMO_USDC_MARKET_GROUP_ADDRESS, "1", ["0.49", "0.45", "0.4"], THOUSAND.toString(), ["collateral", "collateral", "collateral"]],
    ];
    for (const [group, marketId, prices, budget, reasons] of cases) {
      const ladder = await get(depthPath(group, marketId, { collateralAvailable: budget, prices: prices.join(",") }));
      assert.equal(ladder.status, 200, ladder.text);
      assert.equal(ladder.json.direction, "SHORT");
      await assertLevelsAreGets(ladder.json, group, marketId, budget, prices);
      assert.deepEqual(ladder.json.levels.map((level: { limitedBy?: string }) => level.limitedBy), reasons);
    }
  });

  test("to and levels: prices evenly spaced from the current price (excluded) to `to`, rounded toward it; the price read and the ladder in one eth_call", async () => {
    const budget = (5n * ONE).toString();
    proxy.clear();
    const ladder = await get(depthPath(devchain.marketGroup, "2", { collateralAvailable: budget, to: "1000.0000000000000001", levels: "3" }));
    assert.equal(ladder.status, 200, ladder.text);
    assert.deepEqual(quoteRequests(proxy.methods), ["eth_call"], "the price read and the levels searched in one call");
    const current = parseUnits(ladder.json.currentPrice, 18);
    const to = parseUnits("1000.0000000000000001", 18);
    // The rule as docs/api.md states it: current + (to - current) * i / levels, rounded toward the current price.
    const rounded = (i: bigint) => (to > current ? current + ((to - current) * i) / 3n : current - ((current - to) * i) / 3n);
    const prices = [1n, 2n, 3n].map((i) => d18(rounded(i)));
    assert.equal(prices[2], "1000.0000000000000001", "the last level is `to` exactly");
    for (const [i, level] of ladder.json.levels.entries()) if (level.expectedPrice !== undefined) assert.equal(level.expectedPrice, prices[i]);
    await assertLevelsAreGets(ladder.json, devchain.marketGroup, "2", budget, prices);

    proxy.clear();
    const wide = await get(depthPath(devchain.marketGroup, "1", { collateralAvailable: THOUSAND.toString(), to: "0.2", levels: "10" }));
    assert.equal(wide.status, 200, wide.text);
    assert.deepEqual(quoteRequests(proxy.methods), ["eth_call"], "10 levels in one call");
    assert.equal(wide.json.direction, "SHORT");
    const start = parseUnits(wide.json.currentPrice, 18);
    const wider = Array.from({ length: 10 }, (_, i) => d18(start - ((start - parseUnits("0.2", 18)) * BigInt(i + 1)) / 10n));
    await assertLevelsAreGets(wide.json, devchain.marketGroup, "1", THOUSAND.toString(), wider);
  });

  test("to and levels on a market that cannot be quoted: the GET's error at `to`, in one eth_call; one level; `to` at the price", async () => {
    const budget = THOUSAND.toString();
    const { address: priceless, blockNumber } = await deployPricelessMarketGroup(devchain.chain);
    // Each at the priceless group's block or later: a "not found" at an older head would be asked again at the newer
    // one (semantics §11), a second call.
    const atBlock = { minBlock: blockNumber.toString() };
    const cases: [string, string, string, Record<string, string>][] = [
      ["not found", devchain.marketGroup, "99", atBlock],
      ["settled", devchain.marketGroup, "3", atBlock],
      ["no contract", "0x000000000000000000000000000000000000dead", "1", atBlock],
      ["no price", priceless, "1", atBlock],
    ];
    const errors: string[] = [];
    for (const [name, group, marketId, extra] of cases) {
      proxy.clear();
      const ladder = await get(depthPath(group, marketId, { collateralAvailable: budget, to: "0.9", levels: "5", ...extra }));
      assert.deepEqual(quoteRequests(proxy.methods), ["eth_call"], `${name}: one call`);
      const single = await get(`/quoter/${DEVCHAIN_ID}/${group}/${marketId}?${new URLSearchParams({ expectedPrice: "0.9", collateralAvailable: budget, search: "exact", ...extra })}`);
      assert.equal(ladder.status, single.status, `${name}: ${ladder.text}`);
      assert.equal(ladder.text, single.text, name);
      errors.push(`${ladder.status} ${ladder.json.error}`);
    }
    assert.deepEqual(errors, ["404 Market not found", "400 Market is settled", "404 Market not found", "404 Current price not found"]);

    proxy.clear();
    const price = await currentPrice("1");
    const atPrice = await get(depthPath(devchain.marketGroup, "1", { collateralAvailable: budget, to: price, levels: "4" }));
    assert.equal(atPrice.status, 400, atPrice.text);
    assert.deepEqual(atPrice.json.details, [{ param: "to", message: `must differ from the current price (${price})` }]);
    assert.deepEqual(quoteRequests(proxy.methods), ["eth_call"], "`to` at the price: one call");

    proxy.clear();
    const one = await get(depthPath(devchain.marketGroup, "2", { collateralAvailable: budget, to: "1020", levels: "1" }));
    assert.equal(one.status, 200, one.text);
    assert.deepEqual(quoteRequests(proxy.methods), ["eth_call"], "one level: one call");
    await assertLevelsAreGets(one.json, devchain.marketGroup, "2", budget, ["1020"]);
  });

  test("to and levels heavier than the gas cap: the levels the first call left go in further calls at its block, the same answer", async () => {
    const budget = `${THOUSAND}000`;
    // A cap of three times the farthest level's search: a few levels per call.
    const cap = 3n * (await searchGas(devchain.endpoint.url, devchain.marketGroup, "1", { expectedPrice: "0.8", collateralAvailable: budget, search: "exact" }));
    const small = await setup.serve({ searchGasCap: cap });
    try {
      const path = depthPath(devchain.marketGroup, "1", { collateralAvailable: budget, to: "0.8", levels: "10" });
      // The endpoint's probe, made by a first quote.
      await request(`${small.base}/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/1?expectedPrice=0.7&collateralAvailable=${ONE}`).then((response) => response.body.dump());
      proxy.clear();
      const response = await request(`${small.base}${path}`);
      const text = await response.body.text();
      assert.equal(response.statusCode, 200, text);
      const calls = quoteRequests(proxy.methods);
      assert.ok(calls.length > 1 && calls.length < 10, `a cap of ${cap} gas holds a few exact searches per call (${calls.length} calls)`);
      const ladder = await get(`${path}&minBlock=${JSON.parse(text).blockNumber}`);
      assert.equal(text, ladder.text, "the same answer as under the default gas cap, at the same block");
      const current = parseUnits(ladder.json.currentPrice, 18);
      const prices = Array.from({ length: 10 }, (_, i) => d18(current + ((parseUnits("0.8", 18) - current) * BigInt(i + 1)) / 10n));
      await assertLevelsAreGets(ladder.json, devchain.marketGroup, "1", budget, prices);
    } finally {
      await small.close();
    }
  });

  test("an endpoint quoted call by call (the sequential strategy): to and levels read the price first, then each level; the same answer", async () => {
    const sequential = await setup.serve({ strategy: "sequential" });
    try {
      const path = depthPath(devchain.marketGroup, "2", { collateralAvailable: THOUSAND.toString(), to: "1050", levels: "4" });
      proxy.clear();
      const response = await request(`${sequential.base}${path}`);
      const text = await response.body.text();
      assert.equal(response.statusCode, 200, text);
      const calls = proxy.requests.filter((call) => call.method === "eth_call").map((call) => (call.params as { to?: string; data?: string }[])[0]!);
      assert.deepEqual(calls[0], { to: devchain.marketGroup, data: encodeGetReferencePrice(2n) }, "the price first, alone");
      assert.ok(calls.length > 1 + 4, `then call by call (${calls.length})`);
      assert.ok(calls.every((call) => call.to !== undefined), "no deployless call");
      const searched = await get(`${path}&minBlock=${JSON.parse(text).blockNumber}`);
      assert.equal(text, searched.text, "byte for byte the single call's answer, at the same block");
    } finally {
      await sequential.close();
    }
  });

  test("the request's rules: each a 400 naming the parameter; a market that cannot be quoted is the request's error", async () => {
    const path = (query: Record<string, string>, marketId = "1", group: string = devchain.marketGroup) => depthPath(group, marketId, query);
    const budget = THOUSAND.toString();
    const price = await currentPrice("1");
    const cases: [string, string, string][] = [
      [path({ prices: "0.6" }), "Invalid query parameters", "collateralAvailable"],
      [path({ collateralAvailable: budget }), "Invalid query parameters", "prices"],
      [path({ collateralAvailable: budget, prices: "0.6", to: "0.9", levels: "2" }), "Invalid query parameters", "prices"],
      [path({ collateralAvailable: budget, to: "0.9" }), "Invalid query parameters", "levels"],
      [path({ collateralAvailable: budget, levels: "3" }), "Invalid query parameters", "to"],
      [path({ collateralAvailable: budget, to: "0.9", levels: "0" }), "Invalid query parameters", "levels"],
      [path({ collateralAvailable: budget, to: "0.9", levels: "51" }), "Invalid query parameters", "levels"],
      [path({ collateralAvailable: budget, to: "0", levels: "5" }), "Invalid query parameters", "to"],
      [path({ collateralAvailable: budget, prices: Array.from({ length: 51 }, (_, i) => `0.${60 + i}`).join(",") }), "Invalid query parameters", "prices"],
      [path({ collateralAvailable: budget, prices: "0.6,,0.7" }), "Invalid query parameters", "prices"],
      [path({ collateralAvailable: budget, prices: "0.6,abc" }), "Invalid query parameters", "prices"],
      [path({ collateralAvailable: "1.5", prices: "0.6" }), "Invalid query parameters", "collateralAvailable"],
      [path({ collateralAvailable: budget, prices: "0.4,0.6" }), "Invalid query parameters", "prices"],
      [path({ collateralAvailable: budget, prices: price }), "Invalid query parameters", "prices"],
      [path({ collateralAvailable: budget, to: price, levels: "4" }), "Invalid query parameters", "to"],
      [`/quoter/${DEVCHAIN_ID}/0x123/1/depth?collateralAvailable=${budget}&prices=0.6`, "Invalid path parameters", "marketAddress"],
    ];
    for (const [url, error, param] of cases) {
      const answer = await get(url);
      assert.equal(answer.status, 400, `${url}: ${answer.text}`);
      assert.equal(answer.json.error, error, url);
      assert.ok(answer.json.details.some((detail: { param: string }) => detail.param === param), `${url}: ${answer.text}`);
    }
    const settled = await get(path({ collateralAvailable: budget, prices: "0.6,0.7" }, "3"));
    const settledGet = await get(`/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/3?expectedPrice=0.6&collateralAvailable=${budget}&search=exact`);
    assert.equal(settled.status, settledGet.status);
    assert.equal(settled.text, settledGet.text, "a settled market: the GET's error");
    const missing = await get(path({ collateralAvailable: budget, to: "0.9", levels: "2" }, "99"));
    assert.equal(missing.status, 404, missing.text);
    assert.equal(missing.json.error, "Market not found");
    assert.equal((await get(`/quoter/999/${devchain.marketGroup}/1/depth?collateralAvailable=${budget}&prices=0.6`)).status, 404);
  });

  test("property: random markets, budgets and ladders equal their exact GETs at the ladder's block", async () => {
    let seed = 1126;
    const draw = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    const markets: [string, string, bigint][] = [
      [devchain.marketGroup, "1", parseUnits(await currentPrice("1"), 18)],
      [devchain.marketGroup, "2", parseUnits(await currentPrice("2"), 18)],
      [DEMO_USDC_MARKET_GROUP_ADDRESS, "1", parseUnits(await currentPrice("1", DEMO_USDC_MARKET_GROUP_ADDRESS), 18)],
    ];
    for (let round = 0; round < 4; round++) {
      const [group, marketId, near] = markets[draw(markets.length)]!;
      const long = draw(2) === 0;
      const budget = `${1 + draw(999)}${"0".repeat(12 + draw(10))}`;
      const prices = Array.from({ length: 2 + draw(5) }, () => {
        const offset = (near * BigInt(1 + draw(400))) / 1000n;
        return d18(long ? near + offset : near - offset);
      });
      const ladder = await get(depthPath(group, marketId, { collateralAvailable: budget, prices: prices.join(",") }));
      assert.equal(ladder.status, 200, ladder.text);
      await assertLevelsAreGets(ladder.json, group, marketId, budget, prices);
    }
  });
});
