// The embedded chain is a child process that never outlives its parent: close() stops it, and so does the
// parent's end however it comes (a normal exit without close(), SIGTERM or SIGINT with no handler, SIGKILL, which
// no handler sees). The chain answers as the demo needs: chain id 31337 and the two funded default accounts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { startEmbeddedChain } from "../../src/devchain/chain.ts";
import { startProcess } from "../support/processes.ts";
import { isRunning } from "../support/processTree.ts";

async function gone(pid: number): Promise<boolean> {
  for (let waited = 0; isRunning(pid) && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  return !isRunning(pid);
}

test("startEmbeddedChain: chain id 31337, the deployer and the trader funded with 10^24 wei each; close() stops the node", async () => {
  const chain = await startEmbeddedChain();
  assert.ok(isRunning(chain.pid));
  assert.match(chain.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(await chain.publicClient.getChainId(), 31337);
  for (const client of [chain.walletClient, chain.traderClient]) {
    assert.equal(await chain.publicClient.getBalance({ address: client.account.address }), 10n ** 24n);
    assert.equal(await chain.publicClient.getTransactionCount({ address: client.account.address }), 0);
  }
  assert.deepEqual([chain.walletClient.account.address, chain.traderClient.account.address], [
    "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
    "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  ]);
  await chain.close();
  assert.ok(!isRunning(chain.pid));
  assert.equal(await chain.exited, "SIGKILL");
});

for (const end of ["exit", "SIGTERM", "SIGINT", "SIGKILL"] as const) {
  test(`the node stops when its parent ends by ${end === "exit" ? "exiting without close()" : end}`, async () => {
    const parent = await startProcess(process.execPath, ["--import", "tsx", "test/support/holdChain.ts", end === "exit" ? "exit" : "wait"], {}, /anvil (\d+)/);
    const anvil = Number(parent.match[1]);
    if (end !== "exit") process.kill(parent.child.pid!, end);
    assert.ok(await gone(anvil), `anvil ${anvil} still runs after its parent ended by ${end}`);
    parent.child.kill("SIGKILL");
  });
}
