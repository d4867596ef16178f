// `npm run replicas [-- --seconds S] [-- --clients N] [-- --delay MS]`: three replicas of the service (separate
// processes, as `npm start` runs them) behind a round-robin HTTP proxy, on one embedded chain behind a JSON-RPC
// proxy `delay` ms away (default 10) that counts eth_calls, a block mined every second. Run twice, the two sides
// side by side: the replicas alone (no REDIS_URL), then sharing a redis-server of the bench's own.
//   1. N clients (default 300) asking 10 distinct quotes in turn for S seconds (default 10): eth_calls per block
//      (goal with Redis: at most 10, one per distinct quote) and the p50 of the answers.
//   2. 4 clients asking quotes never asked before (each one a search, through Redis's claim when sharing), 5 s: the
//      p50 of a searched quote. What Redis adds to a quote's latency is the difference (goal: under 1 ms).
// Prints numbers; fails only when the measurement is wrong (an answer other than 200).
import { createServer, type Server } from "node:http";
import { parseArgs } from "node:util";
import { Agent, request } from "undici";
import { DEVCHAIN_ID } from "../src/devchain/chain.ts";
import { startDevchain, type Devchain } from "../src/devchain/devchain.ts";
import { startRedisServer } from "../test/support/redisServer.ts";
import { startReplicas } from "../test/support/replicas.ts";
import { startRpcProxy, type RpcProxy } from "../test/support/rpcProxy.ts";
import { summarize, type LatencySummary } from "./stats.ts";

const { values } = parseArgs({
  options: { seconds: { type: "string", default: "10" }, clients: { type: "string", default: "300" }, delay: { type: "string", default: "10" } },
});
const SECONDS = Number(values.seconds);
const CLIENTS = Number(values.clients);
const DELAY_MS = Number(values.delay);
const BLOCK_MS = 1000;
const ONE = 10n ** 18n;

interface Side {
  readonly name: "alone" | "redis";
  readonly blocks: number;
  readonly ethCallsPerBlock: number[];
  readonly repeated: LatencySummary & { readonly answers: number };
  readonly searched: LatencySummary & { readonly answers: number };
}

/** The replicas behind one address, each request to the next replica in turn. */
async function roundRobin(bases: readonly string[]): Promise<{ url: string; server: Server }> {
  const agent = new Agent({ connections: 512, keepAliveTimeout: 60_000 });
  let next = 0;
  const server = createServer((incoming, outgoing) => {
    const base = bases[next++ % bases.length]!;
    request(`${base}${incoming.url}`, { dispatcher: agent, headers: { accept: "application/json" } }).then(
      async (answer) => {
        const body = Buffer.from(await answer.body.arrayBuffer());
        outgoing.writeHead(answer.statusCode, { "content-type": "application/json", "content-length": body.length });
        outgoing.end(body);
      },
      (error: unknown) => {
        outgoing.writeHead(502);
        outgoing.end(String(error));
      },
    );
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

/** `clients` loops, each asking `nextPath()` until `seconds` pass: every latency, in ms. */
async function drive(url: string, clients: number, seconds: number, nextPath: () => string): Promise<number[]> {
  const agent = new Agent({ connections: clients, keepAliveTimeout: 60_000 });
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        const answer = await request(`${url}${nextPath()}`, { dispatcher: agent });
        const text = await answer.body.text();
        if (answer.statusCode !== 200) throw new Error(`an answer of ${answer.statusCode}: ${text}`);
        latencies.push(performance.now() - started);
      }
    }),
  );
  await agent.close();
  return latencies;
}

async function measure(devchain: Devchain, proxy: RpcProxy, redisUrl: string | undefined): Promise<Side> {
  const { replicas, stop } = await startReplicas(3, {
    RPC_URL_31337: proxy.url,
    RPC_WS_URL_31337: devchain.endpoint.webSocketUrl,
    RATE_LIMIT_MAX: "0",
    ...(redisUrl === undefined ? {} : { REDIS_URL: redisUrl }),
  });
  const front = await roundRobin(replicas.map((replica) => replica.base));
  const path = (marketId: number, expectedPrice: string, budget: bigint) =>
    `/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/${marketId}?expectedPrice=${expectedPrice}&collateralAvailable=${budget}`;
  const distinct = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? path(1, "0.56", ONE * BigInt(100 + i)) : path(2, "1020", ONE * BigInt(100 + i))));
  const mine = () => devchain.chain.provider.request({ method: "evm_mine", params: [] } as never);
  try {
    if (redisUrl !== undefined) {
      for (const replica of replicas) while ((await replica.redis())?.state !== "up") await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await drive(front.url, 10, 1, (() => { let i = 0; return () => distinct[i++ % 10]!; })());
    // 1. Many clients, ten distinct quotes, a block a second: eth_calls counted block by block.
    const perBlock: number[] = [];
    await mine();
    proxy.clear();
    let counted = 0;
    const miner = setInterval(() => {
      const calls = proxy.counters().methods.eth_call ?? 0;
      perBlock.push(calls - counted);
      counted = calls;
      void mine();
    }, BLOCK_MS);
    let turn = 0;
    const repeated = await drive(front.url, CLIENTS, SECONDS, () => distinct[turn++ % distinct.length]!);
    clearInterval(miner);
    // 2. Quotes never asked before, a few clients: each one a search.
    let fresh = 0n;
    const searched = await drive(front.url, 4, 5, () => path(1, "0.57", ONE + ++fresh));
    return {
      name: redisUrl === undefined ? "alone" : "redis",
      blocks: perBlock.length,
      ethCallsPerBlock: perBlock,
      repeated: { ...summarize(repeated), answers: repeated.length },
      searched: { ...summarize(searched), answers: searched.length },
    };
  } finally {
    front.server.closeAllConnections();
    front.server.close();
    await stop();
  }
}

const devchain = await startDevchain();
const proxy = await startRpcProxy(devchain.endpoint.url, { delayMs: DELAY_MS, keepRequests: false });
const redis = await startRedisServer();
const sides: Side[] = [];
try {
  for (const redisUrl of [undefined, redis.url]) {
    const side = await measure(devchain, proxy, redisUrl);
    sides.push(side);
    console.error(`[replicas] ${side.name}: ${side.blocks} blocks, eth_calls per block ${side.ethCallsPerBlock.join(" ")}`);
  }
} finally {
  await redis.stop();
  await proxy.close();
  await devchain.close();
}

const median = (numbers: readonly number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)] ?? 0;
const [alone, shared] = sides as [Side, Side];
const added = shared.searched.p50 - alone.searched.p50;
console.log(`three replicas behind a round-robin proxy, ${CLIENTS} clients asking 10 distinct quotes for ${SECONDS} s, a block every ${BLOCK_MS} ms, ${DELAY_MS} ms per JSON-RPC request`);
for (const side of sides) {
  console.log(
    `  ${side.name.padEnd(5)}  eth_calls per block: median ${median(side.ethCallsPerBlock)}, most ${Math.max(...side.ethCallsPerBlock)} over ${side.blocks} blocks; ` +
      `p50 ${side.repeated.p50.toFixed(2)} ms (${side.repeated.answers} answers); a searched quote's p50 ${side.searched.p50.toFixed(2)} ms (${side.searched.answers})`,
  );
}
console.log(`  with Redis: at most ${Math.max(...shared.ethCallsPerBlock)} eth_calls per block (goal <= 10: ${Math.max(...shared.ethCallsPerBlock) <= 10 ? "met" : "missed"})`);
console.log(`  what Redis adds to a searched quote's p50: ${added.toFixed(2)} ms (goal < 1 ms: ${added < 1 ? "met" : "missed"}); to the many clients' p50: ${(shared.repeated.p50 - alone.repeated.p50).toFixed(2)} ms`);
