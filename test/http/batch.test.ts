// POST /quoter/:chainId/batch on the embedded chain over real HTTP: every quote answered at one block, each result
// the very bytes of the GET of that quote at that block (GETs with minBlock = the batch's block, on a chain that
// does not move meanwhile), bad items their own 400 beside the others, and a body that is not a batch one 400.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "undici";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { DEMO_USDC_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import type { Devchain } from "../../src/devchain/devchain.ts";
import { ONE, THOUSAND } from "../../src/http/docExamples.ts";
import { onWireEvents } from "../support/eventStream.ts";
import { serviceBehindProxy, trade, type LiveService, type ServiceBehindProxy } from "../support/liveService.ts";
import { quoteRequests, type RpcProxy } from "../support/rpcProxy.ts";
import { searchGas } from "../support/searchGas.ts";

let devchain: Devchain;
let proxy: RpcProxy;
let service: LiveService;
let setup: ServiceBehindProxy;
before(async () => {
  // The endpoint is probed before the service answers: the probe is not a batch's cost.
  ({ devchain, proxy, service } = setup = await serviceBehindProxy({ batchMaxQuotes: 8, probe: true }));
});
after(() => setup.close());

async function post(body: unknown, raw?: string): Promise<{ status: number; text: string; json: any }> {
  const response = await request(`${service.base}/quoter/${DEVCHAIN_ID}/batch`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: raw ?? JSON.stringify(body),
  });
  const text = await response.body.text();
  return { status: response.statusCode, text, json: JSON.parse(text) };
}

/** The GET of one item, at `block`: its status and its bytes. */
async function getOf(item: Record<string, string>, block: string): Promise<{ status: number; text: string }> {
  const { marketAddress, marketId, ...query } = item;
  const response = await request(`${service.base}/quoter/${DEVCHAIN_ID}/${marketAddress}/${marketId}?${new URLSearchParams({ ...query, minBlock: block })}`);
  return { status: response.statusCode, text: await response.body.text() };
}

const group = () => devchain.marketGroup;

describe("a batch", () => {
  test("every demo market (both collateral groups), LONG and SHORT, bad items among them: one block, each result the GET's bytes", async () => {
    const items: Record<string, string>[] = [
      { marketAddress: group(), marketId: "1", expectedPrice: "0.55", collateralAvailable: THOUSAND },
      { marketAddress: group(), marketId: "1", expectedPrice: "0.45", collateralAvailable: THOUSAND, search: "exact" },
      { marketAddress: group(), marketId: "2", expectedPrice: "1030", collateralAvailable: THOUSAND, trace: "true" },
      { marketAddress: group(), marketId: "3", expectedPrice: "0.6", collateralAvailable: ONE },
      { marketAddress: group(), marketId: "4", expectedPrice: "0.59", collateralAvailable: ONE },
      { marketAddress: group(), marketId: "5", expectedPrice: "0.55", collateralAvailable: ONE },
      { marketAddress: DEMO_USDC_MARKET_GROUP_ADDRESS, marketId: "1", expectedPrice: "0.45", collateralAvailable: THOUSAND, maxIterations: "6" },
      { marketAddress: group(), marketId: "2", expectedPrice: "abc", collateralAvailable: "1.5" },
    ];
    proxy.clear();
    const answer = await post({ quotes: items });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(quoteRequests(proxy.methods), ["eth_call"], "the whole batch in one eth_call");
    const { blockNumber, blockHash, results } = answer.json as { blockNumber: string; blockHash: string; results: { status: number; body: any }[] };
    assert.equal(blockHash, (await devchain.chain.publicClient.getBlock({ blockNumber: BigInt(blockNumber) })).hash);
    assert.equal(results.length, items.length);
    const statuses = results.map((result) => result.status);
    assert.deepEqual(statuses, [200, 200, 200, 400, 400, 400, 200, 400]);
    assert.deepEqual(results.slice(0, 2).map((result) => result.body.direction), ["LONG", "SHORT"]);
    // Each found size says what stops it, as its GET does: all ten sizes fit, the budget, expectedPrice.
    assert.deepEqual(results.filter((result) => result.status === 200).map((result) => result.body.limitedBy), ["collateral", "collateral", "expectedPrice", "collateral"]);
    for (const [i, item] of items.entries()) {
      const get = await getOf(item, blockNumber);
      assert.equal(results[i]!.status, get.status, `item ${i}`);
      if (get.status === 200) assert.equal(JSON.parse(get.text).blockNumber, blockNumber, `item ${i} at the batch's block`);
      // The result's body, cut from the batch's bytes, is the GET's body.
      assert.equal(JSON.stringify(results[i]!.body), get.text, `item ${i}`);
    }
    assert.ok(answer.text.includes(`"body":${(await getOf(items[2]!, blockNumber)).text}}`), "the bytes themselves, not a re-serialization");
  });

  test("a body that is not a batch: one 400 for the request, naming what is wrong", async () => {
    const item = { marketAddress: group(), marketId: "1", expectedPrice: "0.55", collateralAvailable: THOUSAND };
    const cases: [unknown, string | undefined, string][] = [
      [undefined, "{not json", "body"],
      [[item], undefined, "body"],
      [{ quotes: [] }, undefined, "quotes"],
      [{ quotes: Array(9).fill(item) }, undefined, "quotes"],
      [{ quotes: [item], extra: 1 }, undefined, "extra"],
      [{ quotes: [{ ...item, expectedPrice: 0.55 }] }, undefined, "quotes[0].expectedPrice"],
      [{ quotes: [item, { ...item, chainId: "1" }] }, undefined, "quotes[1].chainId"],
      [{ quotes: [item, "1"] }, undefined, "quotes[1]"],
    ];
    for (const [body, raw, param] of cases) {
      const answer = await post(body, raw);
      assert.equal(answer.status, 400, answer.text);
      assert.equal(answer.json.error, "Invalid request body", answer.text);
      assert.ok(answer.json.details.some((detail: { param: string }) => detail.param === param), `${param}: ${answer.text}`);
    }
    // JSON that breaks: where, by line and column, and what could have come there.
    const broken = await post(undefined, '{"quotes": [\n  {"marketId": 2},\n]}');
    assert.match(broken.json.details[0].message, /^is not valid JSON at line 3, column 1 \(offset 32\): expected a value \(/);
    const badChain = await request(`${service.base}/quoter/abc/batch`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ quotes: [item] }) });
    assert.equal(badChain.statusCode, 400);
    assert.equal(((await badChain.body.json()) as { error: string }).error, "Invalid path parameters");
    const unknownChain = await request(`${service.base}/quoter/999/batch`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ quotes: [item] }) });
    assert.equal(unknownChain.statusCode, 404);
  });

  test("property: random markets, budgets, prices and searches, in batches of 8: each result equals its GET at the batch's block", async () => {
    let seed = 2026;
    const draw = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    const markets: [string, string, string[]][] = [
      [group(), "1", ["0.3", "0.45", "0.49", "0.51", "0.55", "0.7", "0.5"]],
      [group(), "2", ["900", "990", "999.5", "1000.5", "1010", "1100", "1000"]],
      [group(), "4", ["0.4", "0.59", "0.61"]],
      [DEMO_USDC_MARKET_GROUP_ADDRESS, "1", ["0.45", "0.55", "0.6"]],
    ];
    let compared = 0;
    for (let batch = 0; batch < 5; batch++) {
      const items = Array.from({ length: 8 }, () => {
        const [marketAddress, marketId, prices] = markets[draw(markets.length)]!;
        const budget = `${1 + draw(999)}${"0".repeat(12 + draw(10))}`;
        return {
          marketAddress,
          marketId,
          expectedPrice: prices[draw(prices.length)]!,
          collateralAvailable: budget,
          ...(draw(2) === 0 ? { search: "exact" } : { maxIterations: String(1 + draw(10)) }),
        };
      });
      proxy.clear();
      const answer = await post({ quotes: items });
      assert.equal(answer.status, 200, answer.text);
      assert.ok(quoteRequests(proxy.methods).length <= 1, `batch ${batch}: one eth_call at most (${proxy.methods.join()})`);
      for (const [i, item] of items.entries()) {
        const get = await getOf(item, answer.json.blockNumber);
        assert.equal(answer.json.results[i].status, get.status, JSON.stringify(item));
        assert.equal(JSON.stringify(answer.json.results[i].body), get.text, JSON.stringify(item));
        compared++;
      }
    }
    assert.equal(compared, 40);
  });

  test("a batch heavier than the gas cap: as few calls as fit (fewer than alone), all at one block, each result the GET's bytes", async () => {
    const items = ["0.3", "0.4", "0.45", "0.55", "0.6", "0.7"].map((expectedPrice) => ({
      marketAddress: group(),
      marketId: "1",
      expectedPrice,
      collateralAvailable: `${THOUSAND}000`,
      search: "exact",
    }));
    // A cap of twice the heaviest search: each fits one call alone, the six together do not.
    const gases = await Promise.all(items.map(({ marketAddress, marketId, ...query }) => searchGas(devchain.endpoint.url, marketAddress, marketId, query)));
    const cap = 2n * gases.reduce((a, b) => (a > b ? a : b));
    await setup.withService({ searchGasCap: cap }, async (small) => {
      // Alone: each quote's own calls (the first GET also probes the endpoint).
      await request(`${small.base}/quoter/${DEVCHAIN_ID}/${group()}/1?expectedPrice=0.8&collateralAvailable=${ONE}`).then((response) => response.body.dump());
      proxy.clear();
      for (const item of items) {
        const { marketAddress, marketId, ...query } = item;
        const response = await request(`${small.base}/quoter/${DEVCHAIN_ID}/${marketAddress}/${marketId}?${new URLSearchParams(query)}`, { headers: { "cache-control": "no-cache" } });
        assert.equal(response.statusCode, 200, await response.body.text());
      }
      const alone = quoteRequests(proxy.methods).length;
      proxy.clear();
      const response = await request(`${small.base}/quoter/${DEVCHAIN_ID}/batch`, {
        method: "POST",
        headers: { "content-type": "application/json", "cache-control": "no-cache" },
        body: JSON.stringify({ quotes: items }),
      });
      const answer = (await response.body.json()) as { blockNumber: string; results: { status: number; body: unknown }[] };
      assert.equal(response.statusCode, 200, JSON.stringify(answer));
      const together = quoteRequests(proxy.methods).length;
      assert.ok(together > 1, `a cap of ${cap} gas cannot hold six exact searches in one call (${together})`);
      assert.ok(together < alone, `together ${together} calls, alone ${alone}`);
      for (const [i, item] of items.entries()) {
        const get = await getOf(item, answer.blockNumber);
        assert.equal(JSON.stringify(answer.results[i]!.body), get.text, JSON.stringify(item));
      }
    });
  });

  test("an endpoint quoted call by call (the sequential strategy): the batch's quotes are searched alone, each result the GET's bytes", async () => {
    await setup.withService({ strategy: "sequential" }, async (sequential) => {
      const items: Record<string, string>[] = [
        { marketAddress: group(), marketId: "1", expectedPrice: "0.55", collateralAvailable: THOUSAND },
        { marketAddress: group(), marketId: "2", expectedPrice: "990", collateralAvailable: THOUSAND, search: "exact" },
        { marketAddress: DEMO_USDC_MARKET_GROUP_ADDRESS, marketId: "1", expectedPrice: "0.45", collateralAvailable: THOUSAND },
      ];
      proxy.clear();
      const response = await request(`${sequential.base}/quoter/${DEVCHAIN_ID}/batch`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ quotes: items }) });
      const answer = (await response.body.json()) as { blockNumber: string; results: { status: number; body: unknown }[] };
      assert.equal(response.statusCode, 200, JSON.stringify(answer));
      const calls = proxy.requests.filter((call) => call.method === "eth_call");
      assert.ok(calls.length > items.length, "call by call");
      assert.ok(calls.every((call) => (call.params as { to?: string }[])[0]?.to !== undefined), "no deployless call");
      for (const [i, item] of items.entries()) {
        const get = await getOf(item, answer.blockNumber);
        assert.equal(JSON.stringify(answer.results[i]!.body), get.text, JSON.stringify(item));
      }
    });
  });

  test("with Accept: text/event-stream: a `quote` event with the whole answer at once, then at the block of a trade", async () => {
    const items = [
      { marketAddress: group(), marketId: "2", expectedPrice: "1030", collateralAvailable: THOUSAND },
      { marketAddress: group(), marketId: "1", expectedPrice: "0.45", collateralAvailable: THOUSAND },
      { marketAddress: group(), marketId: "2", expectedPrice: "x", collateralAvailable: THOUSAND },
    ];
    const controller = new AbortController();
    const response = await request(`${service.base}/quoter/${DEVCHAIN_ID}/batch`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ quotes: items }),
      signal: controller.signal,
    });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers["content-type"], "text/event-stream");
    const events: { id: string; event: string; data: string }[] = [];
    onWireEvents(response.body, ({ id = "", event = "", data = "" }) => events.push({ id, event, data }));
    const waitEvents = async (count: number) => {
      for (let waited = 0; events.length < count; waited += 10) {
        assert.ok(waited < 10_000, `${count} events within 10 s`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    try {
      await waitEvents(1);
      const first = events[0]!;
      assert.equal(first.event, "quote");
      assert.equal(first.data, (await post({ quotes: items })).text, "the POST's answer at that block, byte for byte");
      assert.equal(JSON.parse(first.data).blockNumber, first.id);
      assert.deepEqual(JSON.parse(first.data).results.map((result: { status: number }) => result.status), [200, 200, 400]);
      const traded = await trade(devchain);
      await waitEvents(2);
      const second = events[1]!;
      assert.ok(BigInt(second.id) >= traded.blockNumber);
      assert.equal(second.data, (await post({ quotes: items })).text);
    } finally {
      controller.abort();
    }
  });
});
