// `npm run streams [-- --streams N] [-- --blocks N]`: live quotes at scale. The service (its own process, new heads
// pushed over the node's WebSocket) holds N streams (default 2,000) over 10 distinct quotes of three markets of the
// embedded chain; each block carries one trade on each of the three markets (mined together), for `blocks` blocks
// (default 20). Printed: eth_calls per block (from the service's own metrics; goal: at most one per distinct quote
// whose market moved, plus the follower's), the time from the block being mined (evm_mine answered) to the last
// stream's event at that block, beside one search of the same quote alone at that block (Cache-Control: no-cache),
// the service's resident memory per open stream, and its CPU per event sent.
import { parseArgs } from "node:util";
import { Agent, request } from "undici";
import type { Address } from "viem";
import { DEVCHAIN_ID } from "../src/devchain/chain.ts";
import { DEMO_MARKET_GROUP_ADDRESS, DEMO_USDC_MARKET_GROUP_ADDRESS } from "../src/devchain/demo.ts";
import { startDevchain } from "../src/devchain/devchain.ts";
import { sendDemoTrade } from "../test/support/demoTrades.ts";
import { onWireEvents } from "../test/support/eventStream.ts";
import { cpuMillis, residentBytes, startNode, stopAll } from "./processes.ts";
import { summarize } from "./stats.ts";

const { values } = parseArgs({ options: { streams: { type: "string", default: "2000" }, blocks: { type: "string", default: "20" } } });
const STREAMS = Number(values.streams);
const BLOCKS = Number(values.blocks);
const BUDGET = "1000000000000000000000";
const TRADE = 10n ** 16n;

/** The traded markets, and the ten distinct quotes watched on them. */
const MARKETS: { group: Address; id: bigint; prices: string[] }[] = [
  { group: DEMO_MARKET_GROUP_ADDRESS, id: 1n, prices: ["0.55", "0.6", "0.45", "0.4"] },
  { group: DEMO_MARKET_GROUP_ADDRESS, id: 2n, prices: ["1030", "1010", "990", "970"] },
  { group: DEMO_USDC_MARKET_GROUP_ADDRESS, id: 1n, prices: ["0.55", "0.45"] },
];
const QUOTES = MARKETS.flatMap(({ group, id, prices }) =>
  prices.map((price) => `/quoter/${DEVCHAIN_ID}/${group}/${id}?expectedPrice=${price}&collateralAvailable=${BUDGET}`),
);

const devchain = await startDevchain();
const node = (method: string, params: unknown[] = []) => devchain.chain.provider.request({ method, params } as never) as Promise<unknown>;
const service = await startNode(
  "service",
  "src/main.ts",
  [],
  {
    PORT: "0",
    LOG_LEVEL: "warn",
    RATE_LIMIT_MAX: "0",
    STREAMS_PER_CLIENT: String(STREAMS),
    STREAMS_MAX: String(STREAMS),
    RPC_URL_31337: devchain.endpoint.url,
    RPC_WS_URL_31337: devchain.endpoint.webSocketUrl,
  },
  /Quoter listening on (http:\/\/\S+)\/quoter /,
);
const base = service.match[1]!;
const clients = new Agent({ connections: null, pipelining: 0, keepAliveTimeout: 600_000 });

/** The service's counter `name` (its labels matching `labels`), summed, from /metrics. */
async function metric(name: string, labels = ""): Promise<number> {
  const text = await (await request(`${base}/metrics`)).body.text();
  let sum = 0;
  for (const match of text.matchAll(new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`, "gm"))) if ((match[1] ?? "").includes(labels)) sum += Number(match[2]);
  return sum;
}

/** One stream: the newest block it has an event of, and when that event came. */
type Stream = { newest: bigint; at: number; events: number };

async function openStream(path: string, stream: Stream): Promise<void> {
  const response = await request(`${base}${path}`, { headers: { accept: "text/event-stream" }, dispatcher: clients });
  if (response.statusCode !== 200) throw new Error(`a stream answered ${response.statusCode}: ${await response.body.text()}`);
  onWireEvents(response.body, ({ id }) => {
    if (id === undefined) return;
    stream.newest = BigInt(id);
    stream.at = performance.now();
    stream.events++;
  });
}

/** A trade on each market, sent (each after its exact approval) for the next block, which the caller mines. */
async function tradeAll(direction: bigint): Promise<void> {
  for (const { group, id } of MARKETS) await sendDemoTrade(devchain.chain, { group, marketId: id, size: direction * TRADE });
}

const waitUntil = async (condition: () => boolean, ms: number, what: string) => {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
};

try {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const idleBytes = residentBytes(service.pid)!;
  const streams: Stream[] = Array.from({ length: STREAMS }, () => ({ newest: 0n, at: 0, events: 0 }));
  for (let i = 0; i < STREAMS; i += 100) await Promise.all(streams.slice(i, i + 100).map((stream, j) => openStream(QUOTES[(i + j) % QUOTES.length]!, stream)));
  await waitUntil(() => streams.every((stream) => stream.events > 0), 60_000, "every stream's first event");
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const openBytes = residentBytes(service.pid)!;

  await node("evm_setAutomine", [false]);
  const lastEventMs: number[] = [];
  const searchMs: number[] = [];
  const callsPerBlock: number[] = [];
  const followerPerBlock: number[] = [];
  const cpuBefore = cpuMillis(service.pid)!;
  const eventsBefore = await metric("quoter_stream_events_total");
  for (let block = 0; block < BLOCKS; block++) {
    await tradeAll(block % 2 === 0 ? 1n : -1n);
    const [calls, follower] = [await metric("quoter_rpc_requests_total", 'method="eth_call"'), await metric("quoter_rpc_requests_total", 'method="eth_getBlock')];
    await node("evm_mine");
    const mined = performance.now();
    const number = BigInt((await node("eth_blockNumber")) as string);
    await waitUntil(() => streams.every((stream) => stream.newest >= number), 30_000, `every stream's event at block ${number}`);
    lastEventMs.push(Math.max(...streams.map((stream) => stream.at)) - mined);
    callsPerBlock.push((await metric("quoter_rpc_requests_total", 'method="eth_call"')) - calls);
    followerPerBlock.push((await metric("quoter_rpc_requests_total", 'method="eth_getBlock')) - follower);
    // The search itself: the same quote alone at that block, past the kept answers.
    const alone = performance.now();
    await (await request(`${base}${QUOTES[0]}`, { headers: { "cache-control": "no-cache" } })).body.text();
    searchMs.push(performance.now() - alone);
  }
  const cpuMs = cpuMillis(service.pid)! - cpuBefore;
  const events = (await metric("quoter_stream_events_total")) - eventsBefore;
  const last = summarize(lastEventMs);
  const search = summarize(searchMs);
  const calls = summarize(callsPerBlock);
  console.log(`streams bench: ${STREAMS} streams over ${QUOTES.length} distinct quotes of ${MARKETS.length} markets, ${BLOCKS} blocks of one trade per market`);
  console.log(`eth_calls per block: median ${calls.p50}, most ${calls.max} (goal: at most ${QUOTES.length}, one per distinct quote whose market moved); the follower's eth_getBlock* per block: ${(followerPerBlock.reduce((a, b) => a + b, 0) / BLOCKS).toFixed(2)} (pushed heads; the /ready and metrics reads apart)`);
  console.log(`block mined -> last stream's event: p50 ${last.p50.toFixed(1)} ms, max ${last.max.toFixed(1)} ms; one search alone at that block (no-cache GET): p50 ${search.p50.toFixed(1)} ms; on top of the search: p50 ${(last.p50 - search.p50).toFixed(1)} ms (goal under 50)`);
  console.log(`resident memory: ${(idleBytes / 2 ** 20).toFixed(1)} MiB idle, ${(openBytes / 2 ** 20).toFixed(1)} MiB with the streams open: ${((openBytes - idleBytes) / STREAMS / 1024).toFixed(1)} KiB per stream (goal under 20 KB)`);
  console.log(`service CPU: ${cpuMs.toFixed(0)} ms over ${events} events sent: ${((cpuMs * 1000) / events).toFixed(1)} µs per event (searches included)`);
} finally {
  await clients.destroy().catch(() => undefined);
  await stopAll();
  await devchain.close();
}
process.exit(0);
