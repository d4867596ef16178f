// The explorer trading through a browser wallet, in Chromium (playwright-core), against the service on the embedded
// chain. The wallets are the test's: EIP-1193 providers announced by EIP-6963, injected before the page loads, whose
// requests come to this process (exposeFunction) and are signed by the chain's unlocked accounts (the demo trader is
// one): the one part a test cannot have for real here. Each case checks the chain and the API's own answer (fetched
// by the test), never figures the page computed. A fresh chain per case: each sends transactions. The errors a
// trader meets are each a case: a refusal, a revert the wallet's estimate meets, a receipt that fails, the wallet's
// chain changed between two calls; after each, nothing more is sent.
// Screenshots of the trade panel before and after signing go to test-output/explorer-wallet/.
import { after, before, describe, test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { erc20Abi, parseAbiItem, type Address } from "viem";
import type { Browser } from "playwright-core";
import { DEMO_TRADER } from "../../src/devchain/demoMarkets.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { CHAIN_HEX, connect, launchBrowser, openExplorer, TestWallet, type Opened } from "../support/browserWallet.ts";
import type { QuoterHarness } from "../support/quoterHarness.ts";

const SHOTS = new URL("../../test-output/explorer-wallet/", import.meta.url);
const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)");

let browser: Browser;
before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const NEW_LONG = { marketId: "1", expectedPrice: "0.55", collateralAvailable: "1000000000000000000000" };

/** The API's answer to the quote the page shows, with the trader as taker, fetched by the test. */
async function apiAnswer(h: QuoterHarness, query: Record<string, string>) {
  const { marketId, ...asked } = query;
  const answer = await h.get(h.quotePath(marketId!, { ...asked, search: "exact", taker: DEMO_TRADER }));
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body;
}

const read = (h: QuoterHarness) => h.devchain.chain.publicClient;
const balance = (h: QuoterHarness, token: Address) => read(h).readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [DEMO_TRADER] });

/** The positions minted to the trader from `fromBlock` on: the market group's ERC-721 Transfers from 0. */
async function mintedSince(h: QuoterHarness, fromBlock: bigint): Promise<bigint[]> {
  const logs = await read(h).getLogs({ address: h.devchain.marketGroup, event: TRANSFER, args: { from: "0x0000000000000000000000000000000000000000", to: DEMO_TRADER }, fromBlock });
  return logs.map((log) => log.args.tokenId!);
}

/** Connects, signs the quote shown, and checks on chain the position the API's answer names. */
async function signNewPosition(t: TestContext, opened: Opened, walletName: string, shots: string) {
  const { h, page } = opened;
  await connect(page, walletName);
  await page.waitForSelector("#trade-sign:not([disabled])");
  const api = await apiAnswer(h, NEW_LONG);
  assert.equal(api.trade.simulation.ok, true);
  const token = api.trade.balance.token as Address;
  const [before, head] = [await balance(h, token), await read(h).getBlockNumber()];
  await page.locator("#trade").screenshot({ path: fileURLToPath(new URL(`${shots}-before.png`, SHOTS)) });
  await page.getByRole("button", { name: "Sign and send" }).first().click();
  await page.waitForSelector("#sent[data-outcome=done]", { timeout: 30_000 });
  // After: the page as the trader sees it, what was sent and the position it opened (which replaces the trade panel).
  await page.screenshot({ path: fileURLToPath(new URL(`${shots}-after.png`, SHOTS)), fullPage: true });
  t.diagnostic(`screenshots: ${fileURLToPath(new URL(`${shots}-{before,after}.png`, SHOTS))}`);
  const [positionId, ...more] = await mintedSince(h, head + 1n);
  assert.ok(positionId !== undefined && more.length === 0, "one position minted to the trader");
  assert.equal(await read(h).readContract({ address: h.devchain.marketGroup, abi: marketGroupAbi, functionName: "ownerOf", args: [positionId] }), DEMO_TRADER);
  assert.equal(await read(h).readContract({ address: h.devchain.marketGroup, abi: marketGroupAbi, functionName: "getPositionSize", args: [positionId] }), BigInt(api.maxSize));
  const taken = before - (await balance(h, token));
  assert.ok(taken > 0n && taken <= BigInt(api.trade.collateralLimit), `took ${taken}, limit ${api.trade.collateralLimit}`);
  assert.match((await page.textContent("#sent-status")) ?? "", new RegExp(`position ${positionId} opened with size ${api.maxSize}`));
  // Then the position's live quote in the position tab.
  await page.waitForSelector(`#position-list dd[data-field=positionId]:text-matches("^${positionId} ")`, { timeout: 30_000 });
  assert.match((await page.textContent("#status")) ?? "", /^live/);
  assert.match((await page.textContent("#position-list dd[data-field=currentSize]")) ?? "", new RegExp(`^${api.maxSize} `));
  return api;
}

describe("the explorer signs through a browser wallet", () => {
  test("a wallet with wallet_sendCalls: one batch opens the answer's maxSize, within collateralLimit, and its live quote opens", { timeout: 90_000 }, async (t) => {
    const opened = await openExplorer(browser, (h) => [new TestWallet({ name: "Batch Wallet", batch: true }, h.devchain.endpoint.url)], NEW_LONG);
    try {
      const api = await signNewPosition(t, opened, "Batch Wallet", "batch");
      const [wallet] = opened.wallets;
      assert.deepEqual(wallet!.sent("wallet_getCapabilities").map(({ params }) => params), [[DEMO_TRADER, [CHAIN_HEX]]], "its capabilities asked for the quote's chain");
      assert.equal(wallet!.sent("wallet_sendCalls").length, 1);
      assert.equal(wallet!.sent("eth_sendTransaction").length, 0);
      const [request] = wallet!.sent("wallet_sendCalls")[0]!.params;
      assert.deepEqual({ ...request, calls: undefined }, { version: "2.0.0", from: DEMO_TRADER, chainId: CHAIN_HEX, atomicRequired: false, calls: undefined });
      assert.deepEqual(request.calls, api.trade.calls);
      assert.deepEqual(opened.errors, []);
    } finally {
      await opened.close();
    }
  });

  test("two wallets listed by name; the one chosen, without wallet_sendCalls, sends the approval then the trade", { timeout: 90_000 }, async (t) => {
    const opened = await openExplorer(browser, (h) => [new TestWallet({ name: "Alpha Wallet", batch: true }, h.devchain.endpoint.url), new TestWallet({ name: "Beta Wallet", batch: false }, h.devchain.endpoint.url)], NEW_LONG);
    try {
      const [alpha, beta] = opened.wallets;
      for (const name of ["Alpha Wallet", "Beta Wallet"]) assert.equal(await opened.page.getByRole("button", { name, exact: true }).count(), 1);
      assert.equal(await opened.page.locator("#wallet-list img").count(), 2);
      const api = await signNewPosition(t, opened, "Beta Wallet", "one-by-one");
      assert.ok(api.trade.approval, "the demo trader has not approved the market group: the answer carries an approval");
      const sent = beta!.sent("eth_sendTransaction").map(({ params }) => ({ to: params[0].to, data: params[0].data, from: params[0].from }));
      assert.deepEqual(sent, [
        { to: api.trade.approval.transaction.to, data: api.trade.approval.transaction.data, from: DEMO_TRADER },
        { to: api.trade.transaction.to, data: api.trade.transaction.data, from: DEMO_TRADER },
      ]);
      assert.deepEqual(alpha!.seen, [], "the wallet not chosen is never asked");
      assert.deepEqual(opened.errors, []);
    } finally {
      await opened.close();
    }
  });

  test("a rejection in the wallet: nothing mined, and the page says so", { timeout: 90_000 }, async () => {
    const opened = await openExplorer(browser, (h) => [new TestWallet({ name: "Refusing Wallet", batch: true, reject: true }, h.devchain.endpoint.url)], NEW_LONG);
    try {
      const { h, page } = opened;
      await connect(page, "Refusing Wallet");
      await page.waitForSelector("#trade-sign:not([disabled])");
      const [head, nonce] = [await read(h).getBlockNumber(), await read(h).getTransactionCount({ address: DEMO_TRADER })];
      await page.getByRole("button", { name: "Sign and send" }).first().click();
      await page.waitForSelector("#sent[data-outcome=failed]");
      assert.match((await page.textContent("#sent-status")) ?? "", /You rejected the batch in the wallet: nothing was sent/);
      assert.equal(await read(h).getBlockNumber(), head);
      assert.equal(await read(h).getTransactionCount({ address: DEMO_TRADER }), nonce);
      assert.equal(opened.wallets[0]!.sent("eth_sendTransaction").length, 0);
    } finally {
      await opened.close();
    }
  });

  test("a wallet on another chain is asked to switch to the quote's; one that refuses is told which chain to pick", { timeout: 90_000 }, async () => {
    const opened = await openExplorer(
      browser,
      (h) => [new TestWallet({ name: "Mainnet Wallet", batch: true, chainId: "0x1" }, h.devchain.endpoint.url), new TestWallet({ name: "Stubborn Wallet", batch: true, chainId: "0x1", refuseSwitch: true }, h.devchain.endpoint.url)],
      NEW_LONG,
    );
    try {
      const { page } = opened;
      const [switching, stubborn] = opened.wallets;
      await connect(page, "Mainnet Wallet");
      await page.waitForSelector("#wallet-status:has-text('on chain 31337')");
      assert.deepEqual(switching!.sent("wallet_switchEthereumChain").map(({ params }) => params), [[{ chainId: CHAIN_HEX }]]);
      await page.getByRole("button", { name: "Stubborn Wallet", exact: true }).click();
      await page.getByRole("button", { name: "Connect wallet" }).click();
      await page.waitForSelector("#wallet-status:has-text('pick chain 31337')");
      assert.deepEqual(stubborn!.sent("wallet_switchEthereumChain").map(({ params }) => params), [[{ chainId: CHAIN_HEX }]]);
      // Signing anyway: the switch is asked again, refused again, and nothing is sent.
      await page.waitForSelector("#trade-sign:not([disabled])");
      await page.getByRole("button", { name: "Sign and send" }).first().click();
      await page.waitForSelector("#sent[data-outcome=failed]");
      assert.match((await page.textContent("#sent-status")) ?? "", /pick chain 31337 \(the quote's\) in Stubborn Wallet/);
      assert.equal(stubborn!.sent("wallet_sendCalls").length + stubborn!.sent("eth_sendTransaction").length, 0);
    } finally {
      await opened.close();
    }
  });

  test("a held long turned around from its tab: modifyTraderPosition signed, the size on chain the answer's targetSize", { timeout: 90_000 }, async () => {
    const held = { kind: "held", marketId: "1", expectedPrice: "0.45", collateralAvailable: "0" };
    const opened = await openExplorer(browser, (h) => [new TestWallet({ name: "Batch Wallet", batch: true }, h.devchain.endpoint.url)], held);
    try {
      const { h, page } = opened;
      await connect(page, "Batch Wallet");
      await page.waitForSelector("#position-sign:not([disabled])");
      const { kind: _kind, marketId, ...asked } = held;
      const api = (await h.get(`/quoter/31337/${h.devchain.marketGroup}/positions/${marketId}?${new URLSearchParams({ ...asked, search: "exact", taker: DEMO_TRADER })}`)).body;
      assert.ok(BigInt(api.currentSize) > 0n && BigInt(api.targetSize) < 0n, "the answer turns the long into a short");
      await page.locator("#position-sign").click();
      await page.waitForSelector("#sent[data-outcome=done]", { timeout: 30_000 });
      assert.equal(await read(h).readContract({ address: h.devchain.marketGroup, abi: marketGroupAbi, functionName: "getPositionSize", args: [1n] }), BigInt(api.targetSize));
      assert.match((await page.textContent("#sent-status")) ?? "", new RegExp(`position 1 now has size ${api.targetSize} \\(short`));
      assert.equal(opened.wallets[0]!.sent("wallet_sendCalls")[0]!.params[0].calls.at(-1).data, api.trade.transaction.data);
      assert.deepEqual(opened.errors, []);
    } finally {
      await opened.close();
    }
  });

  /** Connects `walletName`, then moves the trader's collateral away: the answer shown (whose simulation succeeded) is now stale. */
  async function connectThenDrain(opened: Opened, walletName: string) {
    const { h, page } = opened;
    await connect(page, walletName);
    await page.waitForSelector("#trade-sign:not([disabled])");
    const api = await apiAnswer(h, NEW_LONG);
    const token = api.trade.balance.token as Address;
    const { traderClient } = h.devchain.chain;
    const all = await balance(h, token);
    const hash = await traderClient.writeContract({ address: token, abi: erc20Abi, functionName: "transfer", args: ["0x000000000000000000000000000000000000dEaD", all] });
    await read(h).waitForTransactionReceipt({ hash });
    return { api, head: await read(h).getBlockNumber(), nonce: await read(h).getTransactionCount({ address: DEMO_TRADER }) };
  }

  test("a trade that reverts in the wallet's estimate: its error decoded as a trace's, nothing sent after it", { timeout: 90_000 }, async () => {
    const opened = await openExplorer(browser, (h) => [new TestWallet({ name: "Careful Wallet", batch: false, estimates: true }, h.devchain.endpoint.url)], NEW_LONG);
    try {
      const { h, page } = opened;
      const { head, nonce } = await connectThenDrain(opened, "Careful Wallet");
      await page.getByRole("button", { name: "Sign and send" }).first().click();
      await page.waitForSelector("#sent[data-outcome=failed]");
      const said = (await page.textContent("#sent-status")) ?? "";
      assert.match(said, /\(the trade\) reverts: ERC20InsufficientBalance \(sender 0x[0-9a-f]{40}, balance 0, needed [1-9][0-9]*\).*Nothing more was sent/s, said);
      assert.match(said, /The calls before it were sent and mined/, "the approval went through first");
      assert.equal(await read(h).getTransactionCount({ address: DEMO_TRADER }), nonce + 1, "the approval alone was sent");
      assert.deepEqual(await mintedSince(h, head + 1n), [], "no position minted");
    } finally {
      await opened.close();
    }
  });

  test("a call whose receipt fails: said, with its hash, and no position", { timeout: 90_000 }, async () => {
    const opened = await openExplorer(browser, (h) => [new TestWallet({ name: "Batch Wallet", batch: true }, h.devchain.endpoint.url)], NEW_LONG);
    try {
      const { h, page } = opened;
      const { head } = await connectThenDrain(opened, "Batch Wallet");
      await page.getByRole("button", { name: "Sign and send" }).first().click();
      await page.waitForSelector("#sent[data-outcome=failed]");
      const [, trade] = await Promise.all([head + 1n, head + 2n].map((blockNumber) => read(h).getBlock({ blockNumber, includeTransactions: true })));
      const failed = trade!.transactions[0]!;
      assert.equal((await read(h).getTransactionReceipt({ hash: failed.hash })).status, "reverted");
      assert.match((await page.textContent("#sent-status")) ?? "", new RegExp(`Transaction ${failed.hash} reverted on chain`));
      assert.deepEqual(await mintedSince(h, head + 1n), []);
    } finally {
      await opened.close();
    }
  });

  test("the wallet's chain changed between the approval and the trade: the trade is not sent, and the page says so", { timeout: 90_000 }, async () => {
    const opened = await openExplorer(browser, (h) => [new TestWallet({ name: "Wandering Wallet", batch: false, leavesAfterFirstSend: true }, h.devchain.endpoint.url)], NEW_LONG);
    try {
      const { h, page } = opened;
      await connect(page, "Wandering Wallet");
      await page.waitForSelector("#trade-sign:not([disabled])");
      const nonce = await read(h).getTransactionCount({ address: DEMO_TRADER });
      await page.getByRole("button", { name: "Sign and send" }).first().click();
      await page.waitForSelector("#sent[data-outcome=failed]");
      assert.match((await page.textContent("#sent-status")) ?? "", /The wallet changed to chain 1, not the quote's 31337: nothing more was sent/);
      assert.equal(opened.wallets[0]!.sent("eth_sendTransaction").length, 1, "the approval alone");
      assert.equal(await read(h).getTransactionCount({ address: DEMO_TRADER }), nonce + 1);
    } finally {
      await opened.close();
    }
  });

  test("Sign and send is disabled, with its reason: before a wallet connects, and when the API's simulation says the trade reverts", { timeout: 60_000 }, async () => {
    // A taker without collateral: the API's simulation of its trade reverts.
    const poor = "0x000000000000000000000000000000000000dead";
    const opened = await openExplorer(browser, () => [], { ...NEW_LONG, taker: DEMO_TRADER });
    try {
      const { h, page } = opened;
      const button = page.getByRole("button", { name: "Sign and send" }).first();
      const reason = async () => page.textContent(`#${await button.getAttribute("aria-describedby")}`);
      assert.equal(await button.isDisabled(), true);
      assert.equal(await reason(), "Connect a wallet to sign and send it.");
      assert.match((await page.textContent("#wallet-status")) ?? "", /No wallet found/);
      const { marketId, ...asked } = NEW_LONG;
      const api = (await h.get(h.quotePath(marketId, { ...asked, search: "exact", taker: poor }))).body;
      assert.equal(api.trade.simulation.ok, false);
      await page.fill("#taker", poor);
      await page.getByRole("button", { name: "Quote" }).click();
      await page.waitForSelector(`#trade-sign-why:has-text("${api.trade.simulation.revert}")`);
      assert.equal(await button.isDisabled(), true);
      assert.equal(await reason(), `Not sendable: the simulation says it would revert (${api.trade.simulation.revert}).`);
    } finally {
      await opened.close();
    }
  });
});
