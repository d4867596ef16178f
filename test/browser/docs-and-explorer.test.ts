// The docs page and the quote explorer in a real browser (issue 7): Debian's headless Chromium driven by
// playwright-core, against the service on the embedded chain. Screenshots go to test-output/.
// Chromium is a system package (`apt-get install chromium`, done by .ci/run): without it this test fails and
// says so; it is never skipped.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { startQuoterHarness, type QuoterHarness } from "../support/quoterHarness.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const OUTPUT = new URL("../../test-output/", import.meta.url);

// As root, on a machine whose network is closed: no sandbox, no GPU, and none of Chromium's own background
// traffic. playwright-core gives every launch a new, empty profile directory of its own.
const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

let h: QuoterHarness;
let origin: string;
let browser: Browser;

before(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}. The browser tests need Debian's chromium: ` +
        "run `apt-get update && apt-get install -y --no-install-recommends chromium` (.ci/run does), " +
        "or set CHROMIUM_PATH to a Chromium binary.",
    );
  }
  mkdirSync(OUTPUT, { recursive: true });
  h = await startQuoterHarness();
  origin = await h.app.listen({ host: "127.0.0.1", port: 0 });
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
});

after(async () => {
  await browser?.close();
  await h?.close();
});

interface Opened {
  page: Page;
  /** Every URL the page asked for. */
  requested: string[];
  /** Script errors and console errors (a Content-Security-Policy violation is one). */
  errors: string[];
  /** Answers of status 400 and above, as "status path". */
  failed: string[];
}

async function openPage(path: string): Promise<Opened> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const opened: Opened = { page, requested: [], errors: [], failed: [] };
  page.on("request", (request) => opened.requested.push(request.url()));
  page.on("response", (response) => {
    if (response.status() >= 400) opened.failed.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  page.on("pageerror", (error) => opened.errors.push(error.message));
  page.on("console", (message) => {
    // A failed fetch is logged too; those are checked through `failed`.
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) opened.errors.push(message.text());
  });
  await page.goto(`${origin}${path}`, { waitUntil: "load" });
  return opened;
}

/** Nothing from a CDN or any other host: every request goes to this server (or is inline data). */
function assertOnlyThisServer(requested: string[]): void {
  const foreign = requested.filter((url) => !url.startsWith(`${origin}/`) && !/^(data|blob):/.test(url));
  assert.deepEqual(foreign, [], "requests to other hosts");
}

describe("/quoter/docs in Chromium", () => {
  test("renders the generated document from the server's own assets", { timeout: 60_000 }, async () => {
    const { page, requested, errors, failed } = await openPage("/quoter/docs");
    try {
      await page.locator(".swagger-ui .info .title").filter({ hasText: "Quoter" }).waitFor({ timeout: 20_000 });
      const get = page.locator(".opblock-get").first();
      await get.waitFor();
      assert.match(await get.innerText(), /\/quoter\/\{chainId\}\/\{marketAddress\}\/\{marketId\}/);
      // Open the operation: every documented status is listed.
      await get.locator(".opblock-summary").click();
      const codes = page.locator(".opblock-get .responses-table .response-col_status");
      await codes.first().waitFor();
      const listed = (await codes.allInnerTexts()).map((code) => code.trim().split(/\s/)[0]);
      for (const status of ["200", "400", "404", "429", "500", "503"]) assert.ok(listed.includes(status), `status ${status} in ${listed}`);
      // The parameters come prefilled with the document's examples: Execute runs a real quote on the demo chain.
      const answered = page.waitForResponse((response) => response.url().includes("/quoter/31337/"));
      await get.locator("button.execute").click();
      assert.equal((await answered).status(), 200);
      const shown = page.locator(".opblock-get .live-responses-table tr.response .response-col_status");
      await shown.first().waitFor();
      assert.match(await shown.first().innerText(), /^\s*200/);
      await page.screenshot({ path: new URL("docs.png", OUTPUT).pathname, fullPage: true });
      assert.ok(requested.some((url) => url.endsWith("/quoter/docs/json")), "the UI loads the server's document");
      assertOnlyThisServer(requested);
      assert.deepEqual(errors, []);
      assert.deepEqual(failed, []);
    } finally {
      await page.close();
    }
  });
});

describe("/quoter/explorer in Chromium", () => {
  test("is prefilled for the demo chain, runs a quote and draws every candidate", { timeout: 60_000 }, async () => {
    const { page, requested, errors, failed } = await openPage("/quoter/explorer");
    try {
      assert.equal(await page.inputValue("#chainId"), "31337");
      assert.equal(await page.inputValue("#marketAddress"), "0x5FbDB2315678afecb367f032d93F642f64180aa3");
      assert.equal(await page.inputValue("#marketId"), "2");
      assert.equal(await page.inputValue("#expectedPrice"), "1030");
      assert.equal(await page.inputValue("#collateralAvailable"), "1000000000000000000000");

      const answered = page.waitForResponse((response) => response.url().includes("/quoter/31337/"));
      await page.click("#run");
      const response = await answered;
      assert.equal(response.status(), 200);
      assert.match(response.url(), /[?&]trace=true(&|$)/, "the explorer asks for the trace");
      const body = await response.json();
      await page.waitForSelector("body[data-state=done]");

      const candidates = page.locator("#price-chart circle.candidate");
      assert.equal(await candidates.count(), body.iterations, "one point per candidate quoted");
      assert.equal(await candidates.count(), body.trace.length);
      // The chosen size is the candidate equal to maxSize, and it is marked.
      const chosen = body.trace.findIndex((entry: { size: string }) => entry.size === body.maxSize) + 1;
      assert.ok(chosen > 0);
      assert.equal(await page.locator("#price-chart circle.candidate.chosen").getAttribute("data-index"), String(chosen));
      assert.equal(await page.locator("#price-chart .chosen-ring").count(), 1);
      // Each point is coloured by its outcome, in search order.
      const outcomes = await candidates.evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-outcome")));
      assert.deepEqual(outcomes, body.trace.map((entry: { outcome: string }) => entry.outcome));
      // The bounds: expectedPrice and priceLimit lines, the budget's cap on the size, the budget line.
      for (const bound of ["expected", "limit", "cap", "chosen"]) {
        assert.equal(await page.locator(`#price-chart [data-bound=${bound}]`).count(), 1, `${bound} line`);
      }
      assert.equal(await page.locator("#collateral-chart [data-bound=budget]").count(), 1, "budget line");
      assert.equal(await page.locator("#trace-table tbody tr").count(), body.iterations);
      assert.equal(await page.textContent("#summary dd[data-field=iterations]"), String(body.iterations));
      assert.equal(await page.isVisible("#error"), false);

      await page.screenshot({ path: new URL("explorer.png", OUTPUT).pathname, fullPage: true });
      assertOnlyThisServer(requested);
      assert.deepEqual(errors, [], "no script error and no Content-Security-Policy violation");
      assert.deepEqual(failed, []);
    } finally {
      await page.close();
    }
  });

  test("shows a search failure readably, with its trace drawn", { timeout: 60_000 }, async () => {
    const { page, errors, failed } = await openPage("/quoter/explorer");
    try {
      await page.selectOption("#preset", { label: "market 4: insufficient liquidity" });
      await page.click("#run");
      await page.waitForSelector("body[data-state=failed]");
      assert.equal(await page.textContent("#error-title"), "400 Insufficient liquidity. Try a smaller size.");
      const candidates = page.locator("#price-chart circle.candidate");
      assert.equal(await candidates.count(), 10);
      assert.deepEqual(new Set(await candidates.evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-outcome")))), new Set(["reverted"]));
      assert.equal(await page.locator("#price-chart circle.candidate.chosen").count(), 0, "no size chosen");
      await page.screenshot({ path: new URL("explorer-insufficient-liquidity.png", OUTPUT).pathname, fullPage: true });
      assert.deepEqual(errors, []);
      assert.deepEqual(failed, [`400 /quoter/31337/${h.devchain.marketGroup}/4`]);
    } finally {
      await page.close();
    }
  });

  test("names each invalid parameter of a validation error", { timeout: 60_000 }, async () => {
    const { page, errors, failed } = await openPage("/quoter/explorer?maxIterations=11&collateralAvailable=0x10");
    try {
      await page.click("#run");
      await page.waitForSelector("body[data-state=failed]");
      assert.equal(await page.textContent("#error-title"), "400 Invalid query parameters");
      const details = await page.locator("#error-details li code").allInnerTexts();
      assert.deepEqual(details.sort(), ["collateralAvailable", "maxIterations"]);
      assert.equal(await page.isVisible("#charts"), false, "nothing quoted, nothing drawn");
      await page.screenshot({ path: new URL("explorer-invalid.png", OUTPUT).pathname, fullPage: true });
      assert.deepEqual(errors, []);
      assert.deepEqual(failed, [`400 /quoter/31337/${h.devchain.marketGroup}/2`]);
    } finally {
      await page.close();
    }
  });
});
