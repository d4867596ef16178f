// The explorer's liquidity tab in Chromium (playwright-core), against the service on the embedded chain: a liquidity
// quote opened from a link draws its range on the market's price axis with the current price, says what the budget
// mints and what the market group's own quote would do, each figure the API's own answer (fetched by the test); a
// range past the market's bound is the API's 400, said as such; and the createLiquidityPosition signed through a
// test wallet (test/support/browserWallet.ts) mints, on chain, the position and the liquidity the answer names.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { erc20Abi, parseAbiItem, type Address } from "viem";
import type { Browser, Page } from "playwright-core";
import { DEMO_TRADER } from "../../src/devchain/demoMarkets.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { connect, launchBrowser, openExplorer, TestWallet } from "../support/browserWallet.ts";
import type { QuoterHarness } from "../support/quoterHarness.ts";

const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)");
const MINT = parseAbiItem("event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)");
/** A budget of 100 tokens in the deep yes/no market 1, in a range around its price. */
const AROUND = { kind: "liquidity", marketId: "1", lowerPrice: "0.4", upperPrice: "0.6", collateralAvailable: "100000000000000000000" };

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** The API's liquidity answer for the page's query (its kind aside), fetched by the test. */
async function apiAnswer(h: QuoterHarness, query: Record<string, string>, status = 200) {
  const { kind: _kind, marketId, ...asked } = query;
  const answer = await h.get(`/quoter/31337/${h.devchain.marketGroup}/${marketId}/liquidity?${new URLSearchParams(asked)}`);
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  return answer.body;
}

const field = (page: Page, list: string, name: string) => page.textContent(`#${list} dd[data-field="${name}"]`);

/** The group quote's sentence, from the API's own `fits` and liquidities. */
function groupSentence(api: any): RegExp {
  if (api.groupQuote === null) return /^It reverted: the market group gives no quote/;
  if (!api.groupQuote.fits) return new RegExp(`asks for liquidity ${api.groupQuote.liquidity} .*would revert InsufficientCollateral`);
  if (BigInt(api.groupQuote.liquidity) < BigInt(api.liquidity)) return new RegExp(`^It fits, with less: liquidity ${api.groupQuote.liquidity}, ${BigInt(api.liquidity) - BigInt(api.groupQuote.liquidity)} .*unused`);
  return new RegExp(`^It fits, with liquidity ${api.groupQuote.liquidity}: as much as the budget mints`);
}

describe("the explorer's liquidity tab", () => {
  test("a range from a link: drawn on the market's price axis with the current price; what the budget mints and the group's own quote, as the API answers", { timeout: 90_000 }, async () => {
    const opened = await openExplorer(browser, () => [], { ...AROUND, taker: DEMO_TRADER });
    try {
      const { h, page, errors } = opened;
      const api = await apiAnswer(h, { ...AROUND, taker: DEMO_TRADER });
      // The market's bounds: its answer without a range.
      const whole = await apiAnswer(h, { marketId: AROUND.marketId, collateralAvailable: AROUND.collateralAvailable });
      assert.equal(await page.isVisible("#liquidity"), true);
      assert.equal(await page.getAttribute("#range-chart .range-band", "data-lower"), api.lowerPrice);
      assert.equal(await page.getAttribute("#range-chart .range-band", "data-upper"), api.upperPrice);
      assert.equal(await page.getAttribute("#range-chart .range-current", "data-price"), api.currentPrice);
      assert.equal(await page.getAttribute("#range-chart .range-axis", "data-min"), whole.lowerPrice);
      assert.equal(await page.getAttribute("#range-chart .range-axis", "data-max"), whole.upperPrice);
      assert.match((await field(page, "liquidity-list", "liquidity")) ?? "", new RegExp(`^${api.liquidity}: the largest`));
      assert.match((await field(page, "liquidity-list", "mintedLiquidity")) ?? "", new RegExp(`^${api.mintedLiquidity}`));
      assert.match((await field(page, "liquidity-list", "range")) ?? "", new RegExp(`ticks ${api.lowerTick} to ${api.upperTick}`));
      for (const name of ["amountBaseToken", "amountQuoteToken", "requiredCollateral"]) assert.match((await field(page, "liquidity-list", name)) ?? "", new RegExp(`^${api[name]} `), name);
      assert.match((await field(page, "liquidity-list", "maxCollateral")) ?? "", new RegExp(`^${api.maxCollateral} \\(${api.collateralDecimals} decimals`));
      assert.match((await field(page, "liquidity-list", "exact")) ?? "", new RegExp(`^yes, in ${api.candidates} candidates`));
      assert.ok(api.groupQuote !== null, "the group quotes this budget and range");
      assert.equal(await field(page, "liquidity-group", "groupQuote.liquidity"), api.groupQuote.liquidity);
      assert.match((await page.textContent("#group-verdict")) ?? "", groupSentence(api));
      assert.equal(await page.getAttribute("#group-verdict", "data-fits"), String(api.groupQuote.fits));
      assert.match((await page.textContent("#verdict")) ?? "", new RegExp(`mints at most liquidity ${api.liquidity} between ${api.lowerPrice} and ${api.upperPrice}`));
      // The transaction read back from its data: the answer's ticks, and the simulation's verdict.
      assert.equal(await field(page, "liquidity-trade", "transaction.ticks"), `${api.lowerTick} to ${api.upperTick}`);
      assert.match((await field(page, "liquidity-trade", "transaction.amounts")) ?? "", new RegExp(`^${api.amountBaseToken} base, ${api.amountQuoteToken} quote`));
      assert.match((await field(page, "liquidity-trade", "simulation")) ?? "", api.trade.simulation.ok ? /^The transaction succeeds/ : /would revert/);
      assert.match((await page.textContent("#curl-line")) ?? "", new RegExp(`/31337/${h.devchain.marketGroup}/1/liquidity\\?collateralAvailable=`));
      // The form keeps the range, and the trade's fields that a liquidity quote does not take step aside.
      assert.equal(await page.inputValue("#lowerPrice"), AROUND.lowerPrice);
      assert.equal(await page.isVisible("#expectedPrice"), false);
      assert.deepEqual(errors, []);
    } finally {
      await opened.close();
    }
  });

  test("small and large budgets on a narrow range: the group's own quote said as the API's `fits` and liquidities say", { timeout: 90_000 }, async (t) => {
    // 0.01 token: the group's own quote reverts; 10^6 tokens: it fits with less (as on the real contracts).
    for (const [collateralAvailable, fits] of [["10000000000000000", false], ["1000000000000000000000000", true]] as const) {
      const query = { ...AROUND, lowerPrice: "0.49", upperPrice: "0.51", collateralAvailable };
      const opened = await openExplorer(browser, () => [], query);
      try {
        const api = await apiAnswer(opened.h, query);
        t.diagnostic(`budget ${collateralAvailable}: liquidity ${api.liquidity}, the group's ${api.groupQuote.liquidity} (fits: ${api.groupQuote.fits})`);
        assert.equal(api.groupQuote?.fits, fits);
        assert.match((await opened.page.textContent("#group-verdict")) ?? "", groupSentence(api));
        assert.equal(await field(opened.page, "liquidity-group", "groupQuote.fits"), fits ? "yes" : "no: it would revert");
        assert.deepEqual(opened.errors, []);
      } finally {
        await opened.close();
      }
    }
  });

  test("a range past the market's lower bound: the API's 400 and its detail, and no liquidity panel", { timeout: 60_000 }, async () => {
    const query = { ...AROUND, lowerPrice: "0.001" };
    const opened = await openExplorer(browser, () => [], query, "failed");
    try {
      const api = await apiAnswer(opened.h, query, 400);
      const shown = (await opened.page.textContent("#error")) ?? "";
      assert.ok(shown.includes(`400 ${api.error}`), shown);
      for (const detail of api.details) assert.ok(shown.includes(detail.message), `${detail.message} in ${shown}`);
      assert.equal(await opened.page.isVisible("#liquidity"), false);
      assert.deepEqual(opened.errors, []);
    } finally {
      await opened.close();
    }
  });

  test("signed through a wallet: the position minted to the account holds the answer's mintedLiquidity in its ticks, within collateralLimit", { timeout: 90_000 }, async () => {
    const opened = await openExplorer(browser, (h) => [new TestWallet({ name: "Batch Wallet", batch: true }, h.devchain.endpoint.url)], AROUND);
    try {
      const { h, page } = opened;
      const chain = h.devchain.chain.publicClient;
      await connect(page, "Batch Wallet");
      await page.waitForSelector("#liquidity-sign:not([disabled])");
      const api = await apiAnswer(h, { ...AROUND, taker: DEMO_TRADER });
      assert.equal(api.trade.simulation.ok, true, JSON.stringify(api.trade.simulation));
      const token = api.trade.balance.token as Address;
      const balance = () => chain.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [DEMO_TRADER] });
      const [before, head] = [await balance(), await chain.getBlockNumber()];
      await page.getByRole("button", { name: "Sign and provide the liquidity" }).click();
      await page.waitForSelector("#sent[data-outcome=done]", { timeout: 30_000 });
      const sent = opened.wallets[0]!.sent("wallet_sendCalls");
      assert.equal(sent.length, 1);
      assert.deepEqual(sent[0]!.params[0].calls, api.trade.calls);
      const group = h.devchain.marketGroup;
      const minted = await chain.getLogs({ address: group, event: TRANSFER, args: { from: "0x0000000000000000000000000000000000000000", to: DEMO_TRADER }, fromBlock: head + 1n });
      assert.equal(minted.length, 1, "one position minted to the trader");
      const positionId = minted[0]!.args.tokenId!;
      const position = await chain.readContract({ address: group, abi: marketGroupAbi, functionName: "getPosition", args: [positionId] });
      assert.equal(position.kind, 1, "a liquidity position (the group's kind 1)");
      const [market] = await chain.readContract({ address: group, abi: marketGroupAbi, functionName: "getMarket", args: [BigInt(AROUND.marketId)] });
      const mints = await chain.getLogs({ address: market.pool, event: MINT, args: { owner: group }, fromBlock: head + 1n });
      assert.equal(mints.length, 1);
      assert.deepEqual([mints[0]!.args.tickLower, mints[0]!.args.tickUpper, mints[0]!.args.amount], [api.lowerTick, api.upperTick, BigInt(api.mintedLiquidity)]);
      const taken = before - (await balance());
      assert.ok(taken > 0n && taken <= BigInt(api.trade.collateralLimit), `took ${taken}, limit ${api.trade.collateralLimit}`);
      const said = (await page.textContent("#sent-status")) ?? "";
      assert.match(said, new RegExp(`liquidity position ${positionId} minted to you, holding liquidity ${api.mintedLiquidity}, as quoted`));
      assert.match(said, new RegExp(`it took ${taken} .*within its limit of ${api.trade.collateralLimit}`));
      assert.deepEqual(opened.errors, []);
    } finally {
      await opened.close();
    }
  });
});
