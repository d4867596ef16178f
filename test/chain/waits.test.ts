// The head's waits leave nothing behind, whichever side of their race wins. A quote waits for the head in loops
// (minBlock, an endpoint that lags) against its one signal; a service runs for weeks. So after many waits on one
// long-lived signal, ended by the head moving, by their delay or by an abort: no abort listener is left on it, no
// timer of theirs is still pending, and a batch, a depth ladder and a long minBlock wait put no more listeners on a
// signal than Node warns about (no MaxListenersExceededWarning, with nothing in src/ silencing it).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHook } from "node:async_hooks";
import { getEventListeners } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { createChainRegistry } from "../../src/chain/rpc/client.ts";
import { createHeadFollower, type HeadFollower } from "../../src/chain/head/follower.ts";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { liveService, trade, type LiveService } from "../support/liveService.ts";

/** Where the head's waits are written: a timer created with one of these on its stack is a wait's. */
const WAITING_CODE = /src\/chain\/(waiting|headEvents|headFollower|headPolling|blocks)\.ts/;

/**
 * Timers created by the head's waiting code (told by the stack that created them) that have neither fired nor been
 * cleared: node's own bookkeeping of each Timeout (async_hooks), unref'd ones included, no fake timers.
 */
function watchWaitTimers() {
  const pending = new Set<number>();
  const hook = createHook({
    init(id, type) {
      if (type !== "Timeout") return;
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 40;
      const stack = new Error().stack ?? "";
      Error.stackTraceLimit = limit;
      if (WAITING_CODE.test(stack)) pending.add(id);
    },
    destroy(id) {
      pending.delete(id);
    },
  });
  hook.enable();
  return {
    /** Pending now, once node has told the clearings of this turn (destroy hooks come a turn later). */
    async pending(): Promise<number> {
      await nextTurn();
      await nextTurn();
      return pending.size;
    },
    stop: () => void hook.disable(),
  };
}

const listeners = (signal: AbortSignal) => getEventListeners(signal, "abort").length;

/** `run` with the waits' timers watched; after it, none of them may be pending. */
async function leavesNoTimer(run: () => Promise<void>): Promise<void> {
  const timers = watchWaitTimers();
  try {
    await run();
    assert.equal(await timers.pending(), 0, "timers of the waits still pending");
  } finally {
    timers.stop();
  }
}

describe("the head follower's waits against one long-lived signal", () => {
  let devchain: Devchain;
  let follower: HeadFollower;
  const node = (method: string, params: unknown[] = []) => devchain.chain.provider.request({ method, params } as never) as Promise<unknown>;

  before(async () => {
    devchain = await startDevchain();
    const chains = createChainRegistry(new Map([[DEVCHAIN_ID, [devchain.endpoint.url]]]), {
      timeoutMs: 5_000,
      webSocketUrls: new Map([[DEVCHAIN_ID, devchain.endpoint.webSocketUrl]]),
    });
    follower = createHeadFollower({ chain: chains.get(DEVCHAIN_ID)!, pollMs: 1_000, movedBackMs: 2_000, timeoutMs: 5_000 });
    await follower.start();
    await follower.refresh();
  });
  after(async () => {
    await follower?.close();
    await devchain?.close();
  });

  /** Resolves once the follower's head is `number`. */
  const headAt = async (number: bigint) => {
    while (follower.head?.number !== number) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  test("ended by the head moving: 20 waits of a minute each, woken by one block, leave no listener and no timer", async () => {
    await leavesNoTimer(async () => {
      const signal = new AbortController().signal;
      const before = follower.head!.number;
      for (let round = 0; round < 5; round++) {
        const waits = Array.from({ length: 20 }, () => follower.waitForChange(60_000, signal));
        await node("evm_mine");
        await Promise.all(waits);
        await headAt(before + BigInt(round + 1));
      }
      assert.equal(listeners(signal), 0, "abort listeners left on the signal");
    });
  });

  test("ended by their delay: 300 waits in a row leave no listener and no timer", async () => {
    await leavesNoTimer(async () => {
      const signal = new AbortController().signal;
      for (let i = 0; i < 300; i++) await follower.waitForChange(1, signal);
      assert.equal(listeners(signal), 0);
    });
  });

  test("ended by an abort: the signal's reason is what the quote sees, and the wait's timer is cleared", async () => {
    await leavesNoTimer(async () => {
      const controller = new AbortController();
      const waits = Array.from({ length: 20 }, () => follower.waitForChange(60_000, controller.signal));
      const minBlock = follower.headFor({ minBlock: follower.head!.number + 1000n, signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 50));
      controller.abort(new Error("the quote's deadline"));
      await Promise.all(waits);
      await assert.rejects(minBlock, /the quote's deadline/);
      assert.equal(listeners(controller.signal), 0);
    });
  });

  test("a minBlock waited through many turns of the loop, and reads of the latest block: no listener left, no timer", async () => {
    await leavesNoTimer(async () => {
      const signal = new AbortController().signal;
      for (let i = 0; i < 50; i++) await follower.refresh(signal);
      const wanted = follower.head!.number + 1n;
      const waiting = follower.headFor({ minBlock: wanted, signal });
      // Long enough for the loop to turn well over ten times (it waits 25 ms, then twice as long each turn, to 500).
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      await node("evm_mine");
      assert.equal((await waiting).number, wanted);
      assert.equal(listeners(signal), 0);
    });
  });
});

describe("no listener warning, and nothing silencing it", () => {
  let devchain: Devchain;
  let service: LiveService;
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => void warnings.push(warning);

  before(async () => {
    devchain = await startDevchain();
    process.on("warning", onWarning);
    // Call by call: every quote of a batch reads on its own, each read listening to its quote's signal.
    service = await liveService({ rpc: devchain.endpoint.url, strategy: "sequential", batchMaxQuotes: 100 });
  });
  after(async () => {
    process.off("warning", onWarning);
    await service?.close();
    await devchain?.close();
  });

  test("a batch of 100 quotes, a depth ladder of 50 levels and a quote waiting 2.5 s for its minBlock: no MaxListenersExceededWarning", async () => {
    const group = devchain.marketGroup;
    const quotes = Array.from({ length: 100 }, (_, i) => ({ marketAddress: group, marketId: "2", expectedPrice: String(1001 + i), collateralAvailable: "1000000000000000000000" }));
    const batch = await fetch(`${service.base}/quoter/${DEVCHAIN_ID}/batch`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ quotes }) });
    assert.equal(batch.status, 200, await batch.clone().text());
    assert.equal(((await batch.json()) as { results: unknown[] }).results.length, 100);
    const depth = await service.get(`/quoter/${DEVCHAIN_ID}/${group}/1/depth?collateralAvailable=1000000000000000000000&to=0.9&levels=50`);
    assert.equal(depth.status, 200, JSON.stringify(depth.body));

    const head = BigInt((await service.head())!.blockNumber);
    const waiting = service.get(`/quoter/${DEVCHAIN_ID}/${group}/2?expectedPrice=1030&collateralAvailable=1000000000000000000000&minBlock=${head + 1n}`);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const traded = await trade(devchain);
    const answer = await waiting;
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.blockNumber, String(traded.blockNumber));
    await nextTurn();
    assert.deepEqual(
      warnings.filter((warning) => warning.name === "MaxListenersExceededWarning").map((warning) => warning.message),
      [],
    );
  });

  test("src/ raises no listener limit (setMaxListeners would hide the warning a leak gives)", () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : []));
    const raising = files(new URL("../../src", import.meta.url).pathname).filter((file) => /setMaxListeners|defaultMaxListeners/.test(readFileSync(file, "utf8")));
    assert.deepEqual(raising, []);
  });
});
