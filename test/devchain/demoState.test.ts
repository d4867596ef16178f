// The demo chain every start loads (the build's saved state) is the chain that deploying the demo makes: the same
// blocks by hash, every account's code, balance, nonce and storage, and the same answers over HTTP. A saved state
// made from other sources is refused with the command that makes it again, and `deploy` still deploys.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, appendFileSync, rmSync, writeFileSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { DEMO_MARKETS, DEMO_POSITIONS } from "../../src/devchain/demo.ts";
import { DEMO_STATE_FILE, DEMO_STATE_RECORD_FILE, DemoStateError, demoFingerprint, readDemoState, runningFingerprint } from "../../src/devchain/demoState.ts";
import { DEVCHAIN_ID } from "../../src/devchain/devchainId.ts";
import { quoterApp } from "../support/quoterHarness.ts";

let deployed: Devchain;
let loaded: Devchain;
before(async () => {
  [deployed, loaded] = await Promise.all([startDevchain({ deploy: true }), startDevchain()]);
});
after(() => Promise.all([deployed?.close(), loaded?.close()]));

const rpc = (devchain: Devchain, method: string, params: unknown[]) => devchain.chain.provider.request({ method, params } as never) as Promise<unknown>;

/** Every account anvil holds, and each one's storage slots, as the deployed chain's own dump lists them. */
async function accountsOf(devchain: Devchain): Promise<Map<string, string[]>> {
  const { gunzipSync } = await import("node:zlib");
  const dump = (await rpc(devchain, "anvil_dumpState", [])) as string;
  const state = JSON.parse(gunzipSync(Buffer.from(dump.slice(2), "hex")).toString()) as { accounts: Record<string, { storage: Record<string, string> }> };
  return new Map(Object.entries(state.accounts).map(([address, account]) => [address.toLowerCase(), Object.keys(account.storage)]));
}

test("the loaded demo ends at the deployed demo's head, every block of it the same by hash", async () => {
  const head = await deployed.chain.publicClient.getBlockNumber({ cacheTime: 0 });
  assert.equal(await loaded.chain.publicClient.getBlockNumber({ cacheTime: 0 }), head);
  assert.ok(head >= 9n, `the demo takes 9 blocks, the head is ${head}`);
  for (let number = 0n; number <= head; number++) {
    const [a, b] = await Promise.all([deployed.chain.publicClient.getBlock({ blockNumber: number }), loaded.chain.publicClient.getBlock({ blockNumber: number })]);
    assert.equal(b.hash, a.hash, `block ${number}`);
    assert.deepEqual(b.transactions, a.transactions, `block ${number}'s transactions`);
  }
});

test("the loaded demo holds the same accounts as the deployed one: code, balance, nonce and every storage slot", async () => {
  const expected = await accountsOf(deployed);
  const actual = await accountsOf(loaded);
  assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort());
  let slots = 0;
  const at = (await loaded.chain.publicClient.getBlock()).hash;
  const read = (devchain: Devchain, method: string, params: unknown[]) => rpc(devchain, method, [...params, { blockHash: at }]);
  for (const [address, storage] of expected) {
    for (const method of ["eth_getCode", "eth_getBalance", "eth_getTransactionCount"]) {
      assert.equal(await read(loaded, method, [address]), await read(deployed, method, [address]), `${method} of ${address}`);
    }
    for (const slot of storage) {
      slots++;
      assert.equal(await read(loaded, "eth_getStorageAt", [address, slot]), await read(deployed, "eth_getStorageAt", [address, slot]), `slot ${slot} of ${address}`);
    }
  }
  assert.ok(expected.size >= 10 && slots >= 100, `${expected.size} accounts, ${slots} slots: the demo deploys more than that`);
});

test("the loaded demo answers every demo quote and position byte for byte as the deployed one, both searches", async () => {
  const [onDeployed, onLoaded] = await Promise.all([quoterApp({ rpc: deployed.endpoint.url }), quoterApp({ rpc: loaded.endpoint.url })]);
  try {
    const paths: string[] = [];
    for (const market of DEMO_MARKETS) {
      for (const search of ["bisection", "exact"]) {
        paths.push(`/quoter/${DEVCHAIN_ID}/${market.group}/${market.id}?${new URLSearchParams({ ...market.example, search })}`);
      }
    }
    for (const position of DEMO_POSITIONS) {
      paths.push(`/quoter/${DEVCHAIN_ID}/${position.group}/positions/${position.positionId}?expectedPrice=0.5&collateralAvailable=1000000000000000000`);
    }
    let answered = 0;
    for (const path of paths) {
      // Both at the saved head: the answers name their block by hash.
      const [a, b] = await Promise.all([onDeployed.inject({ method: "GET", url: path }), onLoaded.inject({ method: "GET", url: path })]);
      assert.equal(b.statusCode, a.statusCode, path);
      assert.equal(b.body, a.body, path);
      if (a.statusCode === 200) answered++;
    }
    assert.ok(answered >= DEMO_MARKETS.length, `${answered} of ${paths.length} answered 200`);
  } finally {
    await Promise.all([onDeployed.close(), onLoaded.close()]);
  }
});

test("a saved state made from other sources, or none, is refused with the command that makes it again", () => {
  const dir = mkdtempSync(join(tmpdir(), "demo-state-"));
  try {
    const files = { state: join(dir, "demo-state.json"), record: join(dir, "demo-state.record.json") };
    assert.throws(() => readDemoState(files), (error: unknown) => error instanceof DemoStateError && /missing/.test(error.message) && /npm run build/.test(error.message));
    copyFileSync(DEMO_STATE_FILE, files.state);
    copyFileSync(DEMO_STATE_RECORD_FILE, files.record);
    // The build's own state is this code's.
    assert.equal(readDemoState(files).head.number, "9");
    assert.throws(
      () => readDemoState(files, "0".repeat(64)),
      (error: unknown) => error instanceof DemoStateError && /other sources/.test(error.message) && /npm run build/.test(error.message) && /DEMO_CHAIN=deploy/.test(error.message),
    );
    writeFileSync(files.record, JSON.stringify({ fingerprints: { ".ts": "stale" }, head: { number: "9", hash: "0x", timestamp: "0" } }));
    assert.throws(() => readDemoState(files), DemoStateError);
    writeFileSync(files.record, "{");
    assert.throws(() => readDemoState(files), (error: unknown) => error instanceof DemoStateError && /unreadable/.test(error.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the fingerprint changes with any file of src/devchain/ and with the contracts' generated code", () => {
  const dir = mkdtempSync(join(tmpdir(), "demo-sources-"));
  try {
    const source = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));
    cpSync(source("devchain"), join(dir, "devchain"), { recursive: true });
    cpSync(source("generated"), join(dir, "generated"), { recursive: true });
    const fingerprint = () => demoFingerprint(join(dir, "devchain"), join(dir, "generated", "contracts.ts"), ".ts");
    const original = fingerprint();
    assert.equal(original, runningFingerprint(), "a copy of the sources has the running code's fingerprint");
    appendFileSync(join(dir, "devchain", "demoMarkets.ts"), "\n");
    const demoChanged = fingerprint();
    assert.notEqual(demoChanged, original);
    appendFileSync(join(dir, "generated", "contracts.ts"), "\n");
    assert.notEqual(fingerprint(), demoChanged);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("on the loaded demo as on the deployed one, the next block follows the saved head in time", async () => {
  for (const devchain of [deployed, loaded]) {
    const head = await devchain.chain.publicClient.getBlock();
    await rpc(devchain, "evm_mine", []);
    const next = await devchain.chain.publicClient.getBlock();
    assert.equal(next.number, head.number + 1n);
    assert.ok(next.timestamp > head.timestamp, `block ${next.number} at ${next.timestamp}, its parent at ${head.timestamp}`);
  }
});
