// Semantics §3.4, §11: every read of one quote happens at one block, returned as blockNumber and blockHash. A trade
// between two quotes moves the price; the second quote, asked with the trade's block as minBlock, sees it; each
// answer stays consistent with its own block.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { parseUnits } from "viem";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { startQuoterHarness, type QuoterHarness } from "../support/quoterHarness.ts";
import { canonical, verifyAnswer } from "../support/verify.ts";
import { tradeInOneBlock } from "../support/demoTrades.ts";

let h: QuoterHarness;
before(async () => {
  h = await startQuoterHarness();
});
after(() => h.close());

test("a trade between two quotes: each answer is consistent with its own block", async () => {
  const query = { expectedPrice: "1030", collateralAvailable: "1000000000000000000000" };
  const first = await h.get(h.quotePath(2, query));
  assert.equal(first.status, 200);

  const { publicClient } = h.devchain.chain;
  const receipt = await tradeInOneBlock(h.devchain.chain, { group: h.devchain.marketGroup, marketId: 2n, size: parseUnits("0.01", 18) });
  assert.equal(receipt.status, "success");

  const second = await h.get(h.quotePath(2, { ...query, minBlock: receipt.blockNumber.toString() }));
  assert.equal(second.status, 200);
  assert.ok(BigInt(second.body.blockNumber) >= receipt.blockNumber, "the second quote reads the trade's block or later");
  assert.equal(second.body.blockHash, (await publicClient.getBlock({ blockNumber: BigInt(second.body.blockNumber) })).hash);
  assert.ok(parseUnits(second.body.currentPrice, 18) > parseUnits(first.body.currentPrice, 18), "the LONG trade raised the price");
  assert.ok(BigInt(second.body.maxSize) < BigInt(first.body.maxSize), "less room is left before 1030");

  // Both answers verify at their own block, the first one even after the trade.
  await verifyAnswer(h.devchain.chain, h.devchain.marketGroup, 2n, query, first.body);
  await verifyAnswer(h.devchain.chain, h.devchain.marketGroup, 2n, query, second.body);
  assert.notEqual(first.body.currentPrice, canonical(await publicClient.readContract({
    address: h.devchain.marketGroup, abi: marketGroupAbi, functionName: "getReferencePrice", args: [2n],
  })), "the first answer's price is not the latest one: it is pinned to its block");
});
