// The packed client's liquidity quotes (semantics §14) against a real service on the demo chain: `quoteLiquidity`
// answers exactly what the raw HTTP answers, `liquidityUrl` is the route's, `exact` reads its amounts and range
// prices exactly, a refusal is a QuoterError with the service's body, and `watch` of a liquidity request yields its
// answer at the head.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { DEVCHAIN_ID } from "../../src/devchain/devchainId.ts";
import { DEMO_TRADER } from "../../src/devchain/demoMarkets.ts";
import { startClientService, type ClientService } from "../support/clientService.ts";

const CHAIN = String(DEVCHAIN_ID);
const HUNDRED = "100000000000000000000";
let c: ClientService;

before(async () => {
  c = await startClientService();
});
after(() => c?.close());

describe("a liquidity quote through the client", () => {
  test("quoteLiquidity: the raw answer, deep-equal, with the trade for a taker; liquidityUrl is the route's; exact() reads it", async () => {
    const quoter = c.client.createQuoterClient({ baseUrl: c.service.base });
    const asked = { chainId: CHAIN, marketAddress: c.setup.devchain.marketGroup, marketId: "1", collateralAvailable: HUNDRED, lowerPrice: "0.4", upperPrice: "0.6", taker: DEMO_TRADER };
    const path = `/quoter/${CHAIN}/${c.setup.devchain.marketGroup}/1/liquidity?collateralAvailable=${HUNDRED}&lowerPrice=0.4&upperPrice=0.6&taker=${DEMO_TRADER}`;
    assert.equal(quoter.liquidityUrl(asked), `${c.service.base}${path}`);
    const answer = await quoter.quoteLiquidity(asked);
    const direct = await c.raw(path);
    assert.equal(direct.status, 200);
    assert.deepEqual(answer, direct.body);
    assert.equal(answer.trade?.transaction.from, DEMO_TRADER);
    const read = c.client.exact(answer);
    assert.equal(read.liquidity, BigInt(answer.liquidity));
    assert.equal(read.mintedLiquidity, BigInt(answer.mintedLiquidity));
    assert.equal(read.amountBaseToken, BigInt(answer.amountBaseToken));
    assert.equal(read.requiredCollateral <= read.collateralAvailable, true);
    const [whole, fraction = ""] = answer.lowerPrice.split(".");
    assert.deepEqual(read.lowerPrice, { value: BigInt(whole!) * 10n ** 18n + BigInt(fraction.padEnd(18, "0")), decimals: 18 });
    assert.equal(read.groupQuote?.liquidity, answer.groupQuote === null ? undefined : BigInt(answer.groupQuote.liquidity));
  });

  test("a range past the market's bound is a QuoterError 400 with the service's body", async () => {
    const quoter = c.client.createQuoterClient({ baseUrl: c.service.base });
    const asked = { chainId: CHAIN, marketAddress: c.setup.devchain.marketGroup, marketId: "1", collateralAvailable: HUNDRED, lowerPrice: "0.001" };
    const error = (await quoter.quoteLiquidity(asked).catch((e: unknown) => e)) as { status: number; body: unknown };
    assert.ok(error instanceof c.client.QuoterError);
    assert.equal(error.status, 400);
    const direct = await c.raw(`/quoter/${CHAIN}/${c.setup.devchain.marketGroup}/1/liquidity?collateralAvailable=${HUNDRED}&lowerPrice=0.001`);
    assert.deepEqual(error.body, direct.body);
  });

  test("watch of a liquidity request: its answer at the head, the GET's", async () => {
    const quoter = c.client.createQuoterClient({ baseUrl: c.service.base });
    const asked = { chainId: CHAIN, marketAddress: c.setup.devchain.marketGroup, marketId: "1", collateralAvailable: HUNDRED };
    const events = quoter.watch(asked);
    try {
      const first = await events.next();
      assert.equal(first.value?.type, "quote");
      const event = first.value as { type: "quote"; answer: { blockNumber: string }; blockNumber: string | undefined };
      assert.equal(event.blockNumber, event.answer.blockNumber);
      const direct = await c.raw(`/quoter/${CHAIN}/${c.setup.devchain.marketGroup}/1/liquidity?collateralAvailable=${HUNDRED}&minBlock=${event.answer.blockNumber}`);
      assert.deepEqual(event.answer, direct.body);
    } finally {
      await events.return();
    }
  });
});
