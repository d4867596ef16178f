// The packed client's held positions (semantics §13) against a real service on the demo chain: `quotePosition` answers
// exactly what the raw HTTP answers, its errors are QuoterErrors with the service's body, `positionUrl` is the route's,
// and `watch` of a position yields its quote, then `end` "transferred" when its owner transfers it.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { DEVCHAIN_ID } from "../../src/devchain/devchainId.ts";
import { DEMO_DEPLOYER, DEMO_TRADER } from "../../src/devchain/demoMarkets.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { minedReceipt } from "../support/receipts.ts";
import { startClientService, type ClientService } from "../support/clientService.ts";

const CHAIN = String(DEVCHAIN_ID);
let c: ClientService;

before(async () => {
  c = await startClientService();
});
after(() => c?.close());

describe("a held position through the client", () => {
  test("quotePosition: the raw answer, deep-equal; positionUrl is the route's; an unknown position is a QuoterError 404", async () => {
    const quoter = c.client.createQuoterClient({ baseUrl: c.service.base });
    const request = { chainId: CHAIN, marketAddress: c.setup.devchain.marketGroup, positionId: "1", expectedPrice: "0.45", collateralAvailable: "0", search: "exact" as const };
    const path = `/quoter/${CHAIN}/${c.setup.devchain.marketGroup}/positions/1?expectedPrice=0.45&collateralAvailable=0&search=exact`;
    assert.equal(quoter.positionUrl(request), `${c.service.base}${path}`);
    const answer = await quoter.quotePosition(request);
    assert.deepEqual(answer, (await c.raw(path)).body);
    assert.equal(answer.owner, DEMO_TRADER);
    const error = (await quoter.quotePosition({ ...request, positionId: "99" }).catch((e: unknown) => e)) as { status: number; body: { error: string } };
    assert.ok(error instanceof c.client.QuoterError);
    assert.equal(error.status, 404);
    assert.equal(error.body.error, "Position not found");
  });

  test("watch of a position: its quote, then `end` transferred when its owner transfers it", async () => {
    const quoter = c.client.createQuoterClient({ baseUrl: c.service.base });
    const events = quoter.watch({ chainId: CHAIN, marketAddress: c.setup.devchain.marketGroup, positionId: "1", expectedPrice: "0.55", collateralAvailable: "1000000000000000000" });
    const first = await events.next();
    assert.equal(first.value?.type, "quote");
    const { traderClient, publicClient } = c.setup.devchain.chain;
    await minedReceipt(publicClient, await traderClient.writeContract({ address: c.setup.devchain.marketGroup, abi: marketGroupAbi, functionName: "transferFrom", args: [DEMO_TRADER, DEMO_DEPLOYER, 1n] }));
    for (;;) {
      const next = await events.next();
      assert.equal(next.done, false, "the stream ends after its end event");
      if (next.value!.type === "quote") continue;
      assert.deepEqual(next.value, { type: "end", reason: "transferred" });
      break;
    }
    assert.equal((await events.next()).done, true);
  });
});
