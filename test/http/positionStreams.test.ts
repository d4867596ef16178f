// A held position's quote asked with `Accept: text/event-stream` (semantics §13): a `quote` event at once, then at the
// blocks that change it; the stream ends with `end` when the position changes owner ("transferred": the quote was its
// former owner's question) or its market settles ("settled", after the 400 Market is settled a GET then answers).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { DEVCHAIN_ID } from "../../src/devchain/chain.ts";
import { DEMO_DEPLOYER, DEMO_MARKET_GROUP_ADDRESS, DEMO_TRADER } from "../../src/devchain/demo.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { openEventStream } from "../support/eventStream.ts";
import { pushedServiceForFile } from "../support/liveService.ts";
import { minedReceipt } from "../support/receipts.ts";

const served = pushedServiceForFile();

const path = (positionId: number, query: Record<string, string> = { expectedPrice: "0.55", collateralAvailable: "1000000000000000000" }) =>
  `/quoter/${DEVCHAIN_ID}/${DEMO_MARKET_GROUP_ADDRESS}/positions/${positionId}?${new URLSearchParams(query)}`;

describe("live streams of a held position", () => {
  test("a quote at once (the GET's body), then `end` \"transferred\" when the owner transfers it", async () => {
    const stream = openEventStream(`${served.service.base}${path(1)}`);
    try {
      const first = await stream.next(5_000, "the first quote");
      assert.equal(first.type, "quote");
      assert.deepEqual(first.json, (await served.service.get(path(1))).body);
      assert.equal(first.json.owner, DEMO_TRADER);
      const { traderClient, publicClient } = served.chain.devchain.chain;
      const hash = await traderClient.writeContract({ address: DEMO_MARKET_GROUP_ADDRESS, abi: marketGroupAbi, functionName: "transferFrom", args: [DEMO_TRADER, DEMO_DEPLOYER, 1n] });
      await minedReceipt(publicClient, hash);
      const end = await stream.next(5_000, "the end");
      assert.deepEqual([end.type, end.json], ["end", { reason: "transferred" }]);
      // Asked again, the position is quoted as its new owner's.
      assert.equal((await served.service.get(path(1))).body.owner, DEMO_DEPLOYER);
    } finally {
      stream.close();
    }
  });

  test("`end` \"settled\" when its market settles; a GET then answers 400 Market is settled", async () => {
    const stream = openEventStream(`${served.service.base}${path(2)}`);
    try {
      assert.equal((await stream.next(5_000, "the first quote")).type, "quote");
      const { walletClient, publicClient } = served.chain.devchain.chain;
      const hash = await walletClient.writeContract({ address: DEMO_MARKET_GROUP_ADDRESS, abi: marketGroupAbi, functionName: "settleMarket", args: [1n, 10n ** 18n] });
      await minedReceipt(publicClient, hash);
      const error = await stream.next(5_000, "the error at the settlement's block");
      assert.equal(error.type, "error");
      assert.equal(error.json.body?.error ?? error.json.error, "Market is settled");
      const end = await stream.next(5_000, "the end");
      assert.deepEqual([end.type, end.json], ["end", { reason: "settled" }]);
      const answer = await served.service.get(path(2));
      assert.deepEqual([answer.status, answer.body.error], [400, "Market is settled"]);
    } finally {
      stream.close();
    }
  });
});
