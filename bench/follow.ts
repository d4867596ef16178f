// `npm run follow [-- --blocks N] [-- --gap MS] [-- --delay MS]`: how soon a block shows in answers, and what
// following the head costs, with new heads pushed over the node's WebSocket and with the latest block polled.
// The embedded chain mines a block about every `gap` ms; a client quotes market 2 in a loop (the same request: answers
// at the old block come from the cache) and times, from the moment the node has mined the block (its evm_mine
// answered), the first answer at that block. HTTP requests go through a proxy `delay` ms away, which counts
// what the service asks besides its quotes' eth_calls: the head's reads and chain-id checks, per block.
import { parseArgs } from "node:util";
import { DEVCHAIN_ID } from "../src/devchain/chain.ts";
import { startDevchain, type Devchain } from "../src/devchain/devchain.ts";
import { liveService } from "../test/support/liveService.ts";
import { startRpcProxy } from "../test/support/rpcProxy.ts";
import { summarize } from "./stats.ts";

const { values } = parseArgs({
  options: { blocks: { type: "string", default: "20" }, gap: { type: "string", default: "1000" }, delay: { type: "string", default: "10" } },
});
const BLOCKS = Number(values.blocks);
const GAP_MS = Number(values.gap);
const DELAY_MS = Number(values.delay);
const THOUSAND = "1000000000000000000000";
/** A seeded draw in [0, 1): the same gaps in every run. */
let seed = 12_345;
const draw = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed / 2 ** 31);

interface ModeResult {
  readonly mode: string;
  readonly lagMs: number[];
  readonly quotes: number;
  readonly followerRequests: Record<string, number>;
}

async function measure(devchain: Devchain, pushed: boolean): Promise<ModeResult> {
  const proxy = await startRpcProxy(devchain.endpoint.url, { delayMs: DELAY_MS });
  const service = await liveService({
    rpc: proxy.url,
    answerCache: { maxEntries: 1000, maxBytes: 1 << 24 },
    ...(pushed ? { webSocketUrls: new Map([[DEVCHAIN_ID, devchain.endpoint.webSocketUrl]]) } : {}),
  });
  const path = `/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/2?expectedPrice=1030&collateralAvailable=${THOUSAND}`;
  const node = (method: string) => devchain.chain.provider.request({ method, params: [] } as never) as Promise<string>;
  const lagMs: number[] = [];
  let quotes = 0;
  try {
    // Warm up: the follower has seen a few blocks (its block time), the quote path is compiled.
    for (let i = 0; i < 3; i++) {
      await node("evm_mine");
      await service.get(path);
      await new Promise((resolve) => setTimeout(resolve, GAP_MS));
    }
    proxy.clear();
    for (let i = 0; i < BLOCKS; i++) {
      await node("evm_mine");
      const mined = performance.now();
      const target = BigInt(await node("eth_blockNumber"));
      for (;;) {
        const answer = await service.get(path);
        quotes++;
        if (answer.status !== 200) throw new Error(`a quote answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        if (BigInt(answer.body.blockNumber) >= target) break;
      }
      lagMs.push(performance.now() - mined);
      // The rest of the gap, quoting as a frontend would (every 100 ms). The gap is drawn from [gap/2, 3·gap/2):
      // blocks at a fixed phase to the polls would measure that phase, not the follower.
      const next = mined + GAP_MS * (0.5 + draw());
      while (performance.now() < next) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(100, Math.max(0, next - performance.now()))));
        await service.get(path);
        quotes++;
      }
    }
    const followerRequests: Record<string, number> = {};
    for (const method of proxy.methods) if (method !== "eth_call") followerRequests[method] = (followerRequests[method] ?? 0) + 1;
    return { mode: pushed ? "pushed (WebSocket newHeads)" : "polled (HTTP)", lagMs, quotes, followerRequests };
  } finally {
    await service.close();
    await proxy.close();
  }
}

const devchain = await startDevchain();
try {
  console.log(`follow bench: ${BLOCKS} blocks ${GAP_MS} ms apart, HTTP endpoint ${DELAY_MS} ms away, HEAD_POLL_MS default`);
  console.log("mode | first answer at a new block after it was mined, p50 / p95 / max (ms) | follower's HTTP requests per block");
  for (const pushed of [true, false]) {
    const result = await measure(devchain, pushed);
    const lag = summarize(result.lagMs);
    const perBlock = Object.entries(result.followerRequests)
      .map(([method, count]) => `${method} ${(count / BLOCKS).toFixed(2)}`)
      .join(", ");
    console.log(`${result.mode} | ${lag.p50.toFixed(1)} / ${lag.p95.toFixed(1)} / ${lag.max.toFixed(1)} | ${perBlock || "none"} (${result.quotes} quotes)`);
  }
} finally {
  await devchain.close();
}
