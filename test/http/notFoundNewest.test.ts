// Semantics §11 on the embedded chain over real HTTP: "not found" is about the newest block. On a service that polls
// its head (no WebSocket, HEAD_POLL_MS long), a position minted or a market created a moment ago is in a block its
// follower has not seen yet: before a 404 the service reads the endpoints' latest block and, where it is newer,
// answers about that block instead (a GET, a batch's items, a depth ladder, a stream's first answer). A truly unknown
// position or market is still a 404, whose detail names the block it is about: the latest. Both strategies alike.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "undici";
import { parseUnits, stringToHex, type Address } from "viem";
import { DEVCHAIN_ID } from "../../src/devchain/devchainId.ts";
import type { Devchain } from "../../src/devchain/devchain.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { chainBehindProxy, waitFor, type ChainBehindProxy, type LiveService } from "../support/liveService.ts";
import { tradeInOneBlock } from "../support/demoTrades.ts";
import { minedReceipt } from "../support/receipts.ts";
import { openEventStream } from "../support/eventStream.ts";

const E18 = 10n ** 18n;
const ASK = { expectedPrice: "0.55", collateralAvailable: (1000n * E18).toString() };

let setup: ChainBehindProxy;
let devchain: Devchain;
let group: Address;
before(async () => {
  setup = await chainBehindProxy();
  devchain = setup.devchain;
  group = devchain.marketGroup;
});
after(() => setup?.close());

const marketPath = (marketId: bigint | number, query: Record<string, string> = ASK) => `/quoter/${DEVCHAIN_ID}/${group}/${marketId}?${new URLSearchParams(query)}`;
const positionPath = (positionId: bigint | number) => `/quoter/${DEVCHAIN_ID}/${group}/positions/${positionId}?${new URLSearchParams(ASK)}`;
const canonical = async (blockNumber: bigint) => (await devchain.chain.publicClient.getBlock({ blockNumber })).hash;

/**
 * Services whose head is polled at most every 60 s (no WebSocket), one per strategy unless told: each has quoted demo
 * market 1 once, so its follower is live at the chain's head now and will not poll again for a minute.
 */
async function polledServices(strategies: readonly ("single-call" | "sequential")[] = ["single-call", "sequential"]): Promise<{ services: LiveService[]; head: bigint }> {
  const services = await Promise.all(strategies.map((strategy) => setup.serve({ strategy, headPollMs: 60_000, probe: true, timeoutMs: 20_000 })));
  const head = await devchain.chain.publicClient.getBlockNumber();
  for (const service of services) {
    const warm = await service.get(marketPath(1));
    assert.equal(warm.status, 200, JSON.stringify(warm.body));
    assert.equal(BigInt(warm.body.blockNumber), head);
  }
  return { services, head };
}

/** The premise: each service's follower is still at `head`, older than `block` (its poll has not come). */
async function stillAt(services: readonly LiveService[], head: bigint, block: bigint): Promise<void> {
  assert.ok(block > head);
  for (const service of services) assert.equal((await service.head())?.blockNumber, head.toString(), "the follower has not seen the new block");
}

/** A new market on the demo group (the deployer's createMarket, as the demo's): its id and its block. */
async function createMarket(): Promise<{ marketId: bigint; blockNumber: bigint }> {
  const { publicClient, walletClient } = devchain.chain;
  const { timestamp } = await publicClient.getBlock();
  const config = {
    startTime: timestamp - 3600n,
    endTime: timestamp + 86_400n * 365n,
    priceD18: E18 / 2n,
    minPriceD18: E18 / 100n,
    maxPriceD18: (E18 * 99n) / 100n,
    feeRate: 10_000,
    ranges: [{ minPriceD18: E18 / 100n, maxPriceD18: (E18 * 99n) / 100n, liquidity: 10n ** 24n }],
    claimStatementYesOrNumeric: stringToHex("Created a moment ago?"),
    claimStatementNo: "0x" as const,
  };
  const { result: marketId } = await publicClient.simulateContract({ address: group, abi: marketGroupAbi, functionName: "createMarket", args: [config], account: walletClient.account });
  const hash = await walletClient.writeContract({ address: group, abi: marketGroupAbi, functionName: "createMarket", args: [config], gas: 9_000_000n });
  const receipt = await minedReceipt(publicClient, hash);
  assert.equal(receipt.status, "success");
  return { marketId, blockNumber: receipt.blockNumber };
}

/** Every answer has the same status and body (both strategies alike); the first's. */
function alike(answers: readonly { status: number; body: any }[]): { status: number; body: any } {
  const [first] = answers.map(({ status, body }) => ({ status, body }));
  for (const { status, body } of answers.slice(1)) assert.deepEqual({ status, body }, first, "both strategies alike");
  return first!;
}

/** A 200 about `block` or a later block, named by its canonical hash. */
async function aboutOrAfter(answer: { status: number; body: any }, block: bigint): Promise<void> {
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.ok(BigInt(answer.body.blockNumber) >= block, `about block ${answer.body.blockNumber}, not before ${block}`);
  assert.equal(answer.body.blockHash, await canonical(BigInt(answer.body.blockNumber)));
}

describe("not found at the followed head, found at the newest block", () => {
  test("a position minted a moment ago, quoted at once without minBlock: 200 about the mint's block or later", { timeout: 120_000 }, async () => {
    const { services, head } = await polledServices();
    const receipt = await tradeInOneBlock(devchain.chain, { group, marketId: 1n, size: parseUnits("1", 18) });
    assert.equal(receipt.status, "success");
    const positionId = await devchain.chain.publicClient.readContract({ address: group, abi: marketGroupAbi, functionName: "totalSupply" });
    await stillAt(services, head, receipt.blockNumber);
    const answer = alike(await Promise.all(services.map((service) => service.get(positionPath(positionId)))));
    await aboutOrAfter(answer, receipt.blockNumber);
    assert.equal(answer.body.positionId, positionId.toString());
    assert.equal(answer.body.owner, devchain.chain.traderClient.account.address);
    assert.equal(answer.body.currentSize, parseUnits("1", 18).toString());
  });

  test("a market created a moment ago, quoted at once without minBlock: 200 about its block or later", { timeout: 120_000 }, async () => {
    const { services, head } = await polledServices();
    const created = await createMarket();
    await stillAt(services, head, created.blockNumber);
    const answer = alike(await Promise.all(services.map((service) => service.get(marketPath(created.marketId)))));
    await aboutOrAfter(answer, created.blockNumber);
    assert.equal(answer.body.direction, "LONG");
  });

  test("a batch item of a market created a moment ago: the batch is about its block or later", { timeout: 120_000 }, async () => {
    const { services, head } = await polledServices(["single-call"]);
    const created = await createMarket();
    await stillAt(services, head, created.blockNumber);
    const batch = await request(`${services[0]!.base}/quoter/${DEVCHAIN_ID}/batch`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ quotes: [{ marketAddress: group, marketId: created.marketId.toString(), ...ASK }, { marketAddress: group, marketId: "1", ...ASK }] }),
    });
    const batched = (await batch.body.json()) as any;
    assert.equal(batch.statusCode, 200, JSON.stringify(batched));
    assert.ok(BigInt(batched.blockNumber) >= created.blockNumber, `the batch is about block ${batched.blockNumber}`);
    assert.equal(batched.blockHash, await canonical(BigInt(batched.blockNumber)));
    assert.deepEqual(batched.results.map((result: any) => result.status), [200, 200], JSON.stringify(batched.results));
  });

  test("a depth ladder of a market created a moment ago, listed prices and spaced levels: about its block or later", { timeout: 120_000 }, async () => {
    const { services, head } = await polledServices(["single-call", "single-call"]);
    const created = await createMarket();
    await stillAt(services, head, created.blockNumber);
    const depth = (service: LiveService, query: Record<string, string>) =>
      service.get(`/quoter/${DEVCHAIN_ID}/${group}/${created.marketId}/depth?${new URLSearchParams({ collateralAvailable: ASK.collateralAvailable, ...query })}`);
    for (const ladder of [await depth(services[0]!, { prices: "0.55,0.6" }), await depth(services[1]!, { to: "0.6", levels: "2" })]) {
      await aboutOrAfter(ladder, created.blockNumber);
      assert.deepEqual(ladder.body.levels.map((level: any) => level.status ?? 200), [200, 200], JSON.stringify(ladder.body));
    }
  });

  test("a live stream of a market created a moment ago: its first answer is a quote about its block or later", { timeout: 120_000 }, async () => {
    const { services, head } = await polledServices(["single-call"]);
    const created = await createMarket();
    await stillAt(services, head, created.blockNumber);
    const stream = openEventStream(`${services[0]!.base}${marketPath(created.marketId)}`);
    try {
      const first = await stream.next(20_000, "the stream's first answer");
      assert.equal(first.type, "quote", first.data);
      assert.ok(BigInt(first.json.blockNumber) >= created.blockNumber, `the stream's first answer is about block ${first.json.blockNumber}`);
    } finally {
      stream.close();
    }
  });

  test("an unknown position and an unknown market: 404 whose detail names the latest block, by number and hash", { timeout: 120_000 }, async () => {
    const { services, head } = await polledServices();
    await devchain.chain.provider.request({ method: "evm_mine", params: [] } as never);
    const latest = await devchain.chain.publicClient.getBlock();
    await stillAt(services, head, latest.number);
    const at = `at block ${latest.number} (${latest.hash})`;

    const position = alike(await Promise.all(services.map((service) => service.get(positionPath(999)))));
    assert.equal(position.status, 404);
    assert.deepEqual(position.body, {
      error: "Position not found",
      details: [{ param: "positionId", message: `position 999 does not exist in this market group ${at} (ownerOf reverted): check the position id and the group's address` }],
    });

    const market = alike(await Promise.all(services.map((service) => service.get(marketPath(999)))));
    assert.equal(market.status, 404);
    assert.deepEqual(market.body, {
      error: "Market not found",
      details: [{ param: "marketId", message: `market 999 does not exist in this market group ${at} (getMarket answered for market 0): check the market id` }],
    });
  });

  test("a stream of an unknown market: its 404 told once, not again at each new block it is about", { timeout: 120_000 }, async () => {
    const service = await setup.serve({ headPollMs: 50 });
    const stream = openEventStream(`${service.base}${marketPath(999)}`);
    try {
      const first = await stream.next(20_000, "the stream's first answer");
      assert.equal(first.type, "error", first.data);
      assert.match(first.json.details[0].message, /^market 999 does not exist in this market group at block \d+ \(0x[0-9a-f]{64}\)/);
      const before = await devchain.chain.publicClient.getBlockNumber();
      await devchain.chain.provider.request({ method: "evm_mine", params: [] } as never);
      await waitFor(async () => BigInt((await service.head())?.blockNumber ?? 0) > before, 10_000, "the service to follow the new block");
      await stream.quiet(500);
    } finally {
      stream.close();
      await service.close();
    }
  });
});
