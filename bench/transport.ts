// CPU per JSON-RPC round trip of each way to send the searcher's eth_call, on the embedded chain: the same
// deployless search (about 5 KB of facts) sent one at a time, N times each, alternating ways. Prints numbers.
// `node --import tsx bench/transport.ts [ROUNDS]`.
import { createPublicClient, http, numberToHex } from "viem";
import { Agent, fetch as undiciFetch } from "undici";
import { ethCall } from "../src/chain/rpc/call.ts";
import { createChainClient } from "../src/chain/rpc/client.ts";
import { DEVCHAIN_ID } from "../src/devchain/chain.ts";
import { startDevchain } from "../src/devchain/devchain.ts";
import { DEMO_MARKET_GROUP_ADDRESS } from "../src/devchain/demo.ts";
import { encodeSearch, DEFAULT_SEARCH_GAS_CAP } from "../src/chain/searchers/searcher.ts";
import { parseQuoteRequest } from "../src/quote/request.ts";

const ROUNDS = Number(process.argv[2] ?? 400);
const devchain = await startDevchain();
const parsed = parseQuoteRequest({ chainId: "31337", marketAddress: DEMO_MARKET_GROUP_ADDRESS, marketId: "1" }, { expectedPrice: "0.55", collateralAvailable: "1000000000000000000000", maxIterations: "10" });
if (!parsed.ok) throw new Error("request");
const data = encodeSearch(parsed.value);
const params = [{ data, gas: numberToHex(DEFAULT_SEARCH_GAS_CAP) }, "latest"] as const;

// viem's http transport over the global fetch, and over undici's keep-alive pool (its `fetchFn`).
const pool = new Agent({ keepAliveTimeout: 30_000, connections: 256 });
const pooledFetch = ((input: string | URL | Request, init?: RequestInit) => undiciFetch(input as string, { ...(init as object), dispatcher: pool })) as typeof fetch;
const viemDefault = createPublicClient({ transport: http(devchain.endpoint.url, { retryCount: 0 }) });
const viemPooled = createPublicClient({ transport: http(devchain.endpoint.url, { retryCount: 0, fetchFn: pooledFetch }) });
const [endpoint] = createChainClient(DEVCHAIN_ID, [devchain.endpoint.url], { timeoutMs: 10_000 }).endpoints;

const ways: Record<string, () => Promise<unknown>> = {
  "viem http (fetch)": () => viemDefault.request({ method: "eth_call", params }),
  "viem http (undici pool fetchFn)": () => viemPooled.request({ method: "eth_call", params }),
  "service (src/chain/rpc/transport.ts)": () => ethCall(endpoint!, { data, block: "latest", gas: DEFAULT_SEARCH_GAS_CAP, answersByReverting: true }),
};
const call = async (send: () => Promise<unknown>) => {
  try {
    await send();
  } catch {
    // the searcher answers by reverting: through viem, an RPC error with its facts
  }
};
const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(ways).map((name) => [name, []]));
for (const send of Object.values(ways)) for (let i = 0; i < 50; i++) await call(send);
for (let round = 0; round < 8; round++) {
  for (const [name, send] of Object.entries(ways)) {
    const before = process.cpuUsage();
    for (let i = 0; i < ROUNDS / 8; i++) await call(send);
    const used = process.cpuUsage(before);
    cpu[name]!.push((used.user + used.system) / (ROUNDS / 8));
  }
}
for (const [name, samples] of Object.entries(cpu)) {
  const sorted = [...samples].sort((a, b) => a - b);
  console.log(`${name}: CPU per round trip, µs: median ${sorted[sorted.length >> 1]!.toFixed(0)} (${sorted.map((v) => v.toFixed(0)).join(" ")})`);
}
await devchain.close();
