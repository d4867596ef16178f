// Semantics §11, a node that takes no EIP-1898 block object in eth_call: ganache 7 (Shanghai) answers every call
// pinned `{ "blockHash": … }` with JSON-RPC error -32700. The service finds that out once, then reads that endpoint
// by block number, each answer's block checked by its hash: the demo grid answers on ganache exactly as on anvil
// but for the block, which is ganache's own.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import pino from "pino";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { DEMO_MARKETS } from "../../src/devchain/demo.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { GANACHE_CHAIN_ID, startGanacheWithDemo, type GanacheChain } from "../support/ganache.ts";
import { liveService } from "../support/liveService.ts";
import { startRpcProxy } from "../support/rpcProxy.ts";

let anvil: Devchain;
let ganache: GanacheChain;
before(async () => {
  [anvil, ganache] = await Promise.all([startDevchain(), startGanacheWithDemo()]);
});
after(async () => {
  await Promise.all([anvil?.close(), ganache?.close()]);
});

/** Every demo market, on both sides of its price and far off, small and large budgets, both searches: 96 quotes. */
function demoGrid(): { readonly path: string; readonly market: string }[] {
  const grid: { path: string; market: string }[] = [];
  for (const market of DEMO_MARKETS) {
    const price = market.priceD18;
    const prices = [(price * 103n) / 100n, (price * 97n) / 100n, (price * 3n) / 2n, price / 2n].map((p) => formatD18(p));
    for (const expectedPrice of prices) {
      for (const collateralAvailable of ["1000000000000000000", "1000000000000000000000"]) {
        for (const search of [{}, { search: "exact" }] as Record<string, string>[]) {
          const query = new URLSearchParams({ expectedPrice, collateralAvailable, ...search });
          grid.push({ path: `${market.group}/${market.id}?${query}`, market: `${market.group}/${market.id}` });
        }
      }
    }
  }
  return grid;
}

function formatD18(value: bigint): string {
  const whole = value / 10n ** 18n;
  const fraction = (value % 10n ** 18n).toString().padStart(18, "0").replace(/0+$/, "");
  return fraction === "" ? whole.toString() : `${whole}.${fraction}`;
}

test("ganache 7: the demo grid answers byte for byte as on anvil but for the block, ganache's own; the refusal found once, one log line", async () => {
  const lines: any[] = [];
  const logger = pino({ level: "warn" }, new Writable({ write: (chunk, _encoding, done) => (lines.push(...String(chunk).trim().split("\n").map((line) => JSON.parse(line))), done()) }));
  // A counting proxy in front of ganache: how many calls named a block object once the refusal was known.
  const proxy = await startRpcProxy(ganache.url);
  const onAnvil = await liveService({ rpc: anvil.endpoint.url });
  const onGanache = await liveService({ rpc: new Map([[GANACHE_CHAIN_ID, [proxy.url]]]), logger: logger as never });
  try {
    const grid = demoGrid();
    assert.equal(grid.length, 96);
    for (const { path } of grid) {
      const expected = await onAnvil.get(`/quoter/${DEVCHAIN_ID}/${path}`);
      const answer = await onGanache.get(`/quoter/${GANACHE_CHAIN_ID}/${path}`);
      const { blockNumber: anvilNumber, blockHash: anvilHash, ...anvilRest } = expected.body;
      const { blockNumber, blockHash, ...rest } = answer.body;
      assert.deepEqual([answer.status, rest], [expected.status, anvilRest], path);
      assert.equal(blockHash === undefined, anvilHash === undefined, path);
      if (blockHash !== undefined) {
        const block = await ganache.chain.publicClient.getBlock({ blockNumber: BigInt(blockNumber) });
        assert.equal(blockHash, block.hash, `${path}: the block ganache has at ${blockNumber}`);
      }
    }
    const refusals = lines.filter((line) => /takes no EIP-1898 block hash/.test(line.msg));
    assert.equal(refusals.length, 1, JSON.stringify(lines));
    const pinnedByHash = proxy.requests.filter((request) => request.method === "eth_call" && typeof request.params?.[1] === "object");
    assert.equal(pinnedByHash.length, 1, "only the first call named its block by hash");
    assert.ok(grid.filter((cell) => cell.market.endsWith("/2")).length > 0);
  } finally {
    await onGanache.close();
    await onAnvil.close();
    await proxy.close();
  }
});
