// The quote explorer: plain browser JavaScript, no dependencies. On open it runs the prefilled quote with
// trace=true, says in one sentence which limit decided, shows the market's facts, the request as a curl line,
// and draws the search as SVG. Every number the API sends (prices, sizes, collateral) stays exact: it is read
// into a BigInt (prices in 10^-18 units) and shown with string arithmetic; even the pixel positions are
// computed in BigInt and only the final, small coordinate becomes a Number. It quotes with either search, or
// with both at once to draw what the bisection leaves below the exact maximum, or live: redrawn on each event
// of the quote's stream.
import { showComparison, showErrors, showMarket, showSummary, showVerdict } from "./answers.js";
import { $ } from "./dom.js";
import { E18, formatD18, parseD18, parseInteger } from "./numbers.js";
import { watchLive } from "./live.js";
import { drawSearch } from "./search.js";
import { showDepth } from "./depth.js";

/** The form's text fields: the quote parameters' (explorer/fields.json), in the order the service checks them. */
const FIELDS = [];
const inPath = (field) => field.in === "path";

// ---- the request -----------------------------------------------------------------------------------------

/** /quoter, wherever the page is mounted: the page lives at <base>/explorer. */
function apiBase() {
  return window.location.pathname.replace(/\/explorer\/?$/, "");
}

function readForm() {
  const values = {};
  for (const { name } of FIELDS) values[name] = $(name).value.trim();
  values.search = $("search-exact").checked ? "exact" : "bisection";
  values.compare = $("compare").checked;
  values.live = $("live").checked;
  return values;
}

/** The page's own query: the form, so that a link reproduces the quote (and the comparison). */
function pageQuery(values) {
  const query = new URLSearchParams();
  for (const { name } of FIELDS) if (values[name]) query.set(name, values[name]);
  query.set("search", values.search);
  if (values.compare) query.set("compare", "true");
  if (values.live) query.set("live", "true");
  return query;
}

function quoteUrl(values, search) {
  // A required parameter is sent even when empty, so that the service names its rule; an optional one only when set.
  const query = new URLSearchParams();
  for (const { name, required } of FIELDS.filter((field) => !inPath(field))) if (required || values[name]) query.set(name, values[name]);
  query.set("search", search);
  query.set("trace", "true");
  const path = FIELDS.filter(inPath).map(({ name }) => encodeURIComponent(values[name])).join("/");
  return `${apiBase()}/${path}?${query}`;
}

/** What the budget field means, exactly: wei, and what a decimal typed there would be in wei. */
function budgetHint(text) {
  if (text === "") return "";
  const whole = parseInteger(text);
  if (whole !== null) return whole > 0n ? `= ${formatD18(whole)} × 10^18 wei (${formatD18(whole)} token${whole === E18 ? "" : "s"} in 18-decimal units)` : "must be at least 1 wei";
  const tokens = parseD18(text);
  if (tokens !== null && tokens > 0n) return `collateralAvailable is a whole number of wei: ${text} tokens is ${tokens} wei`;
  return "a whole number of wei, e.g. 1000000000000000000 for 1 token";
}

// ---- the page --------------------------------------------------------------------------------------------

/** The request as a shell command: single quotes, with any single quote in it escaped for the shell. */
function curlLine(url, live = false) {
  const absolute = new URL(url, window.location.origin).href;
  const stream = live ? "-N -H 'Accept: text/event-stream' " : "";
  return `curl ${stream}'${absolute.replace(/'/g, "'\\''")}'`;
}

async function copyCurl() {
  const line = $("curl-line").textContent;
  try {
    await navigator.clipboard.writeText(line);
    $("copy-curl").textContent = "Copied";
  } catch {
    // No clipboard (an insecure origin, a denied permission): select the line for a manual copy.
    const range = document.createRange();
    range.selectNodeContents($("curl-line"));
    window.getSelection()?.removeAllRanges();
    window.getSelection()?.addRange(range);
    $("copy-curl").textContent = "Selected: copy it";
  }
  setTimeout(() => ($("copy-curl").textContent = "Copy"), 2000);
}

/** One quote: its status and JSON body; a failed fetch is status "network" with its message as the error. */
async function fetchAnswer(url) {
  try {
    const response = await fetch(url, { headers: { accept: "application/json" } });
    const raw = await response.text();
    let body;
    try {
      body = JSON.parse(raw);
    } catch {
      body = { error: raw.slice(0, 500) };
    }
    return { status: response.status, ok: response.ok, body };
  } catch (error) {
    return { status: "network", ok: false, body: { error: String(error && error.message ? error.message : error) } };
  }
}

/** The live stream running, if any: stopped by the next quote. */
let stopLive = () => {};

async function run(event) {
  if (event) event.preventDefault();
  stopLive();
  const values = readForm();
  // Comparing sends the same request with each search, at once.
  const requests = (values.compare ? ["bisection", "exact"] : [values.search]).map((search) => ({ search, url: quoteUrl(values, search) }));
  const button = $("run");
  for (const id of ["error", "summary", "charts", "raw", "comparison", "verdict", "market", "depth"]) $(id).hidden = true;
  $("request").hidden = false;
  $("curl-line").textContent = requests.map(({ url }) => curlLine(url, values.live)).join("\n");
  $("status").textContent = "…";
  $("status").className = "status";
  document.body.dataset.state = "loading";
  window.history.replaceState(null, "", `?${pageQuery(values)}`);
  if (values.live) return runLive(values, requests[0]);

  button.disabled = true;
  button.textContent = "Quoting…";
  const started = performance.now();
  try {
    const answers = await Promise.all(requests.map(async (request) => ({ ...request, ...(await fetchAnswer(request.url)) })));
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
  stopLive = watchLive(
    request.url,
    (answer) => {
      events++;
      try {
        showAnswers(values, [{ ...request, ...answer }], `live · block ${answer.block} · ${answer.status} · event ${events}`);
      } catch (error) {
        showPageError(error);
      }
    },
    (reason) => {
      $("status").textContent = `${$("status").textContent} · stream ended (${reason})`;
    },
  );
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
  drawSearch(values, answers, values.compare);
  document.body.dataset.state = found.length > 0 ? "done" : "failed";
}

function showBudgetUnits() {
  $("budget-units").textContent = budgetHint($("collateralAvailable").value.trim());
}

function applyPreset() {
  const value = $("preset").value;
  if (!value) return;
  const [marketId, expectedPrice, collateralAvailable, priceLimit, group] = value.split("|");
  $("chainId").value = "31337";
  $("marketAddress").value = group || "0x5FbDB2315678afecb367f032d93F642f64180aa3";
  $("marketId").value = marketId;
  $("expectedPrice").value = expectedPrice;
  $("collateralAvailable").value = collateralAvailable;
  for (const field of FIELDS) if (!field.required) $(field.name).value = "";
  $("priceLimit").value = priceLimit;
  showBudgetUnits();
}

/** Comparing sends both searches: the choice of one has no effect then. Live streams one search: no comparing. */
function showSearchChoice() {
  if ($("live").checked) $("compare").checked = false;
  $("compare").disabled = $("live").checked;
  for (const id of ["search-bisection", "search-exact"]) $(id).disabled = $("compare").checked;
}

/** A bug of this page, not an answer: say so rather than leave it loading. */
function showPageError(error) {
  showErrors([{ search: "page", status: "page error", body: { error: String(error && error.message ? error.message : error) } }], false);
  document.body.dataset.state = "failed";
}

/** The form's text fields, built from the service's list: a label, then its input. */
async function buildFields() {
  const response = await fetch(`${apiBase()}/explorer/fields.json`);
  if (!response.ok) throw new Error(`the form's fields did not load: ${response.status}`);
  FIELDS.push(...(await response.json()));
  for (const field of FIELDS) {
    const label = document.createElement("label");
    if (field.wide) label.className = "wide";
    const input = document.createElement("input");
    Object.assign(input, { id: field.name, name: field.name, required: field.required, spellcheck: false, title: field.description });
    if (field.value !== undefined) input.setAttribute("value", field.value);
    if (field.placeholder !== undefined) input.placeholder = field.placeholder;
    if (field.numeric) input.inputMode = "numeric";
    label.append(`${field.label} `, input);
    $(`${field.in}-fields`).appendChild(label);
  }
  // Under the budget, what it means in wei.
  const units = document.createElement("output");
  units.id = "budget-units";
  units.setAttribute("for", "collateralAvailable");
  $("collateralAvailable").parentElement.appendChild(units);
}

async function init() {
  try {
    await buildFields();
  } catch (error) {
    showPageError(error);
    return;
  }
  const query = new URLSearchParams(window.location.search);
  for (const { name } of FIELDS) if (query.has(name)) $(name).value = query.get(name);
  $("search-exact").checked = query.get("search") === "exact";
  $("search-bisection").checked = !$("search-exact").checked;
  $("compare").checked = query.get("compare") === "true";
  $("live").checked = query.get("live") === "true";
  showSearchChoice();
  showBudgetUnits();
  $("compare").addEventListener("change", showSearchChoice);
  $("live").addEventListener("change", () => {
    showSearchChoice();
    // Switched off: the stream stops, the last answer stays.
    if (!$("live").checked) stopLive();
  });
  $("collateralAvailable").addEventListener("input", showBudgetUnits);
  $("preset").addEventListener("change", applyPreset);
  $("quote-form").addEventListener("submit", run);
  $("copy-curl").addEventListener("click", copyCurl);
  document.body.dataset.state = "ready";
  // A first look needs no click: the prefilled (or linked) quote runs at once.
  run();
}

init();
