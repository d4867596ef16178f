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
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { erc20Abi, parseAbiItem, type Address } from "viem";
import { chromium, type Browser, type Page } from "playwright-core";
import { DEMO_TRADE_GAS, DEMO_TRADER } from "../../src/devchain/demoMarkets.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { startQuoterHarness, type QuoterHarness } from "../support/quoterHarness.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const SHOTS = new URL("../../test-output/explorer-wallet/", import.meta.url);
const CHAIN_HEX = "0x7a69"; // 31337
const ICON = `data:image/svg+xml,${encodeURIComponent("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 8 8'><rect width='8' height='8' fill='#f60'/></svg>")}`;
const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)");

let browser: Browser;
before(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y --no-install-recommends chromium, or set CHROMIUM_PATH`);
  mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
});
after(async () => {
  await browser?.close();
});

interface WalletOptions {
  readonly name: string;
  /** Takes wallet_sendCalls (and answers wallet_getCapabilities); without it both answer 4200 / -32601. */
  readonly batch: boolean;
  /** Answers 4001 to every send. */
  readonly reject?: boolean;
  /** The chain it starts on (hex); 31337 unless given. */
  readonly chainId?: string;
  readonly refuseSwitch?: boolean;
  /** Estimates each transaction's gas before sending it, as browser wallets do: a call that would revert is refused with its revert data. */
  readonly estimates?: boolean;
  /** Moves to another chain (0x1) once it has sent its first transaction: the chain changed meanwhile. */
  readonly leavesAfterFirstSend?: boolean;
}

/** A JSON-RPC error as a wallet throws it (EIP-1193: code, message, data). */
const walletError = (code: number, message: string) => Object.assign(new Error(message), { code });

/** The test's wallet: every request it saw, answered from the chain with the trader's unlocked account. */
class TestWallet {
  readonly seen: { method: string; params: any[] }[] = [];
  readonly uuid = crypto.randomUUID();
  chainId: string;
  private readonly batches = new Map<string, unknown[]>();
  constructor(readonly options: WalletOptions, private readonly rpcUrl: string) {
    this.chainId = options.chainId ?? CHAIN_HEX;
  }
  get info() {
    return { uuid: this.uuid, name: this.options.name, icon: ICON, rdns: `test.${this.options.name.toLowerCase().replace(/\W+/g, "")}` };
  }
  async rpc(method: string, params: unknown[]): Promise<any> {
    const response = await fetch(this.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
    const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
    if (body.error) throw Object.assign(walletError(body.error.code, body.error.message), { data: body.error.data });
    return body.result;
  }
  /** One call sent from the trader and mined (the chain automines): its receipt. */
  private async send(call: { to: string; data: string }) {
    if (this.chainId !== CHAIN_HEX) throw walletError(-32000, `this wallet is on chain ${this.chainId}`);
    // The node's own revert (code 3, its data the error's) is what such a wallet passes on.
    if (this.options.estimates) await this.rpc("eth_estimateGas", [{ from: DEMO_TRADER, to: call.to, data: call.data }]);
    const hash = await this.rpc("eth_sendTransaction", [{ from: DEMO_TRADER, to: call.to, data: call.data, gas: `0x${DEMO_TRADE_GAS.toString(16)}` }]);
    if (this.options.leavesAfterFirstSend) this.chainId = "0x1";
    return hash as string;
  }
  /** The receipt of `hash`, asked for until the node has it: an automining node may answer null just after the send. */
  private async receipt(hash: string): Promise<unknown> {
    for (let asked = 0; asked < 600; asked++) {
      const receipt = await this.rpc("eth_getTransactionReceipt", [hash]);
      if (receipt) return receipt;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw walletError(-32603, `no receipt for ${hash}`);
  }
  async handle(method: string, params: any[]): Promise<unknown> {
    this.seen.push({ method, params });
    const { batch, reject, refuseSwitch } = this.options;
    switch (method) {
      case "eth_requestAccounts":
      case "eth_accounts":
        return [DEMO_TRADER];
      case "eth_chainId":
        return this.chainId;
      case "wallet_switchEthereumChain":
        if (refuseSwitch) throw walletError(4001, "User rejected the request.");
        this.chainId = params[0].chainId;
        return null;
      case "wallet_getCapabilities":
        if (!batch) throw walletError(4200, "The Provider does not support the requested method.");
        return { [CHAIN_HEX]: { atomic: { status: "supported" } } };
      case "wallet_sendCalls": {
        if (!batch) throw walletError(-32601, "Method not found");
        if (reject) throw walletError(4001, "User rejected the request.");
        const receipts = [];
        for (const call of params[0].calls) receipts.push(await this.receipt(await this.send(call)));
        const id = `0x${crypto.randomUUID().replace(/-/g, "")}`;
        this.batches.set(id, receipts);
        return { id };
      }
      case "wallet_getCallsStatus":
        return { version: "2.0.0", id: params[0], chainId: CHAIN_HEX, atomic: false, status: 200, receipts: this.batches.get(params[0]) };
      case "eth_sendTransaction":
        if (reject) throw walletError(4001, "User rejected the request.");
        return this.send(params[0]);
      default:
        return this.rpc(method, params);
    }
  }
  sent(method: string) {
    return this.seen.filter((request) => request.method === method);
  }
}

/**
 * Announces a wallet by EIP-6963 in the page, its requests going to the test: run in the page before its scripts.
 * Plain JavaScript text: a function of this file would reach the page as the TypeScript loader rewrote it.
 */
const announceWallet = (info: TestWallet["info"]) => `(() => {
  const info = ${JSON.stringify(info)};
  const provider = {
    async request({ method, params }) {
      const answer = await window.__testWallet(info.uuid, method, params ?? []);
      if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code, data: answer.error.data });
      return answer.result;
    },
    on() {},
    removeListener() {},
  };
  const announce = () => window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }));
  window.addEventListener("eip6963:requestProvider", announce);
  announce();
})();`;

interface Opened {
  h: QuoterHarness;
  page: Page;
  errors: string[];
  close(): Promise<void>;
}

/** A fresh chain and service, and the explorer opened at `query` with `wallets` announced. */
async function open(wallets: (h: QuoterHarness) => TestWallet[], query: Record<string, string>): Promise<Opened & { wallets: TestWallet[] }> {
  const h = await startQuoterHarness();
  const origin = await h.app.listen({ host: "127.0.0.1", port: 0 });
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const made = wallets(h);
  await page.exposeFunction("__testWallet", async (uuid: string, method: string, params: any[]) => {
    try {
      return { result: await made.find((w) => w.uuid === uuid)!.handle(method, params) };
    } catch (error) {
      const { code, message, data } = error as { code?: number; message: string; data?: unknown };
      return { error: { code: code ?? -32603, message, data } };
    }
  });
  for (const wallet of made) await page.addInitScript({ content: announceWallet(wallet.info) });
  const link = new URLSearchParams({ chainId: "31337", marketAddress: h.devchain.marketGroup, search: "exact", ...query });
  await page.goto(`${origin}/quoter/explorer?${link}`, { waitUntil: "load" });
  await page.waitForSelector("body[data-state=done]");
  return { h, page, errors, wallets: made, close: async () => (await page.close(), await h.close()) };
}

const NEW_LONG = { marketId: "1", expectedPrice: "0.55", collateralAvailable: "1000000000000000000000" };

async function connect(page: Page, walletName: string) {
  await page.getByRole("button", { name: walletName, exact: true }).click();
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await page.waitForSelector("#wallet-status:has-text('Connected')");
}

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
    const opened = await open((h) => [new TestWallet({ name: "Batch Wallet", batch: true }, h.devchain.endpoint.url)], NEW_LONG);
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
    const opened = await open((h) => [new TestWallet({ name: "Alpha Wallet", batch: true }, h.devchain.endpoint.url), new TestWallet({ name: "Beta Wallet", batch: false }, h.devchain.endpoint.url)], NEW_LONG);
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
    const opened = await open((h) => [new TestWallet({ name: "Refusing Wallet", batch: true, reject: true }, h.devchain.endpoint.url)], NEW_LONG);
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
    const opened = await open(
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
    const opened = await open((h) => [new TestWallet({ name: "Batch Wallet", batch: true }, h.devchain.endpoint.url)], held);
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
    const opened = await open((h) => [new TestWallet({ name: "Careful Wallet", batch: false, estimates: true }, h.devchain.endpoint.url)], NEW_LONG);
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
    const opened = await open((h) => [new TestWallet({ name: "Batch Wallet", batch: true }, h.devchain.endpoint.url)], NEW_LONG);
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
    const opened = await open((h) => [new TestWallet({ name: "Wandering Wallet", batch: false, leavesAfterFirstSend: true }, h.devchain.endpoint.url)], NEW_LONG);
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
    const opened = await open(() => [], { ...NEW_LONG, taker: DEMO_TRADER });
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
