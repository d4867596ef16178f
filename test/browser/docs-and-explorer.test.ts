// The docs page and the quote explorer in a real browser: Debian's headless Chromium driven by
// playwright-core, against the service on the embedded chain. Screenshots go to test-output/.
// Chromium is a system package (`apt-get install chromium`, done by .ci/run): without it this test fails and
// says so; it is never skipped.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser, type Page, type Response } from "playwright-core";
import { trade } from "../support/liveService.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { formatD18, roundSignificant } from "../../src/quote/fixedPoint.ts";
import { quoterApp, startQuoterHarness, type QuoterHarness } from "../support/quoterHarness.ts";

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

/** How the explorer shows a market's range from a PoolPriceOutOfRange revert: its ends (getMarket's) to 6 digits. */
async function rangeText(marketId: bigint): Promise<string> {
  const [{ minPriceD18, maxPriceD18 }] = await h.devchain.chain.publicClient.readContract({ address: h.devchain.marketGroup, abi: marketGroupAbi, functionName: "getMarket", args: [marketId] });
  return `about [${formatD18(roundSignificant(minPriceD18))}, ${formatD18(roundSignificant(maxPriceD18))}] (from a PoolPriceOutOfRange revert)`;
}
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
  /** The first quote the page asks for. */
  firstQuote: Promise<Response>;
}

async function openPage(path: string, viewport = { width: 1100, height: 900 }, at = origin): Promise<Opened> {
  const page = await browser.newPage({ viewport });
  const opened: Opened = { page, requested: [], errors: [], failed: [], firstQuote: undefined as never };
  // The explorer quotes as it opens: listen before the page loads so that the answer is not missed.
  opened.firstQuote = page.waitForResponse((response) => response.url().includes("/quoter/31337/"));
  opened.firstQuote.catch(() => {}); // pages without a quote (the docs) never answer it
  page.on("request", (request) => opened.requested.push(request.url()));
  page.on("response", (response) => {
    if (response.status() >= 400) opened.failed.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  page.on("pageerror", (error) => opened.errors.push(error.message));
  page.on("console", (message) => {
    // A failed fetch is logged too; those are checked through `failed`.
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) opened.errors.push(message.text());
  });
  await page.goto(`${at}${path}`, { waitUntil: "load" });
  return opened;
}

/** The explorer once it has drawn the quote it runs on opening (the prefilled demo quote). */
async function openExplorer(viewport?: { width: number; height: number }): Promise<Opened> {
  const opened = await openPage("/quoter/explorer", viewport);
  await opened.firstQuote;
  await opened.page.waitForSelector("body[data-state=done]");
  return opened;
}

/** Picks a demo preset and quotes it: the page then shows an answer ("done") or only failures ("failed"). */
async function runPreset(page: Page, label: string, state: "done" | "failed"): Promise<void> {
  await page.selectOption("#preset", { label });
  await page.click("#run");
  await page.waitForSelector(`body[data-state=${state}]`);
}

/** Nothing from a CDN or any other host: every request goes to this server (or is inline data). */
function assertOnlyThisServer(requested: string[]): void {
  const foreign = requested.filter((url) => !url.startsWith(`${origin}/`) && !/^(data|blob):/.test(url));
  assert.deepEqual(foreign, [], "requests to other hosts");
}

describe("the explorer on a phone (390 px) and a desktop (1280 px)", () => {
  for (const [width, height] of [[390, 844], [1280, 900]] as const) {
    test(`${width} px: no sideways scroll, the answer readable in a trader's words, the engineering view folded`, { timeout: 60_000 }, async () => {
      const { page, errors } = await openExplorer({ width, height });
      try {
        const noSidewaysScroll = async (what: string) => {
          const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
          assert.ok(scroll <= inner, `${what}: the page is ${scroll} px wide in a ${inner} px window`);
        };
        await noSidewaysScroll("the demo quote");
        for (const id of ["#verdict", "#summary-list", "#price-chart"]) {
          const box = (await page.locator(id).boundingBox())!;
          assert.ok(box.x >= 0 && box.x + box.width <= width, `${id} within the window: ${JSON.stringify(box)}`);
        }
        assert.match((await page.textContent("#summary-list")) ?? "", /maxSize/);
        assert.match((await page.textContent("#legend")) ?? "", /fills/, "outcomes in a trader's words");
        assert.doesNotMatch((await page.textContent("#legend")) ?? "", /feasible|candidate/);
        assert.equal(await page.locator("#engineering").getAttribute("open"), null, "the engineering view starts folded");
        assert.equal(await page.isVisible("#trace-table"), false);
        await page.click("#engineering > summary");
        assert.equal(await page.isVisible("#trace-table"), true, "and opens on a click");
        await noSidewaysScroll("the engineering view open (its table scrolls in its own box)");
        await runPreset(page, "market 4: insufficient liquidity", "failed");
        await noSidewaysScroll("a search that found no size");
        await page.screenshot({ path: new URL(`explorer-${width}.png`, OUTPUT).pathname, fullPage: true });
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });
  }
});

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
      // The quote operation alone on its path: the methods that only answer 405 are described, not listed; the one
      // POST is the batch's, on its own path.
      assert.equal(await page.locator(".opblock-put, .opblock-delete, .opblock-patch, .opblock-options").count(), 0);
      const posts = await page.locator(".opblock-post .opblock-summary-path").allInnerTexts();
      assert.deepEqual(posts.map((path) => path.replace(/\u200b/g, "").trim()), ["/quoter/{chainId}/batch"]);
      assert.equal(await page.getByText("Not served").count(), 0);
      assert.match(await get.locator(".opblock-description-wrapper").innerText(), /answers 405 Method not allowed/);
      // The parameters come prefilled with the document's examples: Execute runs a real quote on the demo chain.
      const answered = page.waitForResponse((response) => response.url().includes("/quoter/31337/"));
      await get.locator("button.execute").click();
      assert.equal((await answered).status(), 200);
      const shown = page.locator(".opblock-get .live-responses-table tr.response .response-col_status");
      await shown.first().waitFor();
      assert.match(await shown.first().innerText(), /^\s*200/);
      await page.screenshot({ path: new URL("docs.png", OUTPUT).pathname, fullPage: true });
      assert.ok(requested.some((url) => url.endsWith("/quoter/docs/json")), "the UI loads the server's document");
      assert.equal(await page.locator(".topbar").count(), 0, "no top bar showing the page's own copy of the document");
      assert.equal(await page.locator(".info a[href='/quoter/openapi.json']").count(), 1, "the description links the document");
      assertOnlyThisServer(requested);
      assert.deepEqual(errors, []);
      assert.deepEqual(failed, []);
    } finally {
      await page.close();
    }
  });
});

/** No two candidate numbers of a chart cover each other. */
async function assertLabelsApart(page: Page, chart: string): Promise<number> {
  const boxes = await page.locator(`${chart} text.order`).evaluateAll((nodes) =>
    nodes.map((node) => {
      const box = (node as SVGGraphicsElement).getBBox();
      return { x: box.x, y: box.y, w: box.width, h: box.height, text: node.textContent };
    }),
  );
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i]!, boxes[j]!];
      const apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
      assert.ok(apart, `${chart}: labels ${a.text} and ${b.text} overlap`);
    }
  }
  return boxes.length;
}

describe("/quoter/explorer in Chromium", () => {
  test("on open, runs the prefilled demo quote, states its verdict, shows the market and the curl line, draws every candidate", { timeout: 60_000 }, async () => {
    const { page, requested, errors, failed, firstQuote } = await openPage("/quoter/explorer");
    try {
      const response = await firstQuote;
      assert.equal(response.status(), 200);
      assert.match(response.url(), /[?&]trace=true(&|$)/, "the explorer asks for the trace");
      assert.match(response.url(), /[?&]search=bisection(&|$)/, "the interface's search unless told otherwise");
      const body = await response.json();
      await page.waitForSelector("body[data-state=done]");
      assert.equal(await page.inputValue("#marketId"), "2");
      assert.equal(await page.inputValue("#expectedPrice"), "1030");

      // One sentence: which limit decided, worded from the answer's limitedBy alone.
      assert.equal(await page.getAttribute("#verdict", "data-decided"), "expectedPrice");
      assert.equal(
        await page.textContent("#verdict"),
        `A LONG of at most ${body.maxSize} wei (0.0458984375 × 10^18) fits: expectedPrice 1030 decided, since a larger size would move the price past it.`,
      );
      // Beside the answer, why it is not larger, in a trader's words (the answer's limitedBy).
      assert.equal(body.limitedBy, "expectedPrice");
      assert.equal(await page.textContent("#summary dd[data-field=limitedBy]"), "the price would pass 1030");
      // The market's facts, from the answer.
      assert.equal(await page.textContent("#market dd[data-field=currentPrice]"), body.currentPrice);
      assert.equal(await page.textContent("#market dd[data-field=settled]"), "no");
      assert.equal(await page.textContent("#market dd[data-field=collateralDecimals]"), `18 (maxCollateral ${body.maxCollateral} in token units)`);
      // The request as a curl line, which answers what the page drew.
      const curl = await page.textContent("#curl-line");
      assert.equal(curl, `curl '${response.url()}'`);
      const again = await fetch(/^curl '(.*)'$/.exec(curl ?? "")![1]!);
      assert.deepEqual(await again.json(), body);

      const candidates = page.locator("#price-chart circle.candidate");
      assert.equal(await candidates.count(), body.iterations, "one point per candidate quoted");
      const chosen = body.trace.findIndex((entry: { size: string }) => entry.size === body.maxSize) + 1;
      assert.ok(chosen > 0);
      assert.equal(await page.locator("#price-chart circle.candidate.chosen").getAttribute("data-index"), String(chosen));
      const outcomes = await candidates.evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-outcome")));
      assert.deepEqual(outcomes, body.trace.map((entry: { outcome: string }) => entry.outcome));
      for (const bound of ["expected", "limit", "cap", "chosen"]) {
        assert.equal(await page.locator(`#price-chart [data-bound=${bound}]`).count(), 1, `${bound} line`);
      }
      assert.equal(await page.locator("#collateral-chart [data-bound=budget]").count(), 1, "budget line");
      assert.equal(await page.locator("#trace-table tbody tr").count(), body.iterations);
      // Beside the answer, the depth curve: the ladder of 10 levels from the current price to expectedPrice, in one
      // request, with the answer's own size marked.
      await page.waitForSelector("#depth:not([hidden])");
      assert.equal(await page.locator("#depth-chart circle.candidate").count(), 10);
      assert.equal(await page.locator("#depth-chart [data-bound=chosen]").count(), 1);
      assert.ok(((await page.textContent("#depth-note")) ?? "").includes(`from the current price ${body.currentPrice} to 1030, all at block `));
      assert.equal(requested.filter((url) => /\/2\/depth\?collateralAvailable=\d+&to=1030&levels=10&minBlock=\d+$/.test(url)).length, 1);
      // Candidates crowd near the origin and at the end of the search: their numbers must stay legible.
      for (const chart of ["#price-chart", "#zoom-chart", "#collateral-chart"]) assert.ok((await assertLabelsApart(page, chart)) > 0, chart);
      const numbered = (await page.locator("#price-chart text.order").evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-members"))))
        .flatMap((members) => (members ?? "").split(","));
      assert.ok(numbered.includes("1"), "the first candidate is numbered");
      assert.equal(await page.isVisible("#error"), false);

      await page.screenshot({ path: new URL("explorer.png", OUTPUT).pathname, fullPage: true });
      // A smaller one, from the curl line to the first chart's legend: the README shows it (docs/explorer.png).
      const top = (await page.locator("#request").boundingBox())!;
      const legend = (await page.locator("#legend").boundingBox())!;
      await page.screenshot({
        path: new URL("explorer-readme.png", OUTPUT).pathname,
        fullPage: true,
        clip: { x: 0, y: top.y - 8, width: 1100, height: legend.y + legend.height - top.y + 16 },
      });
      assertOnlyThisServer(requested);
      // Through the client package: its modules and the SSE parser it imports, named by the page's import map (an
      // inline script its Content-Security-Policy allows by hash), and the quote asked by the client's fetch.
      for (const module of ["client/index.js", "client/client.js", "client/http.js", "client/watch.js", "vendor/eventsource-parser.js"]) {
        assert.ok(requested.includes(`${origin}/quoter/explorer/${module}`), `the page loaded ${module}`);
      }
      assert.equal(response.request().resourceType(), "fetch");
      assert.equal(response.request().headers()["accept"], "application/json", "the client's Accept");
      assert.equal(await page.evaluate(async () => typeof (await import("@quoter/client")).createQuoterClient), "function");
      assert.deepEqual(errors, [], "no script error and no Content-Security-Policy violation");
      assert.deepEqual(failed, []);
    } finally {
      await page.close();
    }
  });

  test("why the answer is not larger, in a trader's words, for each limitedBy the service gives", { timeout: 60_000 }, async () => {
    const cases: [string, string, string, string][] = [
      ["marketId=1&expectedPrice=0.55&collateralAvailable=1000000000000000000000&search=exact", "collateral", "budget", "more collateral would buy more"],
      ["marketId=4&expectedPrice=0.7&collateralAvailable=1000000000000000", "liquidity", "liquidity", "the market cannot fill more"],
      // The bisection stopped by maxIterations with every step going up: the budget sets the range's top.
      ["marketId=1&expectedPrice=0.55&collateralAvailable=1000000000000000000000&maxIterations=3", "collateral", "budget", "more collateral would buy more"],
      ["marketId=2&expectedPrice=970&collateralAvailable=1000000000000000000000&search=exact", "expectedPrice", "expectedPrice", "the price would pass 970"],
    ];
    for (const [query, limitedBy, decided, words] of cases) {
      const { page, errors, failed, firstQuote } = await openPage(`/quoter/explorer?${query}`);
      try {
        const body = await (await firstQuote).json();
        await page.waitForSelector("body[data-state=done]");
        assert.equal(body.limitedBy, limitedBy, query);
        assert.equal(await page.textContent("#summary dd[data-field=limitedBy]"), words, query);
        assert.equal(await page.getAttribute("#verdict", "data-decided"), decided, query);
        assert.deepEqual(errors, []);
        assert.deepEqual(failed, []);
      } finally {
        await page.close();
      }
    }
  });

  test("an exact answer left unproven (the service's candidate bound reached): limitedBy search, and the verdict says the search ended", { timeout: 60_000 }, async () => {
    // A service that gives the exact search two candidates: too few to prove a budget-bound answer.
    const bounded = await quoterApp({ rpc: h.devchain.endpoint.url, exactMaxCandidates: 2 });
    const at = await bounded.listen({ host: "127.0.0.1", port: 0 });
    const { page, errors, failed, firstQuote } = await openPage("/quoter/explorer?marketId=1&expectedPrice=0.45&collateralAvailable=1000000000000000000000&search=exact", undefined, at);
    try {
      const body = await (await firstQuote).json();
      await page.waitForSelector("body[data-state=done]");
      assert.equal(body.exact, false);
      assert.equal(body.limitedBy, "search");
      assert.equal(await page.textContent("#summary dd[data-field=limitedBy]"), "the exact search ran out of candidates before it proved the largest size");
      assert.equal(await page.getAttribute("#verdict", "data-decided"), "search");
      // upperBound, where the search found one, says where the largest size lies (sizes as magnitudes: a SHORT).
      const magnitude = (signed: string) => (BigInt(signed) < 0n ? -BigInt(signed) : BigInt(signed));
      const wei = (signed: string) => `${magnitude(signed)} wei (${formatD18(magnitude(signed))} × 10^18)`;
      const below = body.upperBound === undefined ? "" : `; the largest lies below ${wei(body.upperBound)}`;
      assert.equal(
        await page.textContent("#verdict"),
        `A SHORT of at most ${wei(body.maxSize)} fits: the search decided, since it ran out of candidates before it proved the largest size${below}.`,
      );
      assert.deepEqual(errors, []);
      assert.deepEqual(failed, []);
    } finally {
      await page.close();
      await bounded.close();
    }
  });

  test("the budget hint is exact: wei in 10^18 units, and a decimal typed as tokens converted to wei", { timeout: 60_000 }, async () => {
    const { page } = await openExplorer();
    try {
      assert.equal(await page.textContent("#budget-units"), "= 1000 × 10^18 wei (1000 tokens in 18-decimal units)");
      await page.fill("#collateralAvailable", "1.5");
      assert.equal(await page.textContent("#budget-units"), "collateralAvailable is a whole number of wei: 1.5 tokens is 1500000000000000000 wei");
      await page.fill("#collateralAvailable", "123456789012345678901234567890");
      assert.equal(await page.textContent("#budget-units"), "= 123456789012.34567890123456789 × 10^18 wei (123456789012.34567890123456789 tokens in 18-decimal units)");
    } finally {
      await page.close();
    }
  });

  test("a search failure: the verdict names the bound, the market's range shows, the trace is drawn", { timeout: 60_000 }, async () => {
    const { page, errors, failed } = await openExplorer();
    try {
      await runPreset(page, "market 4: insufficient liquidity", "failed");
      assert.equal(await page.textContent("#error-title"), "400 Insufficient liquidity. Try a smaller size.");
      assert.equal(await page.getAttribute("#verdict", "data-decided"), "liquidity");
      assert.match((await page.textContent("#verdict")) ?? "", /^No size fits: every size tried reverted, down to 1953125000000000 wei .*a budget of at most 976562500000000 wei/);
      assert.equal(await page.textContent("#market dd[data-field=range]"), await rangeText(4n));
      const candidates = page.locator("#price-chart circle.candidate");
      assert.equal(await candidates.count(), 10);
      assert.deepEqual(new Set(await candidates.evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-outcome")))), new Set(["reverted"]));
      assert.equal(await page.locator("#price-chart circle.candidate.chosen").count(), 0, "no size chosen");
      await assertLabelsApart(page, "#price-chart");
      await page.screenshot({ path: new URL("explorer-insufficient-liquidity.png", OUTPUT).pathname, fullPage: true });

      // The budget the verdict names finds a size.
      await runPreset(page, "market 4: a budget small enough for its liquidity", "done");
      assert.match((await page.textContent("#verdict")) ?? "", /^A LONG of at most \d+ wei/);
      assert.deepEqual(errors, []);
      assert.deepEqual(failed, [`400 /quoter/31337/${h.devchain.marketGroup}/4`]);
    } finally {
      await page.close();
    }
  });

  test("a validation error, opened from a link: each invalid parameter named, nothing drawn", { timeout: 60_000 }, async () => {
    const { page, errors, failed, firstQuote } = await openPage("/quoter/explorer?maxIterations=11&collateralAvailable=0x10");
    try {
      assert.equal((await firstQuote).status(), 400);
      await page.waitForSelector("body[data-state=failed]");
      assert.equal(await page.textContent("#error-title"), "400 Invalid query parameters");
      const details = await page.locator("#error-details li code").allInnerTexts();
      assert.deepEqual(details.sort(), ["collateralAvailable", "maxIterations"]);
      assert.equal(await page.getAttribute("#verdict", "data-decided"), "request");
      assert.match((await page.textContent("#verdict")) ?? "", /^Not quoted \(400 Invalid query parameters\): /);
      assert.equal(await page.isVisible("#charts"), false, "nothing quoted, nothing drawn");
      await page.screenshot({ path: new URL("explorer-invalid.png", OUTPUT).pathname, fullPage: true });
      assert.deepEqual(errors, []);
      assert.deepEqual(failed, [`400 /quoter/31337/${h.devchain.marketGroup}/2`]);
    } finally {
      await page.close();
    }
  });

  /** The demo quote of market `marketId`, fetched by the test itself (not through the page). */
  async function quote(marketId: number, query: Record<string, string>): Promise<{ status: number; body: any }> {
    const response = await fetch(`${origin}${h.quotePath(marketId, { ...query, trace: "true" })}`);
    return { status: response.status, body: await response.json() };
  }

  /** The next quote the page asks for with this search. */
  function nextQuote(page: Page, search: string): Promise<Response> {
    return page.waitForResponse((response) => response.url().includes("/quoter/31337/") && new URL(response.url()).searchParams.get("search") === search);
  }

  test("a taker on the demo: the trade panel shows the approval, then the transaction read from its data, the balance and the simulation's verdict in words", { timeout: 60_000 }, async () => {
    const taker = h.devchain.chain.traderClient.account.address;
    const { page, errors, failed, firstQuote } = await openPage(`/quoter/explorer?marketId=2&expectedPrice=1030&collateralAvailable=1000000000000000000000&taker=${taker}&deadlineSeconds=600`);
    try {
      const answered = await firstQuote;
      assert.equal(new URL(answered.url()).searchParams.get("taker"), taker, "the taker field is sent");
      await page.waitForSelector("body[data-state=done]");
      const { trade } = (await answered.json()) as { trade: any; maxSize: string };
      const body = (await answered.json()) as { maxSize: string };
      assert.equal(await page.isVisible("#trade"), true);
      const field = (name: string) => page.textContent(`#trade dd[data-field="${name}"]`);
      // The demo's taker has no allowance to the group at block 6: the approval comes first.
      assert.equal(await page.textContent("#trade-approval-title"), "1. Approve first");
      assert.equal(await field("approval.to"), trade.approval.token);
      assert.equal(await field("approval.call"), `approve(${h.devchain.marketGroup.toLowerCase()}, ${trade.collateralLimit})`);
      assert.equal(await page.textContent("#trade-transaction-title"), "2. Then the transaction");
      assert.equal(await field("transaction.to"), h.devchain.marketGroup);
      assert.equal(await field("transaction.marketId"), "2");
      assert.match((await field("transaction.size")) ?? "", new RegExp(`^${body.maxSize} \\(LONG `));
      assert.match((await field("transaction.maxCollateral")) ?? "", new RegExp(`^${trade.collateralLimit} `));
      assert.match((await field("transaction.deadline")) ?? "", new RegExp(`^${trade.deadline} \\(20\\d\\d-`));
      assert.equal(await field("transaction.data"), trade.transaction.data);
      assert.equal(await field("balance.needed"), trade.collateralLimit);
      const verdict = (await page.textContent("#trade-verdict")) ?? "";
      assert.deepEqual(trade.simulation.ok, true, "the trader holds collateral: it succeeds once approved");
      assert.equal(verdict, `The transaction succeeds after the approval, using ${trade.simulation.gas} gas (simulated at this block).`);
      await page.screenshot({ path: new URL("explorer-trade.png", OUTPUT).pathname, fullPage: true });
      // Without a taker the panel is gone.
      await page.fill("#taker", "");
      await page.click("#run");
      await page.waitForFunction(() => document.querySelector("#trade")?.hasAttribute("hidden") && document.body.dataset.state === "done");
      assert.deepEqual(errors, []);
      assert.deepEqual(failed, []);
    } finally {
      await page.close();
    }
  });

  test("the search switch: exact is sent as search=exact, kept in the page's URL, and its proven answer shown", { timeout: 60_000 }, async () => {
    const { page, errors, failed } = await openExplorer();
    try {
      assert.equal(await page.isChecked("#search-bisection"), true, "the interface's bisection is the default");
      assert.equal(await page.isChecked("#search-exact"), false);
      const bisection = await quote(2, { expectedPrice: "1030", collateralAvailable: "1000000000000000000000" });
      const exact = await quote(2, { expectedPrice: "1030", collateralAvailable: "1000000000000000000000", search: "exact" });
      assert.equal(exact.status, 200);
      assert.equal(exact.body.exact, true);
      assert.ok(BigInt(exact.body.maxSize) > BigInt(bisection.body.maxSize), "on this quote the two searches answer apart");
      assert.match(await page.textContent("#summary dd[data-field=maxSize]") ?? "", new RegExp(`^${bisection.body.maxSize} `));

      await page.check("#search-exact");
      const answered = nextQuote(page, "exact");
      await page.click("#run");
      const response = await answered;
      assert.equal(response.status(), 200);
      assert.match(response.url(), /[?&]trace=true(&|$)/);
      await page.waitForSelector("body[data-state=done]");
      const body = await response.json();
      assert.equal(body.maxSize, exact.body.maxSize, "the page's answer is the exact search's");
      assert.equal(await page.textContent("#curl-line"), `curl '${response.url()}'`);
      assert.equal(await page.textContent("#summary dd[data-field=maxSize]"), `${exact.body.maxSize} (0.046392895919600201 × 10^18)`);
      assert.equal(await page.textContent("#summary dd[data-field=search]"), "exact");
      assert.equal(await page.textContent("#summary dd[data-field=exact]"), "true: proven, maxSize fits and one wei more does not");
      assert.equal(await page.textContent("#summary dd[data-field=limitedBy]"), "the price would pass 1030");
      assert.match((await page.textContent("#verdict")) ?? "", new RegExp(`^A LONG of at most ${exact.body.maxSize} wei .*expectedPrice 1030 decided, since a larger size would move the price past it\\.$`));
      assert.equal(await page.locator("#price-chart circle.candidate").count(), exact.body.iterations);
      const chosen = exact.body.trace.findIndex((entry: { size: string }) => entry.size === exact.body.maxSize) + 1;
      assert.equal(await page.locator("#price-chart circle.candidate.chosen").getAttribute("data-index"), String(chosen));
      assert.equal(await page.isVisible("#comparison"), false, "one search, no comparison");
      assert.equal(new URL(page.url()).searchParams.get("search"), "exact");

      // The link reproduces it: opened afresh, the page quotes with the exact search at once.
      const linked = await openPage(new URL(page.url()).pathname + new URL(page.url()).search);
      try {
        const again = await linked.firstQuote;
        assert.equal(new URL(again.url()).searchParams.get("search"), "exact");
        assert.equal(await linked.page.isChecked("#search-exact"), true);
        assert.equal((await again.json()).maxSize, exact.body.maxSize);
      } finally {
        await linked.page.close();
      }
      await page.screenshot({ path: new URL("explorer-exact.png", OUTPUT).pathname, fullPage: true });
      assert.deepEqual(errors, []);
      assert.deepEqual(failed, []);
    } finally {
      await page.close();
    }
  });

  test("compare both: the same quote with each search, both traces and both maxSizes on one chart, and a line whose numbers are the two answers", { timeout: 60_000 }, async () => {
    const { page, requested, errors, failed } = await openExplorer();
    try {
      await page.check("#compare");
      assert.equal(await page.isDisabled("#search-exact"), true, "comparing, the choice of one search has no effect");
      const answers = Promise.all([nextQuote(page, "bisection"), nextQuote(page, "exact")]);
      await page.click("#run");
      const [bisectionResponse, exactResponse] = await answers;
      await page.waitForSelector("body[data-state=done]");
      for (const response of [bisectionResponse, exactResponse]) {
        assert.equal(response.status(), 200);
        assert.match(response.url(), /[?&]trace=true(&|$)/);
      }
      // The same request but for the search.
      const without = (url: string) => url.replace(/([?&])search=\w+/, "$1");
      assert.equal(without(bisectionResponse.url()), without(exactResponse.url()));
      assert.equal(await page.textContent("#curl-line"), `curl '${bisectionResponse.url()}'\ncurl '${exactResponse.url()}'`);

      // The line, against the two answers as the test fetches them itself.
      const trade = { expectedPrice: "1030", collateralAvailable: "1000000000000000000000" };
      const bisection = (await quote(2, { ...trade, search: "bisection" })).body;
      const exact = (await quote(2, { ...trade, search: "exact" })).body;
      const line = (await page.textContent("#comparison")) ?? "";
      const parsed = /^exact: (\d+) wei; bisection: (\d+) wei \((\d+)\.(\d\d)% of exact: it leaves (\d+) wei of size on the table\)\.$/.exec(line);
      assert.ok(parsed, line);
      const [, shownExact, shownBisection, whole, hundredths, leftOver] = parsed;
      assert.equal(shownExact, exact.maxSize);
      assert.equal(shownBisection, bisection.maxSize);
      const [e, b] = [BigInt(exact.maxSize), BigInt(bisection.maxSize)];
      assert.ok(b < e, "the bisection answers below the exact maximum here");
      assert.equal(BigInt(leftOver!), e - b);
      // The percentage is b/e rounded down to hundredths: shown <= 10000·b/e < shown + 1.
      const shown = BigInt(whole!) * 100n + BigInt(hundredths!);
      assert.ok(shown * e <= b * 10000n && b * 10000n < (shown + 1n) * e, `${whole}.${hundredths}% is not ${b}/${e}`);
      assert.equal(await page.getAttribute("#comparison", "data-outcome"), "both");

      // Both traces on the price chart: circles for the bisection, diamonds for the exact search, each maxSize marked.
      for (const [search, body, shape] of [["bisection", bisection, "circle"], ["exact", exact, "path"]] as const) {
        const points = page.locator(`#price-chart .candidate[data-search=${search}]`);
        assert.equal(await points.count(), body.iterations, `${search}: one point per candidate`);
        assert.deepEqual(new Set(await points.evaluateAll((nodes) => nodes.map((n) => n.tagName))), new Set([shape]));
        assert.deepEqual(await points.evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-outcome"))), body.trace.map((entry: { outcome: string }) => entry.outcome));
        const chosen = body.trace.findIndex((entry: { size: string }) => entry.size === body.maxSize) + 1;
        assert.equal(await page.locator(`#price-chart .candidate.chosen[data-search=${search}]`).getAttribute("data-index"), String(chosen));
        assert.equal(await page.locator(`#legend li[data-search=${search}]`).count(), 2, `${search} in the legend`);
        assert.match(await page.textContent(`#compare-table td[data-search=${search}][data-field=maxSize]`) ?? "", new RegExp(`^${body.maxSize} `));
      }
      assert.equal(await page.locator("#price-chart [data-bound=chosen][data-search=bisection]").count(), 1);
      assert.equal(await page.locator("#price-chart [data-bound=chosen-exact][data-search=exact]").count(), 1);
      // In the zoom the two answers stand apart, the exact one to the right of the bisection's.
      const x = async (selector: string) => Number(await page.locator(selector).getAttribute("x1"));
      assert.ok((await x("#zoom-chart [data-bound=chosen-exact]")) > (await x("#zoom-chart [data-bound=chosen]")), "the exact maxSize right of the bisection's");
      assert.equal(await page.locator("#trace-table tbody tr").count(), bisection.iterations + exact.iterations);
      for (const chart of ["#price-chart", "#zoom-chart", "#collateral-chart"]) await assertLabelsApart(page, chart);
      assert.equal(await page.locator("#verdict .line").count(), 2);
      for (const search of ["bisection", "exact"]) {
        assert.equal(await page.textContent(`#compare-table td[data-search=${search}][data-field=limitedBy]`), "the price would pass 1030", search);
      }

      // The link keeps the comparison.
      const params = new URL(page.url()).searchParams;
      assert.equal(params.get("compare"), "true");
      await page.screenshot({ path: new URL("explorer-compare.png", OUTPUT).pathname, fullPage: true });
      const linked = await openPage(`/quoter/explorer?${params}`);
      try {
        await linked.page.waitForSelector("body[data-state=done]");
        assert.equal(await linked.page.isChecked("#compare"), true);
        assert.equal(await linked.page.textContent("#comparison"), line);
      } finally {
        await linked.page.close();
      }
      assertOnlyThisServer(requested);
      assert.deepEqual(errors, []);
      assert.deepEqual(failed, []);
    } finally {
      await page.close();
    }
  });

  test("compare both when the bisection answers 400 Insufficient liquidity and the exact search finds a size: says so plainly", { timeout: 60_000 }, async () => {
    const { page, errors, failed } = await openExplorer();
    try {
      await page.check("#compare");
      await runPreset(page, "market 4: insufficient liquidity", "done");
      const trade = { expectedPrice: "0.59", collateralAvailable: "1000000000000000000" };
      const bisection = await quote(4, { ...trade, search: "bisection" });
      const exact = await quote(4, { ...trade, search: "exact" });
      assert.equal(bisection.status, 400);
      assert.equal(bisection.body.error, "Insufficient liquidity. Try a smaller size.");
      assert.equal(exact.status, 200);
      assert.equal(exact.body.exact, true);
      assert.equal(
        await page.textContent("#comparison"),
        `exact: ${exact.body.maxSize} wei; bisection: no size (400 Insufficient liquidity. Try a smaller size.), ` +
          `although the exact search proves that ${exact.body.maxSize} wei fits.`,
      );
      assert.equal(await page.getAttribute("#comparison", "data-outcome"), "bisection-failed");
      assert.equal(await page.textContent("#error-title"), "bisection: 400 Insufficient liquidity. Try a smaller size.");
      assert.equal(await page.textContent("#compare-table td[data-search=bisection][data-field=status]"), "400 Insufficient liquidity. Try a smaller size.");
      assert.match(await page.textContent("#compare-table td[data-search=exact][data-field=maxSize]") ?? "", new RegExp(`^${exact.body.maxSize} `));
      // The bisection's ten reverted candidates and the exact search's, with its answer alone marked.
      assert.equal(await page.locator("#price-chart .candidate[data-search=bisection][data-outcome=reverted]").count(), 10);
      assert.equal(await page.locator("#price-chart .candidate[data-search=exact]").count(), exact.body.iterations);
      assert.equal(await page.locator("#price-chart .candidate.chosen").count(), 1);
      assert.equal(await page.locator("#price-chart .candidate.chosen").getAttribute("data-search"), "exact");
      assert.equal(await page.locator("#price-chart [data-bound=chosen]").count(), 0, "no bisection maxSize");
      assert.equal(await page.locator("#price-chart [data-bound=chosen-exact]").count(), 1);
      assert.equal(await page.textContent("#market dd[data-field=range]"), await rangeText(4n));
      await page.screenshot({ path: new URL("explorer-compare-bisection-400.png", OUTPUT).pathname, fullPage: true });
      assert.deepEqual(errors, []);
      assert.deepEqual(failed, [`400 /quoter/31337/${h.devchain.marketGroup}/4`]);
    } finally {
      await page.close();
    }
  });

  test("Live: the client's watch on the quote's stream redraws the answer, with its block, when a trade moves the market", { timeout: 60_000 }, async () => {
    const { page, errors, failed } = await openExplorer();
    try {
      await page.selectOption("#preset", { label: "market 2: LONG bound by expectedPrice" });
      await page.check("#live");
      assert.equal(await page.isDisabled("#compare"), true, "live streams one search");
      const streamed = page.waitForRequest((request) => request.headers()["accept"] === "text/event-stream");
      await page.click("#run");
      // The stream is the client's fetch (read by eventsource-parser), not an EventSource.
      assert.equal((await streamed).resourceType(), "fetch");
      assert.match((await streamed).url(), /\/quoter\/31337\/0x[0-9a-fA-F]{40}\/2\?expectedPrice=1030&/);
      await page.waitForFunction(() => /^live · block \d+ · 200 · event 1$/.test(document.querySelector("#status")?.textContent ?? ""));
      const before = JSON.parse((await page.textContent("#raw-body")) ?? "{}") as { blockNumber: string; maxSize: string };
      assert.match((await page.textContent("#curl-line")) ?? "", /^curl -N -H 'Accept: text\/event-stream' '/);
      assert.equal(new URL(page.url()).searchParams.get("live"), "true");

      const traded = await trade(h.devchain);
      await page.waitForFunction(() => / · event 2$/.test(document.querySelector("#status")?.textContent ?? ""), undefined, { timeout: 15_000 });
      const after = JSON.parse((await page.textContent("#raw-body")) ?? "{}") as { blockNumber: string; maxSize: string };
      assert.ok(BigInt(after.blockNumber) >= traded.blockNumber);
      assert.match((await page.textContent("#status")) ?? "", new RegExp(`^live · block ${after.blockNumber} · 200`));
      assert.notEqual(after.maxSize, before.maxSize, "the trade moved the answer");
      assert.equal(await page.locator("#price-chart").count(), 1, "the search drawn again");

      await page.uncheck("#live");
      assert.deepEqual(errors, []);
      assert.deepEqual(failed, []);
      await page.screenshot({ path: new URL("explorer-live.png", OUTPUT).pathname, fullPage: true });
    } finally {
      await page.close();
    }
  });
});

// CORS as a browser enforces it: the page's origin is another port. A batch's JSON body and noCache's
// Cache-Control each need a preflight that allows the header (POST itself is a CORS-safelisted method).
describe("the client package in a frontend on another origin, in Chromium", () => {
  /** A frontend's page: an import map naming the client's modules as this service serves them, then the client. */
  const frontendPage = (service: string) => `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>frontend</title>
<script type="importmap">{ "imports": { "@quoter/client": "${service}/quoter/explorer/client/index.js", "eventsource-parser": "${service}/quoter/explorer/vendor/eventsource-parser.js" } }</script>
<script type="module">import * as client from "@quoter/client"; window.quoterClient = client; document.body.dataset.ready = "yes";</script>
</head><body></body></html>`;

  /** A quote's raw answer: a plain GET from the test. */
  async function rawQuote({ marketAddress, marketId, ...query }: Record<string, string>): Promise<any> {
    return (await fetch(`${origin}/quoter/31337/${marketAddress}/${marketId}?${new URLSearchParams(query)}`)).json();
  }

  test("a batch (a JSON POST), a no-cache quote (Cache-Control) and a batch's stream pass CORS and answer as the service does", { timeout: 60_000 }, async () => {
    const frontend = createServer((_request, response) => response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(frontendPage(origin)));
    await new Promise<void>((resolve) => frontend.listen(0, "127.0.0.1", resolve));
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    try {
      const frontendOrigin = `http://127.0.0.1:${(frontend.address() as AddressInfo).port}`;
      assert.notEqual(frontendOrigin, origin);
      await page.goto(frontendOrigin);
      await page.waitForSelector("body[data-ready=yes]", { state: "attached" });
      const quote = { marketAddress: h.devchain.marketGroup, marketId: "2", expectedPrice: "1030", collateralAvailable: "1000000000000000000000" };
      const seen = await page.evaluate(async ({ service, quote }) => {
        const { createQuoterClient } = (window as any).quoterClient;
        const quoter = createQuoterClient({ baseUrl: service });
        const batch = await quoter.batch({ chainId: "31337", quotes: [quote] });
        const fresh = await quoter.quote({ chainId: "31337", ...quote }, { noCache: true });
        const stream = quoter.watch({ chainId: "31337", quotes: [quote] });
        const streamed = (await stream.next()).value;
        await stream.return();
        const refused = await quoter.quote({ chainId: "31337", ...quote, collateralAvailable: "1.5" }).catch((error: any) => ({ name: error.name, status: error.status, details: error.details }));
        return { batch, fresh, streamed, refused };
      }, { service: origin, quote });
      const expectedBatch = await (await fetch(`${origin}/quoter/31337/batch`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ quotes: [quote] }) })).json();
      assert.deepEqual(seen.batch, expectedBatch);
      assert.deepEqual(seen.fresh, await rawQuote(quote));
      assert.deepEqual([seen.streamed.type, seen.streamed.answer], ["quote", expectedBatch]);
      assert.equal(seen.refused.name, "QuoterError");
      assert.equal(seen.refused.status, 400);
      assert.deepEqual(seen.refused.details, (await rawQuote({ ...quote, collateralAvailable: "1.5" })).details);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
      frontend.close();
    }
  });
});
