// The quote explorer: plain browser JavaScript; it calls the API through the client package (api.js). On open it
// runs the prefilled quote with trace=true, says in one sentence which limit decided, shows the market's facts, the
// request as a curl line, and draws the search as SVG. Every number the API sends (prices, sizes, collateral) stays
// exact: it is read into a BigInt (prices in 10^-18 units) and shown with string arithmetic; even the pixel
// positions are computed in BigInt and only the final, small coordinate becomes a Number. It quotes with either
// search, or with both at once to draw what the bisection leaves below the exact maximum, or live: redrawn on each
// event of the quote's stream. This module runs the quotes and hands their answers to the modules that show them;
// the form and the page's URL (form.js), the curl line (curl.js), the Live switch (live.js), the position tab
// (position.js, a held position's quote) and the liquidity tab (liquidity.js) are their own.
import { showComparison, showErrors, showMarket, showSummary, showVerdict } from "./answers.js";
import { outcome, quoter } from "./api.js";
import { copyCurl, curlLine } from "./curl.js";
import { showDepth } from "./depth.js";
import { $ } from "./dom.js";
import { buildForm, pageQuery, quoteRequest, readForm } from "./form.js";
import { followLiveSwitch, startLive, stopLive } from "./live.js";
import { runLiquidity } from "./liquidity.js";
import { runHeld } from "./position.js";
import { drawSearch } from "./search.js";
import { initSigning, offerSigning } from "./sign.js";
import { showTrade } from "./trade.js";
import { discoverWallets, onWalletChange, wallet } from "./wallet.js";

async function run(event) {
  if (event) event.preventDefault();
  stopLive();
  const values = readForm();
  // Comparing sends the same request with each search, at once.
  const requests = (values.compare ? ["bisection", "exact"] : [values.search]).map((search) => {
    const { quote, options } = quoteRequest(values, search);
    return { search, quote, options, url: quoter.quoteUrl(quote, options) };
  });
  const button = $("run");
  for (const id of ["error", "summary", "charts", "raw", "comparison", "verdict", "market", "depth", "trade", "position", "liquidity"]) $(id).hidden = true;
  for (const id of ["trade", "position", "liquidity"]) offerSigning(id, undefined);
  $("request").hidden = false;
  $("curl-line").textContent = requests.map(({ url }) => curlLine(url, values.live)).join("\n");
  $("status").textContent = "…";
  $("status").className = "status";
  document.body.dataset.state = "loading";
  window.history.replaceState(null, "", `?${pageQuery(values)}`);
  if (values.held) return runHeld(values).catch(showPageError);
  if (values.liquidity) return runLiquidity(values).catch(showPageError);
  if (values.live) return runLive(values, requests[0]);

  button.disabled = true;
  button.textContent = "Quoting…";
  const started = performance.now();
  try {
    const answers = await Promise.all(requests.map(async (request) => ({ ...request, ...(await outcome(() => quoter.quote(request.quote, request.options))) })));
    const ms = Math.round(performance.now() - started);
    const summary = answers.map((a) => (values.compare ? `${a.search} ${a.status}` : `${a.status}`)).join(" · ");
    showAnswers(values, answers, `${summary} · ${ms} ms`);
    // The curve of one answer (a comparison's exact one): its own request, after the answer is shown.
    const curved = answers.find((a) => a.search === "exact" && a.ok) ?? answers[0];
    await showDepth(curved, curved);
  } catch (error) {
    showPageError(error);
  } finally {
    button.disabled = false;
    button.textContent = "Quote";
  }
}

/** Live: the answer redrawn on each event of the quote's stream, with the block it is at, until it ends. */
function runLive(values, request) {
  let events = 0;
  startLive(request, {
    onAnswer(answer) {
      events++;
      try {
        showAnswers(values, [{ ...request, ...answer }], `live · block ${answer.block ?? "–"} · ${answer.status} · event ${events}`);
      } catch (error) {
        showPageError(error);
      }
    },
    onReconnecting({ attempt, delayMs, reason }) {
      $("status").textContent = `${$("status").textContent.replace(/ · reconnecting.*$/, "")} · reconnecting (${reason}, try ${attempt}, in ${delayMs} ms)`;
    },
    onEnd(reason) {
      $("status").textContent = `${$("status").textContent} · stream ended (${reason})`;
    },
  });
}

/** Every part of the page that shows answers, from `answers` (one, or a comparison's two). */
function showAnswers(values, answers, statusText) {
  const found = answers.filter((a) => a.ok);
  $("status").textContent = statusText;
  $("status").className = `status ${found.length === answers.length ? "ok" : "failed"}`;
  const raw = values.compare ? Object.fromEntries(answers.map((a) => [a.search, { status: a.status, body: a.body }])) : answers[0].body;
  $("raw-body").textContent = JSON.stringify(raw, null, 2);
  $("raw").hidden = false;
  if (values.compare) showComparison(answers[0], answers[1]);
  showVerdict(answers, values.compare);
  showSummary(answers, values.compare);
  showErrors(answers.filter((a) => !a.ok), values.compare);
  // The market's facts from an answer that carries them (the exact one first), the range from every trace.
  const facts = found.find((a) => a.search === "exact") ?? found[0] ?? answers[0];
  const traces = answers.flatMap((a) => (a.body && Array.isArray(a.body.trace) ? a.body.trace : []));
  showMarket(facts.status, values, { ...facts.body, trace: traces });
  // With a taker, the trade of the answer shown first (the exact one's when comparing).
  showTrade(facts.ok ? facts.body : undefined);
  offerSigning("trade", facts.ok ? facts.body : undefined, values.chainId);
  drawSearch(values, answers, values.compare);
  document.body.dataset.state = found.length > 0 ? "done" : "failed";
}

/** A position just signed for: its live quote in the position tab, with the form's price and budget. */
function openPosition(positionId) {
  $("kind-held").checked = true;
  $("kind-held").dispatchEvent(new Event("change"));
  $("marketId").value = String(positionId);
  $("live").checked = true;
  $("live").dispatchEvent(new Event("change"));
  run();
}

/** A bug of this page, not an answer: say so rather than leave it loading. */
function showPageError(error) {
  showErrors([{ search: "page", status: "page error", body: { error: String(error && error.message ? error.message : error) } }], false);
  document.body.dataset.state = "failed";
}

async function init() {
  try {
    await buildForm();
  } catch (error) {
    showPageError(error);
    return;
  }
  followLiveSwitch();
  discoverWallets();
  initSigning(openPosition);
  // A wallet connected, or its account changed: the page quotes again with that account as the taker.
  onWalletChange((what) => {
    if (what === "account" && wallet.account) run();
  });
  $("quote-form").addEventListener("submit", run);
  $("copy-curl").addEventListener("click", copyCurl);
  document.body.dataset.state = "ready";
  // A first look needs no click: the prefilled (or linked) quote runs at once.
  run();
}

init();
