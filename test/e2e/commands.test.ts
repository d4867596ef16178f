// The README's commands as a user runs them: `npm run devchain` is a real JSON-RPC node, and
// `RPC_URL_31337=<devchain> npm start` answers exactly as `npm start` on its embedded chain.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createPublicClient, http } from "viem";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { DEMO_MARKETS, DEMO_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import { startCommand, type Running } from "../support/processes.ts";

const running: Running[] = [];
let devchainUrl: string;
let embedded: string;
let remote: string;

before(async () => {
  const devchain = await startCommand(["run", "devchain", "--", "--port", "0"], {}, /listening on (http:\/\/\S+)/);
  running.push(devchain);
  devchainUrl = devchain.match[1]!;
  const listening = /Quoter listening on (http:\/\/\S+)\/quoter /;
  const embeddedStart = await startCommand(["start"], { PORT: "0", LOG_LEVEL: "silent" }, listening);
  running.push(embeddedStart);
  embedded = embeddedStart.match[1]!;
  const remoteStart = await startCommand(["start"], { PORT: "0", LOG_LEVEL: "silent", RPC_URL_31337: devchainUrl }, listening);
  running.push(remoteStart);
  remote = remoteStart.match[1]!;
});
after(async () => {
  const codes = await Promise.all(running.map((r) => r.stop()));
  assert.ok(codes.every((code) => code === 0 || code === null), `a command did not exit cleanly: ${codes}`);
});

test("npm run devchain answers eth_chainId 0x7a69 and getMarket(1)", async () => {
  const response = await fetch(devchainUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
  });
  assert.equal((await response.json()).result, "0x7a69");
  const client = createPublicClient({ transport: http(devchainUrl) });
  const [market] = await client.readContract({ address: DEMO_MARKET_GROUP_ADDRESS, abi: marketGroupAbi, functionName: "getMarket", args: [1n] });
  assert.equal(market.marketId, 1n);
});

test("RPC_URL_31337=<devchain> npm start gives the same answers as npm start", async () => {
  const queries = DEMO_MARKETS.flatMap((market) => [
    `${market.group}/${market.id}?expectedPrice=${market.example.expectedPrice}&collateralAvailable=${market.example.collateralAvailable}`,
    `${market.group}/${market.id}?expectedPrice=${market.example.expectedPrice}&collateralAvailable=${market.example.collateralAvailable}&maxIterations=3&trace=true`,
  ]);
  queries.push(`${DEMO_MARKET_GROUP_ADDRESS}/1?expectedPrice=0.4&collateralAvailable=5000000000000000000`, `${DEMO_MARKET_GROUP_ADDRESS}/9?expectedPrice=0.4&collateralAvailable=1`);
  for (const query of queries) {
    const path = `/quoter/31337/${query}`;
    const [a, b] = await Promise.all([fetch(embedded + path), fetch(remote + path)]);
    assert.equal(a.status, b.status, path);
    // The expired demo market ends an hour before its chain's deployment, which the two chains did in their own
    // second: its end time is the one figure that may differ.
    const endTime = /the market ended at \d+ \([^)]*\)|"marketEndTime":"\d+"/g;
    assert.equal((await a.text()).replace(endTime, "<end time>"), (await b.text()).replace(endTime, "<end time>"), path);
  }
});
