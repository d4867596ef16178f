// Answers by block (semantics §11): quotes are answered at the chain's head, named by its hash, and an identical
// request at that block is answered from the cache, byte for byte what a search at that block answers. Real chain,
// real HTTP to it, a recording proxy counting the JSON-RPC requests that reach the node; the head is pushed over the
// node's own WebSocket, so that the proxy sees the quotes' requests (and each endpoint's one eth_chainId).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { FastifyInstance } from "fastify";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { chainBehindProxy, trade, waitFor, type ChainBehindProxy, type ServeOptions } from "../support/liveService.ts";

const CACHE = { maxEntries: 1000, maxBytes: 1 << 20 };

let setup: ChainBehindProxy;
before(async () => {
  setup = await chainBehindProxy();
});
after(() => setup.close());

const path = (marketId: number, query: Record<string, string>) =>
  `/quoter/${DEVCHAIN_ID}/${setup.devchain.marketGroup}/${marketId}?${new URLSearchParams(query)}`;
const QUOTE = { expectedPrice: "1030", collateralAvailable: "1000000000000000000000", trace: "true" };

/** `run` with an app on the proxy, probed, its heads pushed over the node's WebSocket; `options` for the rest. */
const withApp = <T>(options: ServeOptions, run: (app: FastifyInstance) => Promise<T>): Promise<T> =>
  setup.withService({ probe: true, webSocket: true, ...options }, (service) => run(service.app));

/** The quotes' requests: what the proxy saw but the endpoint's chain id, asked once before its first use. */
const quoteMethods = () => setup.proxy.methods.filter((method) => method !== "eth_chainId");

describe("answers cached per block", () => {
  for (const strategy of ["single-call", "sequential"] as const) {
    test(`${strategy}: 20 identical requests within one block reach the node as one quote's requests, each answer byte for byte a search's`, async () => {
      const url = path(2, QUOTE);
      const searched = await withApp({ rpc: setup.devchain.endpoint.url, strategy }, (app) => app.inject({ url }));
      await withApp({ strategy, answerCache: CACHE }, async (app) => {
        setup.proxy.clear();
        const one = await app.inject({ url });
        const requestsOfOne = quoteMethods().length;
        const answers = [one];
        for (let i = 0; i < 19; i++) answers.push(await app.inject({ url }));
        assert.equal(quoteMethods().length, requestsOfOne, "the 19 repeats reach the node not at all");
        if (strategy === "single-call") assert.deepEqual(quoteMethods(), ["eth_call"]);
        for (const answer of answers) assert.equal(answer.body, searched.body);
        const metrics = (await app.inject({ url: "/metrics" })).body;
        assert.match(metrics, /quoter_answer_cache_total\{result="hit"\} 19/);
        assert.match(metrics, /quoter_answer_cache_total\{result="miss"\} 1/);
      });
    });
  }

  test("concurrent identical requests share one search, later ones the cache; another request is its own search", async () => {
    await withApp({ answerCache: CACHE }, async (app) => {
      setup.proxy.clear();
      const url = path(1, { expectedPrice: "0.55", collateralAvailable: "1000000000000000000000" });
      const first = await Promise.all(Array.from({ length: 10 }, () => app.inject({ url })));
      const again = await Promise.all(Array.from({ length: 10 }, () => app.inject({ url })));
      assert.deepEqual(quoteMethods(), ["eth_call"]);
      for (const answer of [...first, ...again]) assert.equal(answer.body, first[0]!.body);
      await app.inject({ url: `${url}1` }); // one wei more: another request
      assert.deepEqual(quoteMethods(), ["eth_call", "eth_call"]);
      const minBlock = await app.inject({ url: `${url}&minBlock=0` }); // any block will do: the same request
      assert.equal(minBlock.body, first[0]!.body);
      assert.deepEqual(quoteMethods(), ["eth_call", "eth_call"]);
    });
  });

  test("a trade moves the head: the next quote is a new search at the new block, never the kept answer of the old one", async () => {
    await withApp({ answerCache: CACHE }, async (app) => {
      const url = path(2, QUOTE);
      const before = (await app.inject({ url })).json();
      await trade(setup.devchain);
      await waitFor(async () => BigInt((await app.inject({ url: "/health" })).json().chains[0].head.blockNumber) > BigInt(before.blockNumber));
      const after = (await app.inject({ url })).json();
      assert.ok(BigInt(after.blockNumber) > BigInt(before.blockNumber));
      assert.notEqual(after.blockHash, before.blockHash);
      assert.notEqual(after.maxSize, before.maxSize, "the trade moved the price: another answer");
    });
  });

  test("Cache-Control: no-cache: never the kept answer; the endpoint's latest block is read, then one search", async () => {
    await withApp({ answerCache: CACHE }, async (app) => {
      const url = path(2, QUOTE);
      const kept = await app.inject({ url });
      setup.proxy.clear();
      for (let i = 0; i < 3; i++) {
        const fresh = await app.inject({ url, headers: { "cache-control": "no-cache" } });
        assert.equal(fresh.body, kept.body, "the same block: the same answer, searched again");
      }
      assert.deepEqual(quoteMethods(), ["eth_getBlockByNumber", "eth_call", "eth_getBlockByNumber", "eth_call", "eth_getBlockByNumber", "eth_call"]);
      const metrics = (await app.inject({ url: "/metrics" })).body;
      assert.match(metrics, /quoter_answer_cache_total\{result="miss"\} 1\n/, "no-cache quotes do not look in the cache");
    });
  });
});
