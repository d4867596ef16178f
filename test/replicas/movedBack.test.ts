// Replicas sharing one Redis when the chain's head moves back (anvil's evm_revert): answers are shared by block hash,
// so a replica that learnt the head moved back never takes another's answer of a block that left the chain, even
// once blocks are mined again at the same heights.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { DEVCHAIN_ID } from "../../src/devchain/devchainId.ts";
import { startDevchain, type Devchain } from "../../src/devchain/devchain.ts";
import { trade } from "../support/liveService.ts";
import { startRedisServer, type RedisServer } from "../support/redisServer.ts";
import { startReplicas, type Replica } from "../support/replicas.ts";

let devchain: Devchain;
let redis: RedisServer;
let replicas: Replica[];
let stopReplicas: () => Promise<void>;

before(async () => {
  devchain = await startDevchain();
  redis = await startRedisServer();
  ({ replicas, stop: stopReplicas } = await startReplicas(2, {
    RPC_URL_31337: devchain.endpoint.url,
    RPC_WS_URL_31337: devchain.endpoint.webSocketUrl,
    REDIS_URL: redis.url,
  }));
});

after(async () => {
  await stopReplicas?.();
  await redis?.stop();
  await devchain?.close();
});

const node = (method: string, params: unknown[] = []) => devchain.chain.provider.request({ method, params } as never) as Promise<any>;
const latest = () => devchain.chain.publicClient.getBlock({ blockTag: "latest" });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("two replicas, the head moved back: from 3 s on both answer at the node's head, never with the shared answer of a block that left the chain", { timeout: 60_000 }, async () => {
  const path = `/quoter/${DEVCHAIN_ID}/${devchain.marketGroup}/2?expectedPrice=1030&collateralAvailable=1000000000000000000000`;
  const [first, second] = replicas as [Replica, Replica];
  const original = await latest();
  const atBefore = await first.get(path);
  assert.equal(atBefore.body.blockHash, original.hash);

  const snapshot = await node("evm_snapshot");
  const traded = await trade(devchain);
  await node("evm_mine");
  const above = await latest();
  await sleep(300); // the push reaches both replicas
  const shared = await first.get(path);
  assert.equal(shared.body.blockHash, above.hash);
  assert.notEqual(shared.body.maxSize, atBefore.body.maxSize, "the trade moved the market");
  assert.equal((await second.get(path)).text, shared.text, "the second replica takes the first one's answer");

  await node("evm_revert", [snapshot]);
  await sleep(3_000);
  for (const replica of replicas) {
    const answer = await replica.get(path);
    assert.equal(answer.text, atBefore.text, "the answer at the node's head: the trade's block left the chain");
  }

  // Blocks at the same heights again, without the trade: the answers kept in Redis for the old ones are not theirs.
  await node("evm_mine");
  await node("evm_mine");
  const again = await latest();
  assert.equal(again.number, above.number);
  assert.notEqual(again.hash, above.hash);
  assert.ok(traded.blockNumber <= again.number);
  await sleep(300);
  for (const replica of replicas) {
    const answer = await replica.get(path);
    assert.equal(answer.body.blockHash, again.hash);
    assert.equal(answer.body.maxSize, atBefore.body.maxSize, "as before the trade, which left the chain");
  }
});
