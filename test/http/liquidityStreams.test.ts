// A liquidity quote asked with `Accept: text/event-stream` (semantics §14, as a quote's stream): a `quote` event at
// once, the GET's body; then, after a trade moves the pool's price, the answer at the new block.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseUnits } from "viem";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { DEMO_MARKET_GROUP_ADDRESS } from "../../src/devchain/demo.ts";
import { openEventStream } from "../support/eventStream.ts";
import { pushedServiceForFile } from "../support/liveService.ts";
import { tradeInOneBlock } from "../support/demoTrades.ts";

const served = pushedServiceForFile();

const path = `/quoter/${DEVCHAIN_ID}/${DEMO_MARKET_GROUP_ADDRESS}/1/liquidity?${new URLSearchParams({ collateralAvailable: "1000000000000000000", lowerPrice: "0.45", upperPrice: "0.55" })}`;

describe("live streams of a liquidity quote", () => {
  test("the GET's body at once, then the answer at the block a trade moved the price at", async () => {
    const stream = openEventStream(`${served.service.base}${path}`);
    try {
      const first = await stream.next(5_000, "the first quote");
      assert.equal(first.type, "quote");
      assert.deepEqual(first.json, (await served.service.get(path)).body);
      const receipt = await tradeInOneBlock(served.chain.devchain.chain, { group: DEMO_MARKET_GROUP_ADDRESS, marketId: 1n, size: parseUnits("5", 18) });
      assert.equal(receipt.status, "success");
      const next = await stream.next(5_000, "the quote after the trade");
      assert.equal(next.type, "quote");
      assert.equal(next.json.blockNumber, String(receipt.blockNumber));
      assert.notEqual(next.json.currentPrice, first.json.currentPrice);
      assert.deepEqual(next.json, (await served.service.get(path)).body);
    } finally {
      stream.close();
    }
  });
});
