// The explorer's position tab in Chromium (playwright-core), against the service on the embedded chain: a held
// position's quote opened from a link shows the position (its size, owner, PnL if closed), what the largest trade
// does to it and the trade to sign, each number the API's own; the curl line names the position's route; a taker
// that does not own it is the API's 400, said as such. Chromium is Debian's (see docs-and-explorer.test.ts).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { DEMO_DEPLOYER, DEMO_TRADER } from "../../src/devchain/demoMarkets.ts";
import { startQuoterHarness, type QuoterHarness } from "../support/quoterHarness.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

let h: QuoterHarness;
let origin: string;
let browser: Browser;
before(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y --no-install-recommends chromium, or set CHROMIUM_PATH`);
  h = await startQuoterHarness();
  origin = await h.app.listen({ host: "127.0.0.1", port: 0 });
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
});
after(async () => {
  await browser?.close();
  await h?.close();
});

async function open(query: Record<string, string>, state: "done" | "failed") {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const link = new URLSearchParams({ kind: "held", chainId: "31337", marketAddress: h.devchain.marketGroup, ...query });
  await page.goto(`${origin}/quoter/explorer?${link}`, { waitUntil: "load" });
  await page.waitForSelector(`body[data-state=${state}]`);
  return { page, errors };
}

const field = (page: import("playwright-core").Page, name: string) => page.textContent(`#position-list dd[data-field=${name}]`);

describe("the explorer's position tab", () => {
  test("a held position from a link: its size, owner and PnL, the trade's new size and collateral, as the API answers", { timeout: 60_000 }, async () => {
    const query = { marketId: "1", expectedPrice: "0.45", collateralAvailable: "0", search: "exact", taker: DEMO_TRADER };
    const { page, errors } = await open(query, "done");
    try {
      const { marketId, ...asked } = query;
      const api = (await h.get(`/quoter/31337/${h.devchain.marketGroup}/positions/${marketId}?${new URLSearchParams({ ...asked, trace: "true" })}`)).body;
      assert.equal(await page.isVisible("#position"), true);
      assert.equal(await page.textContent("label:has(#marketId)").then((text) => text?.trim()), "Position id");
      assert.match((await field(page, "currentSize")) ?? "", new RegExp(`^${api.currentSize} .*long`));
      assert.equal(await field(page, "owner"), api.owner);
      assert.match((await field(page, "closePnL")) ?? "", new RegExp(`^${api.closePnL} wei`));
      assert.match((await field(page, "targetSize")) ?? "", new RegExp(`^${api.targetSize} \\(turned around\\)`));
      assert.match((await field(page, "collateralDelta")) ?? "", /back to the trader|^none/);
      assert.equal(await field(page, "collateralDeltaLimit"), api.collateralDeltaLimit);
      assert.match((await page.textContent("#position-trade")) ?? "", /modifyTraderPosition[\s\S]*succeeds/);
      assert.equal(await page.locator("#position-trace tbody tr").count(), api.trace.length);
      assert.match((await page.textContent("#curl-line")) ?? "", /\/positions\/1\?/);
      assert.match((await page.textContent("#verdict")) ?? "", /A SHORT of at most/);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("a taker that does not own the position: the API's 400 naming the owner", { timeout: 60_000 }, async () => {
    const { page, errors } = await open({ marketId: "1", expectedPrice: "0.55", collateralAvailable: "1000000000000000000", taker: DEMO_DEPLOYER }, "failed");
    try {
      assert.match((await page.textContent("#error")) ?? "", new RegExp(`400 Taker does not own the position[\\s\\S]*${DEMO_TRADER}`));
      assert.equal(await page.isVisible("#position"), false);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});
