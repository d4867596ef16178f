// `npm run replicas [-- --seconds S] [-- --clients N] [-- --delay MS]`: three replicas of the service (separate
// processes, as `npm start` runs them) behind a round-robin HTTP proxy, on one embedded chain behind a JSON-RPC
// proxy `delay` ms away (default 10) that counts eth_calls, a block mined every second. Run twice, the two sides
// side by side: three replicas alone (no REDIS_URL) and three sharing a redis-server of the bench's own.
//   1. N clients (default 300) asking 10 distinct quotes in turn, S seconds a side (default 10) in turns of 2.5 s:
//      eth_calls per block (goal with Redis: at most 10, one per distinct quote) and the p50 of the answers, whose
//      difference is what Redis adds (goal: under 1 ms).
//   2. 4 clients asking quotes never asked before (each one a search, through Redis's claim when sharing), the sides
//      taking turns of half a second, 10 each: the p50 of a searched quote on each side. And sharing's own cost per
//      search, on an idle process.
// Prints numbers; fails only when the measurement is wrong (an answer other than 200).
import { createServer, type Server } from "node:http";
import { parseArgs } from "node:util";
import { Agent, request } from "undici";
import { DEVCHAIN_ID } from "../src/devchain/chain.ts";
import { startDevchain, type Devchain } from "../src/devchain/devchain.ts";
import { ok } from "../src/quote/result.ts";
import { connectRedis } from "../src/service/replicas/redisLink.ts";
import { createSharedSearches } from "../src/service/replicas/sharedSearches.ts";
import { startRedisServer } from "../test/support/redisServer.ts";
import { startReplicas } from "../test/support/replicas.ts";
import { startRpcProxy, type RpcProxy } from "../test/support/rpcProxy.ts";
import { percentile, summarize, type LatencySummary } from "./stats.ts";

const { values } = parseArgs({
  options: { seconds: { type: "string", default: "10" }, clients: { type: "string", default: "300" }, delay: { type: "string", default: "10" } },
});
const SECONDS = Number(values.seconds);
const CLIENTS = Number(values.clients);
const DELAY_MS = Number(values.delay);
const BLOCK_MS = 1000;
/** Seconds of each side's turns with many clients. */
const TURN_S = 2.5;
/** Turns of half a second per side for the searched quotes. */
const SEARCH_ROUNDS = 10;
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

/** Three replicas behind one round-robin address: alone (no Redis) or sharing `redisUrl`. */
async function startSide(devchain: Devchain, proxy: RpcProxy, redisUrl: string | undefined) {
  const { replicas, stop } = await startReplicas(3, {
    RPC_URL_31337: proxy.url,
    RPC_WS_URL_31337: devchain.endpoint.webSocketUrl,
    RATE_LIMIT_MAX: "0",
    ...(redisUrl === undefined ? {} : { REDIS_URL: redisUrl }),
  });
  const front = await roundRobin(replicas.map((replica) => replica.base));
  if (redisUrl !== undefined) {
    for (const replica of replicas) while ((await replica.redis())?.state !== "up") await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    name: redisUrl === undefined ? ("alone" as const) : ("redis" as const),
    url: front.url,
    async stop() {
      front.server.closeAllConnections();
      front.server.close();
      await stop();
    },
  };
}
type Running = Awaited<ReturnType<typeof startSide>>;

const path = (devchain: Devchain, marketId: number, expectedPrice: string, budget: bigint) =>
  `/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/${marketId}?expectedPrice=${expectedPrice}&collateralAvailable=${budget}`;

/**
 * Many clients on ten distinct quotes, a block a second, the sides taking turns of TURN_S seconds (the first
 * alternating, so that the chain's growth and the machine's load fall on both alike): each side's answer times,
 * and its eth_calls block by block over the seconds that lay whole within one of its turns.
 */
async function manyClients(devchain: Devchain, proxy: RpcProxy, sides: readonly Running[]) {
  const distinct = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? path(devchain, 1, "0.56", ONE * BigInt(100 + i)) : path(devchain, 2, "1020", ONE * BigInt(100 + i))));
  const mine = () => devchain.chain.provider.request({ method: "evm_mine", params: [] } as never);
  for (const side of sides) {
    let warm = 0;
    await drive(side.url, 10, 1, () => distinct[warm++ % 10]!);
  }
  const perBlock: number[][] = sides.map(() => []);
  const latencies: number[][] = sides.map(() => []);
  /** The side whose turn it is (-1 between turns), the one whose turn the current second began in, and whether it changed since. */
  let active = -1;
  let intervalSide = -1;
  let switched = true;
  await mine();
  proxy.clear();
  let counted = 0;
  const miner = setInterval(() => {
    const calls = proxy.counters().methods.eth_call ?? 0;
    if (!switched && intervalSide >= 0) perBlock[intervalSide]!.push(calls - counted);
    counted = calls;
    intervalSide = active;
    switched = false;
    void mine();
  }, BLOCK_MS);
  for (let round = 0; round < Math.max(1, Math.round(SECONDS / TURN_S)); round++) {
    for (const index of round % 2 === 0 ? [0, 1] : [1, 0]) {
      [active, switched] = [index, true];
      let turn = 0;
      latencies[index]!.push(...(await drive(sides[index]!.url, CLIENTS, TURN_S, () => distinct[turn++ % distinct.length]!)));
      [active, switched] = [-1, true];
    }
  }
  clearInterval(miner);
  return sides.map((_, i) => ({ perBlock: perBlock[i]!, repeated: latencies[i]! }));
}

/**
 * What sharing costs a search by itself: `share` around a search that answers at once, on an idle process, against
 * the bench's Redis (the claim script before the search; the offer after it is not waited for): its p50 in ms.
 */
async function shareCost(redisUrl: string, answer: unknown): Promise<number> {
  const link = connectRedis({ url: redisUrl, timeoutMs: 250 });
  await link.ready(5_000);
  const sharing = createSharedSearches(link, { claimMs: 3_000, answerTtlMs: 60_000 });
  const times: number[] = [];
  const signal = new AbortController().signal;
  for (let i = 0; i < 3_000; i++) {
    const started = performance.now();
    await sharing.share({ chainId: DEVCHAIN_ID, blockHash: "0xbench", key: `cost ${i}` }, async () => ({ answer: ok(answer as never), facts: { blockNumber: 1n } }), signal);
    times.push(performance.now() - started);
  }
  await sharing.close();
  await link.close();
  return summarize(times.slice(1_000)).p50;
}

const devchain = await startDevchain();
const proxy = await startRpcProxy(devchain.endpoint.url, { delayMs: DELAY_MS, keepRequests: false });
const redis = await startRedisServer();
const sides: Side[] = [];
const running: Running[] = [];
let costP50 = Number.NaN;
try {
  running.push(await startSide(devchain, proxy, undefined), await startSide(devchain, proxy, redis.url));
  const many = await manyClients(devchain, proxy, running);
  running.forEach((side, i) => console.error(`[replicas] ${side.name}: ${many[i]!.perBlock.length} whole blocks, eth_calls per block ${many[i]!.perBlock.join(" ")}`));
  // Quotes never asked before, 4 clients: each one a search. Both sides stay up and take turns, half a second each,
  // the first side alternating, so that the chain's growth and the machine's load fall on both alike.
  const searched: number[][] = [[], []];
  let fresh = 0n;
  for (let round = 0; round < SEARCH_ROUNDS; round++) {
    for (const index of round % 2 === 0 ? [0, 1] : [1, 0]) {
      searched[index]!.push(...(await drive(running[index]!.url, 4, 0.5, () => path(devchain, 1, "0.57", ONE + ++fresh))));
    }
  }
  // A real answer's size: the one the searched quotes began with.
  const sample = await request(`${running[1]!.url}${path(devchain, 1, "0.57", ONE + 1n)}`);
  costP50 = await shareCost(redis.url, await sample.body.json());
  running.forEach((side, i) =>
    sides.push({
      name: side.name,
      blocks: many[i]!.perBlock.length,
      ethCallsPerBlock: many[i]!.perBlock,
      repeated: { ...summarize(many[i]!.repeated), answers: many[i]!.repeated.length },
      searched: { ...summarize(searched[i]!), answers: searched[i]!.length },
    }),
  );
} finally {
  for (const side of running) await side.stop();
  await redis.stop();
  await proxy.close();
  await devchain.close();
}

const median = (numbers: readonly number[]) => percentile([...numbers].sort((a, b) => a - b), 50);
const [alone, shared] = sides as [Side, Side];
const added = shared.repeated.p50 - alone.repeated.p50;
console.log(`three replicas behind a round-robin proxy, ${CLIENTS} clients asking 10 distinct quotes for ${SECONDS} s a side in turns of ${TURN_S} s, a block every ${BLOCK_MS} ms, ${DELAY_MS} ms per JSON-RPC request`);
for (const side of sides) {
  console.log(
    `  ${side.name.padEnd(5)}  eth_calls per block: median ${median(side.ethCallsPerBlock)}, most ${Math.max(...side.ethCallsPerBlock)} over ${side.blocks} blocks; ` +
      `p50 ${side.repeated.p50.toFixed(2)} ms (${side.repeated.answers} answers); a searched quote's p50 ${side.searched.p50.toFixed(2)} ms (${side.searched.answers})`,
  );
}
console.log(`  with Redis: at most ${Math.max(...shared.ethCallsPerBlock)} eth_calls per block (goal <= 10: ${Math.max(...shared.ethCallsPerBlock) <= 10 ? "met" : "missed"})`);
console.log(`  what Redis adds to the ${CLIENTS} clients' p50: ${added.toFixed(2)} ms (goal < 1 ms: ${added < 1 ? "met" : "missed"})`);
console.log(
  `  to a searched quote's p50 (4 clients, quotes never asked before, the sides taking turns): ${(shared.searched.p50 - alone.searched.p50).toFixed(2)} ms; ` +
    `sharing's own cost per search, idle: p50 ${costP50.toFixed(3)} ms`,
);
