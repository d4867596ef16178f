// The explorer's tests' browser wallets: EIP-1193 providers announced by EIP-6963, injected into the page before its
// scripts run, whose requests come to the test's process (exposeFunction) and are answered from the chain with the
// demo trader's unlocked account (the one part a test cannot have for real here); and the explorer opened on a
// fresh chain and service with them announced.
import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { DEMO_TRADE_GAS, DEMO_TRADER } from "../../src/devchain/demoMarkets.ts";
import { startQuoterHarness, type QuoterHarness } from "./quoterHarness.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
export const CHAIN_HEX = "0x7a69"; // 31337
const ICON = `data:image/svg+xml,${encodeURIComponent("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 8 8'><rect width='8' height='8' fill='#f60'/></svg>")}`;

/** Debian's Chromium (or CHROMIUM_PATH), headless. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y --no-install-recommends chromium, or set CHROMIUM_PATH`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

export interface WalletOptions {
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
export class TestWallet {
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

export interface Opened {
  h: QuoterHarness;
  page: Page;
  errors: string[];
  close(): Promise<void>;
}

/** A fresh chain and service, and the explorer opened at `query` with `wallets` announced. */
export async function openExplorer(
  browser: Browser,
  wallets: (h: QuoterHarness) => TestWallet[],
  query: Record<string, string>,
  state: "done" | "failed" = "done",
): Promise<Opened & { wallets: TestWallet[] }> {
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
  await page.waitForSelector(`body[data-state=${state}]`);
  return { h, page, errors, wallets: made, close: async () => (await page.close(), await h.close()) };
}

/** Chooses the wallet named, connects it, and waits for the page to say so. */
export async function connect(page: Page, walletName: string) {
  await page.getByRole("button", { name: walletName, exact: true }).click();
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await page.waitForSelector("#wallet-status:has-text('Connected')");
}
