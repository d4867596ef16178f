// Answers by block: quotes pin to the chain's head while it is fresh (HEAD_MAX_AGE_MS), and an identical request
// at that block is answered from the cache, byte for byte what a search at that block answers. Real chain, real
// HTTP to it, a recording proxy counting the JSON-RPC requests that reach the node.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { FastifyInstance } from "fastify";
import { maxUint256, parseUnits } from "viem";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { startRpcProxy, type RpcProxy } from "../support/rpcProxy.ts";
import { quoterApp } from "../support/quoterHarness.ts";

const CACHE = { maxEntries: 1000, maxBytes: 1 << 20 };

let devchain: Devchain;
let proxy: RpcProxy;
before(async () => {
  devchain = await startDevchain();
  proxy = await startRpcProxy(devchain.endpoint.url);
});
after(async () => {
  await proxy.close();
  await devchain.close();
});

const path = (marketId: number, query: Record<string, string>) =>
  `/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/${marketId}?${new URLSearchParams(query)}`;
const QUOTE = { expectedPrice: "1030", collateralAvailable: "1000000000000000000000", trace: "true" };

async function withApp<T>(options: Parameters<typeof quoterApp>[0], run: (app: FastifyInstance) => Promise<T>): Promise<T> {
  const app = await quoterApp({ probe: true, ...options });
  try {
    return await run(app);
  } finally {
    await app.close();
  }
}

async function trade(): Promise<void> {
  const { traderClient, publicClient } = devchain.chain;
  const hash = await traderClient.writeContract({
    address: devchain.marketGroup,
    abi: marketGroupAbi,
    functionName: "executeTrade",
    args: [2n, parseUnits("0.01", 18), maxUint256],
  });
  assert.equal((await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 })).status, "success");
}

describe("answers cached per block", () => {
  for (const strategy of ["single-call", "sequential"] as const) {
    test(`${strategy}: 20 identical requests within one block reach the node as one quote's requests, each answer byte for byte a search's`, async () => {
      const url = path(2, QUOTE);
      const searched = await withApp({ rpc: devchain.endpoint.url, strategy }, (app) => app.inject({ url }));
      await withApp({ rpc: proxy.url, strategy, headMaxAgeMs: 60_000, answerCache: CACHE }, async (app) => {
        proxy.clear();
        const one = await app.inject({ url });
        const requestsOfOne = proxy.requests.length;
        const answers = [one];
        for (let i = 0; i < 19; i++) answers.push(await app.inject({ url }));
        assert.equal(proxy.requests.length, requestsOfOne, "the 19 repeats reach the node not at all");
        if (strategy === "single-call") assert.deepEqual(proxy.methods, ["eth_call"]);
        for (const answer of answers) assert.equal(answer.body, searched.body);
        const metrics = (await app.inject({ url: "/metrics" })).body;
        assert.match(metrics, /quoter_answer_cache_total\{result="hit"\} 19/);
        assert.match(metrics, /quoter_answer_cache_total\{result="miss"\} 1/);
      });
    });
  }

  test("concurrent identical requests share one search, later ones the cache; another request is its own search", async () => {
    await withApp({ rpc: proxy.url, headMaxAgeMs: 60_000, answerCache: CACHE }, async (app) => {
      proxy.clear();
      const url = path(1, { expectedPrice: "0.55", collateralAvailable: "1000000000000000000000" });
      const first = await Promise.all(Array.from({ length: 10 }, () => app.inject({ url })));
      const again = await Promise.all(Array.from({ length: 10 }, () => app.inject({ url })));
      assert.deepEqual(proxy.methods, ["eth_call"]);
      for (const answer of [...first, ...again]) assert.equal(answer.body, first[0]!.body);
      await app.inject({ url: `${url}1` }); // one wei more: another request
      assert.deepEqual(proxy.methods, ["eth_call", "eth_call"]);
    });
  });

  test("after a trade, quotes stay at the head they know until it is HEAD_MAX_AGE_MS old, then read the new block", async () => {
    await withApp({ rpc: devchain.endpoint.url, headMaxAgeMs: 300, answerCache: CACHE }, async (app) => {
      const url = path(2, QUOTE);
      const before = (await app.inject({ url })).json();
      await trade();
      const pinned = (await app.inject({ url })).json();
      assert.deepEqual(pinned, before, "within HEAD_MAX_AGE_MS: the head the service knows, and its cached answer");
      await new Promise((resolve) => setTimeout(resolve, 350));
      const after = (await app.inject({ url })).json();
      assert.ok(BigInt(after.blockNumber) > BigInt(before.blockNumber), "past it: the latest block");
      assert.notEqual(after.maxSize, before.maxSize);
    });
  });

  test("HEAD_MAX_AGE_MS=0: every quote reads the latest block; a cache without pinning never answers", async () => {
    await withApp({ rpc: proxy.url, headMaxAgeMs: 0, answerCache: CACHE }, async (app) => {
      proxy.clear();
      const url = path(2, QUOTE);
      for (let i = 0; i < 3; i++) assert.equal((await app.inject({ url })).statusCode, 200);
      assert.deepEqual(proxy.methods, ["eth_call", "eth_call", "eth_call"]);
    });
  });
});
