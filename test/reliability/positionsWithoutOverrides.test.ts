// Semantics §13 on endpoints that do not take eth_call's state override, as some providers do not: a proxy on the wire
// in front of the demo chain refuses any eth_call with a third parameter (-32602, as geth words too many arguments), or
// drops it before the node sees it (the node then runs no searcher code at the owner's address). The single-call
// service finds that out on its first position quote, says so once, and quotes positions call by call from the owner
// from then on: every answer byte for byte the sequential service's; new positions are still one request each.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import pino from "pino";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { DEMO_MARKET_GROUP_ADDRESS, DEMO_USDC_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import { chainBehindProxy, type ChainBehindProxy, type LiveService } from "../support/liveService.ts";
import { quoteRequests, rpcError, type JsonRpcRequest, type Replier } from "../support/rpcProxy.ts";

let setup: ChainBehindProxy;
let sequential: LiveService;
before(async () => {
  setup = await chainBehindProxy();
  sequential = await setup.serve({ rpc: setup.devchain.endpoint.url, strategy: "sequential" });
});
after(() => setup.close());

const overriding = (request: JsonRpcRequest | undefined) => request?.method === "eth_call" && (request.params?.length ?? 0) > 2;

const QUOTES = [
  `${DEMO_MARKET_GROUP_ADDRESS}/positions/1?expectedPrice=0.55&collateralAvailable=100000000000000000000`,
  `${DEMO_MARKET_GROUP_ADDRESS}/positions/1?expectedPrice=0.45&collateralAvailable=0&search=exact`,
  `${DEMO_MARKET_GROUP_ADDRESS}/positions/2?expectedPrice=0.55&collateralAvailable=10000000000000000000&search=exact&trace=true`,
  `${DEMO_USDC_MARKET_GROUP_ADDRESS}/positions/1?expectedPrice=0.49&collateralAvailable=5000000000000000000`,
  `${DEMO_MARKET_GROUP_ADDRESS}/positions/3?expectedPrice=0.55&collateralAvailable=1`,
];

const refuses: Replier = (request) => (overriding(request) ? rpcError({ code: -32602, message: "too many arguments, want at most 2" }) : undefined);
const drops: Replier = (request) => (overriding(request) ? { forward: { ...request!, params: request!.params!.slice(0, 2) } } : undefined);

describe("an endpoint without state overrides", () => {
  for (const [what, reply] of [
    ["refuses them (-32602)", refuses],
    ["drops them silently", drops],
  ] as const) {
    test(`that ${what}: positions quoted call by call from the owner, as the sequential service answers; decided once, said once`, async () => {
      const lines: any[] = [];
      const logger = pino({ level: "warn" }, new Writable({ write: (chunk, _encoding, done) => (lines.push(...String(chunk).trim().split("\n").map((line) => JSON.parse(line))), done()) }));
      const proxy = await setup.startProxy({ reply });
      const service = await setup.serve({ rpc: proxy.url, strategy: "single-call", logger: logger as never, probe: true });
      for (const quote of QUOTES) {
        const path = `/quoter/${DEVCHAIN_ID}/${quote}`;
        const [single, expected] = await Promise.all([service.get(path), sequential.get(path)]);
        assert.equal(single.status, expected.status, quote);
        assert.deepEqual(single.body, expected.body, quote);
      }
      assert.equal(proxy.requests.filter(overriding).length, 1, "one call with an override: the first position quote's");
      const warned = lines.filter((line) => /position searcher/.test(line.msg));
      assert.equal(warned.length, 1, JSON.stringify(lines));
      // New positions are still quoted in one deployless call.
      proxy.clear();
      const fresh = await service.get(`/quoter/${DEVCHAIN_ID}/${DEMO_MARKET_GROUP_ADDRESS}/1?expectedPrice=0.55&collateralAvailable=1000000000000000000`);
      assert.equal(fresh.status, 200);
      assert.deepEqual(quoteRequests(proxy.methods), ["eth_call"]);
      await service.close();
      await proxy.close();
    });
  }
});
