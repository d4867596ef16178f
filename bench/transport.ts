// CPU per JSON-RPC round trip of each HTTP stack under viem's http transport, on the embedded chain: the same
// deployless search (about 4 KB of facts) sent one at a time, N times each, alternating stacks. Prints numbers.
import { createPublicClient, http, numberToHex } from "viem";
import { startDevchain } from "../src/devchain/devchain.ts";
import { DEMO_MARKET_GROUP_ADDRESS } from "../src/devchain/demo.ts";
import { encodeSearch, DEFAULT_SEARCH_GAS_CAP } from "../src/chain/searcher.ts";
import { pooledFetch } from "../src/chain/transport.ts";
import { parseQuoteRequest } from "../src/quote/request.ts";

const ROUNDS = Number(process.argv[2] ?? 400);
const devchain = await startDevchain();
const parsed = parseQuoteRequest({ chainId: "31337", marketAddress: DEMO_MARKET_GROUP_ADDRESS, marketId: "1" }, { expectedPrice: "0.55", collateralAvailable: "1000000000000000000000", maxIterations: "10" });
if (!parsed.ok) throw new Error("request");
const data = encodeSearch(parsed.value);
const stacks = {
  "fetch (viem default)": createPublicClient({ transport: http(devchain.endpoint.url, { retryCount: 0 }) }),
  "undici request (pooledFetch)": createPublicClient({ transport: http(devchain.endpoint.url, { retryCount: 0, fetchFn: pooledFetch }) }),
};
type Client = (typeof stacks)[keyof typeof stacks];
// viem's `call` action (what the service uses) and a bare `request` of the same eth_call.
const ways = {
  request: (client: Client) => client.request({ method: "eth_call", params: [{ data, gas: numberToHex(DEFAULT_SEARCH_GAS_CAP) }, "latest"] }),
  "call action": (client: Client) => client.call({ data, gas: DEFAULT_SEARCH_GAS_CAP, blockTag: "latest" }),
};
const runs = Object.entries(stacks).flatMap(([stack, client]) => Object.entries(ways).map(([way, send]) => [`${stack}, ${way}`, () => send(client)] as const));
const cpu: Record<string, number[]> = Object.fromEntries(runs.map(([name]) => [name, []]));
const call = async (send: () => Promise<unknown>) => {
  try {
    await send();
  } catch {
    // the searcher answers by reverting: an RPC error with its facts
  }
};
for (const [, send] of runs) for (let i = 0; i < 50; i++) await call(send);
for (let round = 0; round < 8; round++) {
  for (const [name, send] of runs) {
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
