// `npm run batches [-- --rounds N] [-- --delay MS]`: what searching together saves, on a fresh embedded chain.
// Gas, as a node charges it (measured by contracts/test/GasMeter.sol, since the searchers always revert): a batch of
// 10 quotes over the demo markets in its one call, beside the same quotes each in its own call; a 10-level depth
// ladder in its one call, beside its 10 exact quotes alone and beside one exact quote (goal: under 3 times one);
// the same ladder spaced from the price (to and levels), the price read in its call, beside the price read apart.
// Latency at MS ms per JSON-RPC request (default 50; an in-process proxy in front of the chain), every request with
// Cache-Control: no-cache so that each is searched, N rounds (default 20), the kinds alternating: the batch's p50
// beside one quote's (goal: within 1.5 times), the ladder's beside one exact quote's and its 10 exact GETs at once,
// and the spaced ladder's, with its eth_calls.
import { parseArgs } from "node:util";
import { request } from "undici";
import { DEVCHAIN_ID } from "../src/devchain/chain.ts";
import { DEMO_MARKET_GROUP_ADDRESS, DEMO_USDC_MARKET_GROUP_ADDRESS } from "../src/devchain/demo.ts";
import { startDevchain } from "../src/devchain/devchain.ts";
import { encodeBatchSearch, encodeLadderSearch } from "../src/chain/searchers/batchSearcher.ts";
import { encodeGetReferencePrice } from "../src/chain/searchers/marketGroup.ts";
import { encodeSearch } from "../src/chain/searchers/searcher.ts";
import { DEFAULT_EXACT_MAX_CANDIDATES } from "../src/quote/exactSearch.ts";
import { parseQuoteRequest, type QuoteRequest } from "../src/quote/request.ts";
import { meterDeployless, rpcClient } from "../scripts/measure-gas.ts";
import { liveService } from "../test/support/liveService.ts";
import { startRpcProxy } from "../test/support/rpcProxy.ts";
import { summarize } from "./stats.ts";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "20" }, delay: { type: "string", default: "50" } } });
const ROUNDS = Number(values.rounds);
const DELAY_MS = Number(values.delay);
const BUDGET = "1000000000000000000000";

type Item = Record<string, string>;
const item = (marketAddress: string, marketId: string, expectedPrice: string, extra: Item = {}): Item => ({ marketAddress, marketId, expectedPrice, collateralAvailable: BUDGET, ...extra });
const EXACT = { search: "exact" };
/** Ten quotes over the demo markets of both collateral groups, LONG and SHORT, both searches. */
const BATCH: Item[] = [
  item(DEMO_MARKET_GROUP_ADDRESS, "1", "0.55"),
  item(DEMO_MARKET_GROUP_ADDRESS, "1", "0.45", EXACT),
  item(DEMO_MARKET_GROUP_ADDRESS, "1", "0.6", EXACT),
  item(DEMO_MARKET_GROUP_ADDRESS, "2", "1030"),
  item(DEMO_MARKET_GROUP_ADDRESS, "2", "990", EXACT),
  item(DEMO_MARKET_GROUP_ADDRESS, "2", "1010", EXACT),
  item(DEMO_MARKET_GROUP_ADDRESS, "2", "970"),
  item(DEMO_USDC_MARKET_GROUP_ADDRESS, "1", "0.55"),
  item(DEMO_USDC_MARKET_GROUP_ADDRESS, "1", "0.45", EXACT),
  item(DEMO_USDC_MARKET_GROUP_ADDRESS, "1", "0.52"),
];
/** A ladder of 10 levels on market 2 (its price is 1000): 1010, 1020, … 1100, as `to=1100&levels=10` spaces them. */
const LADDER = Array.from({ length: 10 }, (_, i) => String(1010 + 10 * i));

const parse = ({ marketAddress, marketId, ...query }: Item): QuoteRequest => {
  const parsed = parseQuoteRequest({ chainId: String(DEVCHAIN_ID), marketAddress, marketId }, query);
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
};
const ladderItems = LADDER.map((price) => item(DEMO_MARKET_GROUP_ADDRESS, "2", price, EXACT));

const devchain = await startDevchain();
const client = rpcClient(devchain.endpoint.url);
const gasOf = async (data: `0x${string}`) => (await meterDeployless(client, data)).gas;
const sum = (values: readonly bigint[]) => values.reduce((total, value) => total + value, 0n);
const thousands = (gas: bigint) => `${(Number(gas) / 1000).toFixed(0)}k`;

const batchGas = await gasOf(encodeBatchSearch(BATCH.map(parse), DEFAULT_EXACT_MAX_CANDIDATES));
const aloneGas = await Promise.all(BATCH.map((quote) => gasOf(encodeSearch(parse(quote)))));
const ladderGas = await gasOf(encodeBatchSearch(ladderItems.map(parse), DEFAULT_EXACT_MAX_CANDIDATES));
const levelGas = await Promise.all(ladderItems.map((quote) => gasOf(encodeSearch(parse(quote)))));
const oneExact = levelGas[levelGas.length - 1]!;
const spacedGas = await gasOf(encodeLadderSearch({ farthest: parse(ladderItems.at(-1)!), levels: LADDER.length }, DEFAULT_EXACT_MAX_CANDIDATES));
const priceReadGas = await client.estimateGas({ to: DEMO_MARKET_GROUP_ADDRESS, data: encodeGetReferencePrice(2n) });
console.log("gas (intrinsic + execution, as a node charges a deployless call):");
console.log(`  batch of ${BATCH.length} quotes: ${thousands(batchGas)} in one call; alone ${thousands(sum(aloneGas))} in ${BATCH.length} calls (${(Number(batchGas) / Number(sum(aloneGas))).toFixed(2)}x)`);
console.log(
  `  ladder of ${LADDER.length} levels: ${thousands(ladderGas)} in one call; its exact quotes alone ${thousands(sum(levelGas))} ` +
    `(${(Number(ladderGas) / Number(sum(levelGas))).toFixed(2)}x); one exact quote (the farthest level) ${thousands(oneExact)}: ` +
    `the ladder is ${(Number(ladderGas) / Number(oneExact)).toFixed(2)}x (goal < 3x); levels alone ${levelGas.map(thousands).join(" ")}`,
);
console.log(
  `  the ladder as to=${LADDER.at(-1)}&levels=${LADDER.length}: ${thousands(spacedGas)} in one call, the price read and the levels planned on chain; ` +
    `the price read apart, then the ladder: ${thousands(priceReadGas)} + ${thousands(ladderGas)} in two calls`,
);

const proxy = await startRpcProxy(devchain.endpoint.url, { delayMs: DELAY_MS, keepRequests: false });
const service = await liveService({ rpc: proxy.url, protection: { rateLimitMax: 0 } });
const noCache = { "cache-control": "no-cache" };
const timed = async (send: () => Promise<{ statusCode: number; body: { text(): Promise<string> } }>) => {
  const start = performance.now();
  const response = await send();
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`answered ${response.statusCode}: ${text.slice(0, 200)}`);
  return performance.now() - start;
};
const getOf = ({ marketAddress, marketId, ...query }: Item) => () => request(`${service.base}/quoter/${DEVCHAIN_ID}/${marketAddress}/${marketId}?${new URLSearchParams(query)}`, { headers: noCache });
const postBatch = () => request(`${service.base}/quoter/${DEVCHAIN_ID}/batch`, { method: "POST", headers: { ...noCache, "content-type": "application/json" }, body: JSON.stringify({ quotes: BATCH }) });
const getLadder = () => request(`${service.base}/quoter/${DEVCHAIN_ID}/${DEMO_MARKET_GROUP_ADDRESS}/2/depth?collateralAvailable=${BUDGET}&prices=${LADDER.join(",")}`, { headers: noCache });
const getSpaced = () => request(`${service.base}/quoter/${DEVCHAIN_ID}/${DEMO_MARKET_GROUP_ADDRESS}/2/depth?collateralAvailable=${BUDGET}&to=${LADDER.at(-1)}&levels=${LADDER.length}`, { headers: noCache });
const ethCalls = () => proxy.counters().methods.eth_call ?? 0;

const times: Record<string, number[]> = { batch: [], one: [], ladder: [], spaced: [], oneExact: [], tenExact: [] };
let spacedCalls = 0;
await timed(getOf(BATCH[0]!)); // the endpoint's probe, once
proxy.clear();
for (let round = 0; round < ROUNDS; round++) {
  times.batch!.push(await timed(postBatch));
  times.one!.push(await timed(getOf(BATCH[round % BATCH.length]!)));
  times.ladder!.push(await timed(getLadder));
  const callsBefore = ethCalls();
  times.spaced!.push(await timed(getSpaced));
  spacedCalls += ethCalls() - callsBefore;
  times.oneExact!.push(await timed(getOf(ladderItems[round % ladderItems.length]!)));
  const start = performance.now();
  await Promise.all(ladderItems.map((quote) => timed(getOf(quote))));
  times.tenExact!.push(performance.now() - start);
}
const p50 = (name: string) => summarize(times[name]!).p50;
console.log(`latency at ${DELAY_MS} ms per RPC request, ${ROUNDS} rounds, p50:`);
console.log(`  batch of ${BATCH.length}: ${p50("batch").toFixed(1)} ms; one quote ${p50("one").toFixed(1)} ms (${(p50("batch") / p50("one")).toFixed(2)}x, goal <= 1.5x)`);
console.log(
  `  ladder of ${LADDER.length}: ${p50("ladder").toFixed(1)} ms; one exact quote ${p50("oneExact").toFixed(1)} ms (${(p50("ladder") / p50("oneExact")).toFixed(2)}x); ` +
    `its ${LADDER.length} exact GETs at once ${p50("tenExact").toFixed(1)} ms`,
);
console.log(`  ladder to=${LADDER.at(-1)}&levels=${LADDER.length} (the same levels): ${p50("spaced").toFixed(1)} ms, ${(spacedCalls / ROUNDS).toFixed(1)} eth_calls per ladder`);
const { methods } = proxy.counters();
console.log(`  JSON-RPC requests over the run: ${Object.entries(methods).map(([method, count]) => `${method} ${count}`).join(", ")}`);
await service.close();
await proxy.close();
await devchain.close();
