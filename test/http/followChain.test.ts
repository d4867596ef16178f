// Semantics §11, on the embedded chain over real HTTP: an answer is about one block, named by number and hash, the
// newest the service had seen when the request arrived (pushed over the node's WebSocket, or polled); `minBlock`
// waits for a block a client knows of (its own trade); a block the chain replaced (anvil's evm_revert, anvil_reorg)
// is never answered from once the service knows of it, from the cache or from a search.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseUnits } from "viem";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import type { Devchain } from "../../src/devchain/devchain.ts";
import { chainBehindProxy, trade, waitFor, type ChainBehindProxy, type LiveService, type ServeOptions } from "../support/liveService.ts";

const CACHE = { maxEntries: 1000, maxBytes: 1 << 20 };
const QUERY = { expectedPrice: "1030", collateralAvailable: "1000000000000000000000" };

let setup: ChainBehindProxy;
let devchain: Devchain;
before(async () => ({ devchain } = setup = await chainBehindProxy()));
after(() => setup.close());

const path = (query: Record<string, string> = QUERY) => `/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/2?${new URLSearchParams(query)}`;
const request = (method: string, params: unknown[] = []) => devchain.chain.provider.request({ method, params } as never) as Promise<unknown>;
const canonicalHash = async (blockNumber: string) => (await devchain.chain.publicClient.getBlock({ blockNumber: BigInt(blockNumber) })).hash;

/** `run` with a service on the node itself, its answers kept by block; `options` for the rest. */
const withService = <T>(options: ServeOptions, run: (service: LiveService) => Promise<T>): Promise<T> =>
  setup.withService({ rpc: devchain.endpoint.url, answerCache: CACHE, ...options }, run);

describe("fresh answers after a trade", () => {
  test("minBlock = the trade's block: the answer is at that block or later and sees the trade, even while polling lags", async () => {
    // Polled at most every 60 s: without minBlock the service would not see the trade for a long while.
    await withService({ headPollMs: 60_000 }, async (service) => {
      const before = await service.get(path());
      assert.equal(before.status, 200);
      const traded = await trade(devchain);
      const seen = await service.get(path({ ...QUERY, minBlock: traded.blockNumber.toString() }));
      assert.equal(seen.status, 200, JSON.stringify(seen.body));
      assert.ok(BigInt(seen.body.blockNumber) >= traded.blockNumber);
      assert.equal(seen.body.blockHash, await canonicalHash(seen.body.blockNumber));
      assert.ok(BigInt(seen.body.maxSize) < BigInt(before.body.maxSize), "the LONG trade left less room before 1030");
      assert.notEqual(seen.body.currentPrice, before.body.currentPrice);
    });
  });

  test("a minBlock the chain does not reach: 503 within the deadline, naming minBlock and the newest block seen", async () => {
    await withService({ deadlineMs: 600 }, async (service) => {
      const head = (await devchain.chain.publicClient.getBlock()).number;
      const started = Date.now();
      const answer = await service.get(path({ ...QUERY, minBlock: (head + 1000n).toString() }));
      assert.equal(answer.status, 503);
      assert.ok(Number(answer.headers["retry-after"]) > 0);
      assert.equal(answer.body.error, "Chain RPC unavailable");
      assert.equal(answer.body.details[0].param, "minBlock");
      assert.match(answer.body.details[0].message, new RegExp(`block ${head + 1000n}\\b.*the newest block seen is ${head}\\b`));
      assert.ok(Date.now() - started < 3_000, "answered at the deadline");
    });
  });

  test("minBlock that is not a block number is a 400 like any bad parameter, before any chain call", async () => {
    await withService({}, async (service) => {
      for (const bad of ["-1", "1.5", "abc", "0x10", "", "18446744073709551616"]) {
        const answer = await service.get(path({ ...QUERY, minBlock: bad }));
        assert.equal(answer.status, 400, bad);
        assert.equal(answer.body.error, "Invalid query parameters");
        assert.deepEqual(answer.body.details.map((detail: { param: string }) => detail.param), ["minBlock"], bad);
      }
      assert.equal((await service.get(path({ ...QUERY, minBlock: "0" }))).status, 200);
      assert.equal((await service.get(path({ ...QUERY, minBlock: "000" }))).status, 200, "leading zeros are allowed (semantics §2)");
    });
  });

  test("with a WebSocket endpoint, a quote 250 ms after a trade sees it without minBlock", async () => {
    await withService({ webSocket: true }, async (service) => {
      for (let i = 0; i < 3; i++) {
        const before = await service.get(path());
        const traded = await trade(devchain);
        await new Promise((resolve) => setTimeout(resolve, 250));
        const after = await service.get(path());
        assert.equal(after.status, 200);
        assert.equal(after.body.blockNumber, traded.blockNumber.toString(), `trade ${i + 1}: the trade's block`);
        assert.equal(after.body.blockHash, traded.blockHash);
        assert.notEqual(after.body.maxSize, before.body.maxSize);
      }
    });
  });

  test("Cache-Control: no-cache reads the endpoint's latest block: a trade shows at once, even while polling lags", async () => {
    await withService({ headPollMs: 60_000 }, async (service) => {
      await service.get(path());
      const traded = await trade(devchain);
      const fresh = await service.get(path(), { "cache-control": "no-cache" });
      assert.equal(fresh.body.blockHash, traded.blockHash);
    });
  });
});

/**
 * Quotes sent one after another while `reorganise` runs, each with the head /health showed just before it was sent.
 * Returns them once the chain's head is `until()` and the service has followed it.
 */
async function quotesThrough(service: LiveService, reorganise: () => Promise<string>) {
  const answers: { status: number; blockHash?: string; blockNumber?: string; knownBefore?: string }[] = [];
  let done = false;
  const traffic = (async () => {
    while (!done) {
      const knownBefore = (await service.head())?.blockHash;
      const answer = await service.get(path());
      answers.push({ status: answer.status, blockHash: answer.body.blockHash, blockNumber: answer.body.blockNumber, ...(knownBefore ? { knownBefore } : {}) });
    }
  })();
  const newHead = await reorganise();
  await waitFor(async () => (await service.head())?.blockHash === newHead, 5_000, "the service to follow the new head");
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  done = true;
  await traffic;
  return answers;
}

for (const [mode, options] of [
  ["pushed over the WebSocket", { webSocket: true }],
  ["polled every 50 ms", { headPollMs: 50 }],
] as const) {
  describe(`a reorg, the head ${mode}`, () => {
    test("evm_snapshot, a trade, evm_revert, another trade: the replaced block is never answered once it is known replaced", async () => {
      await withService(options, async (service) => {
        const snapshot = await request("evm_snapshot");
        const replaced = await trade(devchain);
        const atReplaced = await quotedAt(service, replaced.blockHash);
        assert.equal(atReplaced.body.blockHash, replaced.blockHash, "answered (and kept) at the block about to be replaced");
        let replacement = "";
        const answers = await quotesThrough(service, async () => {
          await request("evm_revert", [snapshot]);
          replacement = (await trade(devchain, parseUnits("0.02", 18))).blockHash;
          return replacement;
        });
        assert.notEqual(replacement, replaced.blockHash);
        assertNeverReplaced(answers, replaced.blockHash);
        const last = await service.get(path());
        assert.equal(last.body.blockHash, replacement);
        assert.equal(last.body.blockHash, await canonicalHash(last.body.blockNumber));
      });
    });

    test("anvil_reorg of the head block: the replaced block is never answered once it is known replaced", async () => {
      await withService(options, async (service) => {
        const replaced = await trade(devchain);
        assert.equal((await quotedAt(service, replaced.blockHash)).body.blockHash, replaced.blockHash);
        const answers = await quotesThrough(service, async () => {
          await request("anvil_reorg", [1, []]);
          return (await devchain.chain.publicClient.getBlock()).hash;
        });
        assertNeverReplaced(answers, replaced.blockHash);
        const last = await service.get(path());
        assert.notEqual(last.body.blockHash, replaced.blockHash);
        assert.equal(last.body.blockHash, await canonicalHash(last.body.blockNumber));
      });
    });
  });
}

/** Quotes until one is answered at `blockHash` (the chain's head, once the service follows it): that answer. */
async function quotedAt(service: LiveService, blockHash: string) {
  let answer = await service.get(path());
  await waitFor(async () => (answer = await service.get(path())).body.blockHash === blockHash, 5_000, `an answer at ${blockHash}`);
  return answer;
}

/** No answer at the replaced block to a request sent after the service showed another head; none a 5xx. */
function assertNeverReplaced(answers: { status: number; blockHash?: string; knownBefore?: string }[], replaced: string): void {
  assert.ok(answers.length >= 5, `${answers.length} quotes during the reorg`);
  let afterward = 0;
  for (const answer of answers) {
    assert.ok(answer.status < 500, `a ${answer.status} during the reorg`);
    if (answer.knownBefore !== undefined && answer.knownBefore !== replaced) {
      afterward++;
      assert.notEqual(answer.blockHash, replaced, "an answer of the replaced block, sent after the service knew of another head");
    }
  }
  assert.ok(afterward > 0, "quotes were sent after the service followed the reorg");
}
