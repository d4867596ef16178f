// `npm run soak [-- --minutes N] [-- --window-seconds S]`: the service run for a while under everything at once,
// to see that it keeps nothing it should not. Separate processes: the chain (anvil, the embedded chain with the demo
// deployment, a child of the bench), the service (`src/main.ts` with new heads pushed over the node's WebSocket,
// started with --expose-gc and bench/gcProbe.ts preloaded), and the bench. For N minutes (default 10):
// - a block every 50 ms (automining off, `evm_mine`), each with one trade, markets 1 and 2 in turn, LONG and SHORT
//   in turn (through bench/trade.ts, the bench's one way to trade);
// - quote clients, one request at a time each, at many prices and budgets (every one distinct); some with
//   `search=exact`, `Cache-Control: no-cache`, `minBlock` of the next block, some depth ladders; some abandoned by the
//   client a few ms after they are sent (the connection closed under the request);
// - live streams (`Accept: text/event-stream`) opened and closed all the time, and a set (quotes and batches) that
//   stays open to the end;
// - batches (`POST /quoter/<chainId>/batch`), some abandoned likewise.
// Every window (30 s): the service's heap floor (the least heapUsed after a full collection in the window: V8's own,
// and one the probe forces at its end), its resident set, its open descriptors (/proc/<pid>/fd, sampled every
// second: least and most), its event loop's delay (the probe's monitorEventLoopDelay), and what was sent. At the end
// a final block with a trade on each watched market: every stream still open must report an event at that block
// within 3 s. Exit 1 when a goal is missed: heap floor growth from the first window past the first minute to the
// last under 2 MiB, open descriptors flat (the last window's least at most that window's most), no 5xx and no
// failed request (but those the client abandoned), every open stream at the final trade within 3 s.
import { readdirSync } from "node:fs";
import { parseArgs } from "node:util";
import { setTimeout as sleep } from "node:timers/promises";
import { Agent, request, type Dispatcher } from "undici";
import type { Address } from "viem";
import { DEVCHAIN_ID } from "../src/devchain/devchainId.ts";
import { DEMO_MARKET_GROUP_ADDRESS } from "../src/devchain/demo.ts";
import { startDevchain } from "../src/devchain/devchain.ts";
import { onWireEvents } from "../test/support/eventStream.ts";
import { collectGarbage, type GcReport } from "./gcReport.ts";
import { killAllNow, residentBytes, startNode, stopAll } from "./processes.ts";
import { MIB, summarize } from "./stats.ts";
import { submitTrade } from "./trade.ts";

const { values } = parseArgs({
  options: { minutes: { type: "string", default: "10" }, "window-seconds": { type: "string", default: "30" } },
});
const MINUTES = Number(values.minutes);
const WINDOW_MS = Number(values["window-seconds"]) * 1000;
if (!(MINUTES > 0 && MINUTES <= 24 * 60 && WINDOW_MS >= 5_000 && WINDOW_MS <= MINUTES * 60_000)) {
  console.error("soak: --minutes must be over 0 (at most a day), --window-seconds at least 5 and at most the run");
  process.exit(2);
}
/** The heap's growth is judged from the first window that ends past this. */
const WARM_UP_MS = 60_000;
const HEAP_GROWTH_GOAL = 2 * MIB;
const FINAL_EVENT_GOAL_MS = 3_000;

const BLOCK_MS = 50;
const QUOTE_CLIENTS = 6;
const BATCH_CLIENTS = 1;
const STREAM_CHURNERS = 8;
/** Streams kept open to the end, over the {@link WATCHED} quotes; and of batches (all alike). */
const OPEN_QUOTE_STREAMS = 32;
const OPEN_BATCH_STREAMS = 4;
/** Of the quotes and batches sent: abandoned by the client, 0 to 30 ms after it sent them. */
const ABANDONED = 0.1;

const GROUP = DEMO_MARKET_GROUP_ADDRESS;
const TRADE_SIZE = 10n ** 16n;
/** The traded (and watched) markets: each with the prices quotes ask at. */
const MARKETS: readonly { readonly id: bigint; readonly prices: readonly string[] }[] = [
  { id: 1n, prices: Array.from({ length: 41 }, (_, i) => (0.3 + i * 0.01).toFixed(2)).filter((price) => price !== "0.50") },
  { id: 2n, prices: Array.from({ length: 41 }, (_, i) => String(900 + i * 5)).filter((price) => price !== "1000") },
];

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
/** Quotes many watch (as frontends showing one market do): a few prices of each market at one budget. */
const WATCHED = MARKETS.flatMap((market) => [0, 10, 20, 30].map((i) => ({ market, query: { expectedPrice: market.prices[i]!, collateralAvailable: "1000000000000000000000" } })));
const chance = (share: number) => Math.random() < share;
/** A budget of 1 to 1,000 (in wei, 18 decimals) and a random wei more: no two quotes alike. */
const budget = () => `${1 + Math.floor(Math.random() * 1000)}${String(Math.floor(Math.random() * 1e15)).padStart(18, "0")}`;
const quoteQuery = (market: (typeof MARKETS)[number], price = pick(market.prices)) => ({ expectedPrice: price, collateralAvailable: budget() });
const quotePath = (marketId: bigint, query: Record<string, string>) => `/quoter/${DEVCHAIN_ID}/${GROUP}/${marketId}?${new URLSearchParams(query)}`;

process.once("SIGINT", () => {
  killAllNow();
  process.exit(130);
});

/** What was sent and answered, since the start and in the current window. */
type Counts = { quotes: number; batches: number; depth: number; abandoned: number; statuses: Map<number, number>; failed: number; opened: number; closed: number; blocks: number };
const newCounts = (): Counts => ({ quotes: 0, batches: 0, depth: 0, abandoned: 0, statuses: new Map(), failed: 0, opened: 0, closed: 0, blocks: 0 });
const total = newCounts();
let window = newCounts();
const count = (update: (counts: Counts) => void) => (update(total), update(window));
const answered = (status: number) => count((counts) => counts.statuses.set(status, (counts.statuses.get(status) ?? 0) + 1));
const fiveXx = (counts: Counts) => [...counts.statuses].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0);
const failures: string[] = [];
const failed = (what: string, error: unknown) => {
  count((counts) => counts.failed++);
  if (failures.length < 5) failures.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
};

const devchain = await startDevchain();
const node = (method: string, params: unknown[] = []) => devchain.chain.provider.request({ method, params } as never) as Promise<unknown>;
let exitCode = 1;
try {
  const service = await startNode(
    "soak-service",
    "src/main.ts",
    [],
    {
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      RATE_LIMIT_MAX: "0",
      STREAMS_MAX: "10000",
      STREAMS_PER_CLIENT: "10000",
      RPC_URL_31337: devchain.endpoint.url,
      RPC_WS_URL_31337: devchain.endpoint.webSocketUrl,
    },
    /Quoter listening on (http:\/\/\S+)\/quoter /,
    { nodeArgs: ["--expose-gc", "--import", new URL("./gcProbe.ts", import.meta.url).pathname], timeoutMs: 60_000 },
  );
  const base = service.match[1]!;
  const clients = new Agent({ connections: QUOTE_CLIENTS + BATCH_CLIENTS + 4, keepAliveTimeout: 60_000 });
  const streamClients = new Agent({ connections: null, keepAliveTimeout: 60_000 });
  const descriptors = () => readdirSync(`/proc/${service.pid}/fd`).length;

  let stopping = false;
  // The miner outlasts the clients: a quote asked with minBlock of the next block is answered only once it is mined.
  let mining = true;
  let head = BigInt((await node("eth_blockNumber")) as string);

  /** One request, maybe abandoned by the client 0 to 30 ms after it is sent; its status counted, its body read. */
  async function send(what: keyof Pick<Counts, "quotes" | "batches" | "depth">, path: string, options: { body?: unknown; headers?: Record<string, string>; dispatcher?: Dispatcher } = {}) {
    const controller = new AbortController();
    const abandon = chance(ABANDONED) ? setTimeout(() => controller.abort(), Math.random() * 30) : undefined;
    count((counts) => counts[what]++);
    try {
      const response = await request(`${base}${path}`, {
        method: options.body === undefined ? "GET" : "POST",
        headers: { ...(options.body === undefined ? {} : { "content-type": "application/json" }), ...options.headers },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        signal: controller.signal,
        dispatcher: options.dispatcher ?? clients,
      });
      await response.body.text();
      answered(response.statusCode);
    } catch (error) {
      if (controller.signal.aborted) count((counts) => counts.abandoned++);
      else failed(what, error);
    } finally {
      clearTimeout(abandon);
    }
  }

  async function quoteClient(): Promise<void> {
    while (!stopping) {
      const market = pick(MARKETS);
      const query: Record<string, string> = quoteQuery(market);
      const headers: Record<string, string> = {};
      const kind = Math.random();
      if (kind < 0.03) {
        const to = market.id === 1n ? pick(["0.3", "0.7"]) : pick(["900", "1100"]);
        await send("depth", `/quoter/${DEVCHAIN_ID}/${GROUP}/${market.id}/depth?${new URLSearchParams({ collateralAvailable: query.collateralAvailable!, to, levels: "10" })}`);
        continue;
      }
      if (kind < 0.13) query.search = "exact";
      else if (kind < 0.23) query.minBlock = String(head + 1n);
      else if (kind < 0.28) headers["cache-control"] = "no-cache";
      await send("quotes", quotePath(market.id, query), { headers });
    }
  }

  const batchBody = (size: number) => ({
    quotes: Array.from({ length: size }, () => {
      const market = pick(MARKETS);
      return { marketAddress: GROUP, marketId: String(market.id), ...quoteQuery(market) };
    }),
  });

  async function batchClient(): Promise<void> {
    while (!stopping) await send("batches", `/quoter/${DEVCHAIN_ID}/batch`, { body: batchBody(5 + Math.floor(Math.random() * 16)) });
  }

  /** A stream: the newest block it told of, and whether it is still open. */
  type Watched = { newest: bigint; open: boolean; what: string };

  /** Opens a live stream (a quote's GET, or a batch's POST); `watched` follows its events until it closes. */
  async function openStream(path: string, body: unknown, watched: Watched): Promise<Dispatcher.ResponseData | undefined> {
    const response = await request(`${base}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { accept: "text/event-stream", ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      dispatcher: streamClients,
    });
    answered(response.statusCode);
    if (response.statusCode !== 200) {
      await response.body.text();
      return undefined;
    }
    count((counts) => counts.opened++);
    watched.open = true;
    onWireEvents(response.body, ({ id }) => {
      if (id !== undefined && BigInt(id) > watched.newest) watched.newest = BigInt(id);
    });
    response.body.once("close", () => {
      watched.open = false;
      count((counts) => counts.closed++);
    });
    return response;
  }

  async function streamChurner(): Promise<void> {
    while (!stopping) {
      const market = pick(MARKETS);
      const watched: Watched = { newest: 0n, open: false, what: "churn" };
      try {
        // Mostly a quote others watch too, now and then one of its own or a batch.
        const kind = Math.random();
        const { market: shared, query } = pick(WATCHED);
        const response =
          kind < 0.1
            ? await openStream(`/quoter/${DEVCHAIN_ID}/batch`, batchBody(3), watched)
            : kind < 0.2
              ? await openStream(quotePath(market.id, quoteQuery(market)), undefined, watched)
              : await openStream(quotePath(shared.id, query), undefined, watched);
        await sleep(100 + Math.random() * 1_900);
        response?.body.destroy();
      } catch (error) {
        failed("stream", error);
      }
    }
  }

  /** How long the node took to take each trade and to mine its block. */
  const nodeMs = { trade: [] as number[], mine: [] as number[] };
  async function miner(): Promise<void> {
    await node("evm_setAutomine", [false]);
    // On a clock: a block that took longer is made up by the next ones (a backlog of one block at most).
    let next = performance.now();
    for (let block = 0; mining; block++) {
      const started = performance.now();
      const market = MARKETS[block % MARKETS.length]!;
      // Each market LONG then SHORT in turn: its price goes back and forth, never out of range.
      const direction = Math.floor(block / MARKETS.length) % 2 === 0 ? 1n : -1n;
      await submitTrade(devchain.chain, { group: GROUP, marketId: market.id, size: direction * TRADE_SIZE });
      const traded = performance.now();
      await node("evm_mine");
      nodeMs.trade.push(traded - started);
      nodeMs.mine.push(performance.now() - traded);
      head++;
      count((counts) => counts.blocks++);
      next = Math.max(next + BLOCK_MS, performance.now() - BLOCK_MS);
      await sleep(Math.max(0, next - performance.now()));
    }
  }

  // The streams that stay open to the end: the watched quotes of both markets, and batches of both markets.
  const kept: Watched[] = [];
  for (let i = 0; i < OPEN_QUOTE_STREAMS; i++) {
    const { market, query } = WATCHED[i % WATCHED.length]!;
    const watched: Watched = { newest: 0n, open: false, what: `quote of market ${market.id}` };
    kept.push(watched);
    await openStream(quotePath(market.id, query), undefined, watched);
  }
  const keptBatch = { quotes: [0, 1, 4, 5].map((i) => ({ marketAddress: GROUP, marketId: String(WATCHED[i]!.market.id), ...WATCHED[i]!.query })) };
  for (let i = 0; i < OPEN_BATCH_STREAMS; i++) {
    const watched: Watched = { newest: 0n, open: false, what: "batch" };
    kept.push(watched);
    await openStream(`/quoter/${DEVCHAIN_ID}/batch`, keptBatch, watched);
  }

  /** Per window: the probe's report and the bench's samples. */
  type Row = { endS: number; counts: Counts; gc: GcReport | undefined; rss: number; rssMax: number; chainRss: number; fdMin: number; fdMax: number };
  const rows: Row[] = [];
  const started = performance.now();
  const mined = miner().catch((error: unknown) => failed("worker", error));
  const workers = [
    ...Array.from({ length: QUOTE_CLIENTS }, quoteClient),
    ...Array.from({ length: BATCH_CLIENTS }, batchClient),
    ...Array.from({ length: STREAM_CHURNERS }, streamChurner),
  ].map((worker) => worker.catch((error: unknown) => failed("worker", error)));

  console.log(`soak: ${MINUTES} min, windows of ${WINDOW_MS / 1000} s; a block every ${BLOCK_MS} ms with a trade; ${QUOTE_CLIENTS} quote clients, ${BATCH_CLIENTS} batch client, ${STREAM_CHURNERS} stream churners, ${kept.length} streams kept open`);
  console.log("| end s | blocks (ms apart) | quotes | depth | batches | abandoned | streams opened / closed | 5xx | failed | heap floor MiB | heap after GC MiB | RSS MiB (end / most) | chain RSS MiB | open fds (least-most) | event loop p50 / p99 / max ms |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  const runMs = MINUTES * 60_000;
  for (let windowEnd = WINDOW_MS; windowEnd <= runMs + 1; windowEnd += WINDOW_MS) {
    let fdMin = Number.POSITIVE_INFINITY;
    let fdMax = 0;
    let rssMax = 0;
    while (performance.now() - started < windowEnd) {
      const fds = descriptors();
      fdMin = Math.min(fdMin, fds);
      fdMax = Math.max(fdMax, fds);
      rssMax = Math.max(rssMax, residentBytes(service.pid) ?? 0);
      await sleep(Math.min(1_000, Math.max(1, windowEnd - (performance.now() - started))));
    }
    const rss = residentBytes(service.pid) ?? 0;
    const counts = window;
    window = newCounts();
    const gc = await collectGarbage(service, 30_000);
    const row: Row = { endS: Math.round(windowEnd / 1000), counts, gc, rss, rssMax, chainRss: residentBytes(devchain.chain.pid) ?? 0, fdMin, fdMax };
    rows.push(row);
    const mib = (bytes: number | undefined) => (bytes === undefined || !Number.isFinite(bytes) ? "-" : (bytes / MIB).toFixed(1));
    const loop = gc?.eventLoopMs;
    console.log(
      `| ${row.endS} | ${counts.blocks} (${(WINDOW_MS / Math.max(1, counts.blocks)).toFixed(0)}) | ${counts.quotes} | ${counts.depth} | ${counts.batches} | ${counts.abandoned} | ${counts.opened} / ${counts.closed} | ${fiveXx(counts)} | ${counts.failed} | ${mib(gc?.heapFloor)} | ${mib(gc?.heapUsed)} | ${mib(rss)} / ${mib(rssMax)} | ${mib(row.chainRss)} | ${fdMin}-${fdMax} | ${loop ? `${loop.p50.toFixed(1)} / ${loop.p99.toFixed(1)} / ${loop.max.toFixed(1)}` : "-"} |`,
    );
  }

  // The end: everything but the kept streams stops; then one block with a trade on each watched market.
  stopping = true;
  await Promise.all(workers);
  mining = false;
  await mined;
  const openAtEnd = kept.filter((watched) => watched.open);
  for (const market of MARKETS) await submitTrade(devchain.chain, { group: GROUP, marketId: market.id, size: TRADE_SIZE });
  await node("evm_mine");
  const minedAt = performance.now();
  const finalBlock = BigInt((await node("eth_blockNumber")) as string);
  while (performance.now() - minedAt < FINAL_EVENT_GOAL_MS && !openAtEnd.every((watched) => watched.newest >= finalBlock)) await sleep(5);
  const reported = openAtEnd.filter((watched) => watched.newest >= finalBlock);
  const lastEventMs = performance.now() - minedAt;
  const metrics = await (await request(`${base}/metrics`)).body.text();
  const serverFiveXx = [...metrics.matchAll(/^quoter_http_requests_total\{[^}]*status_code="5\d\d"[^}]*\} (\d+)/gm)].reduce((sum, match) => sum + Number(match[1]), 0);

  // The goals.
  const judged = rows.filter((row) => row.endS * 1000 > WARM_UP_MS);
  const baseline = judged[0];
  const last = rows.at(-1)!;
  const goals: [string, boolean | undefined, string][] = [];
  if (baseline !== undefined && baseline !== last && baseline.gc && last.gc) {
    const growth = last.gc.heapFloor - baseline.gc.heapFloor;
    goals.push([`heap floor growth after the first minute under ${HEAP_GROWTH_GOAL / MIB} MiB`, growth < HEAP_GROWTH_GOAL, `${(growth / MIB).toFixed(2)} MiB (window ending ${baseline.endS} s: ${(baseline.gc.heapFloor / MIB).toFixed(1)}, last: ${(last.gc.heapFloor / MIB).toFixed(1)})`]);
    goals.push(["open descriptors flat", last.fdMin <= baseline.fdMax, `${baseline.fdMin}-${baseline.fdMax} in the window ending ${baseline.endS} s, ${last.fdMin}-${last.fdMax} in the last`]);
  } else {
    goals.push(["heap floor and descriptors", undefined, `not judged: no two windows past the first minute (run ${MINUTES} min)`]);
  }
  goals.push(["no 5xx", fiveXx(total) === 0 && serverFiveXx === 0, `${fiveXx(total)} seen by the clients, ${serverFiveXx} in the service's metrics`]);
  goals.push(["no failed request (but those abandoned)", total.failed === 0, `${total.failed}${failures.length ? `: ${failures.join("; ")}` : ""}`]);
  goals.push([
    `every open stream reports the final trade within ${FINAL_EVENT_GOAL_MS / 1000} s`,
    openAtEnd.length === kept.length && reported.length === openAtEnd.length,
    `${reported.length} of ${openAtEnd.length} open (${kept.length} kept) at block ${finalBlock}, the last after ${lastEventMs.toFixed(0)} ms`,
  ]);
  const statuses = [...total.statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`).join(", ");
  const [trade, mine] = [summarize(nodeMs.trade), summarize(nodeMs.mine)];
  console.log(`\nblocks: one every ${((rows.length * WINDOW_MS) / Math.max(1, total.blocks)).toFixed(0)} ms on average (asked: ${BLOCK_MS}); the node took ${trade.p50.toFixed(1)} ms (p50; p99 ${trade.p99.toFixed(1)}) to take a trade and ${mine.p50.toFixed(1)} ms (p99 ${mine.p99.toFixed(1)}) to mine its block`);
  console.log(`in all: ${total.blocks} blocks, ${total.quotes} quotes, ${total.depth} depth ladders, ${total.batches} batches (${total.abandoned} abandoned by the client), ${total.opened} streams opened and ${total.closed} closed; answers by status: ${statuses}`);
  for (const [goal, met, detail] of goals) console.log(`${met === undefined ? "-" : met ? "met" : "MISSED"}  ${goal}: ${detail}`);
  exitCode = goals.some(([, met]) => met === false) ? 1 : 0;
  await clients.close();
  await streamClients.destroy();
} catch (error) {
  console.error(error);
} finally {
  await stopAll();
  await devchain.close();
}
process.exit(exitCode);
