// The explorer's form and the page's URL: the text fields built from the service's list of quote parameters, the
// search choice, the demo presets and the budget's hint; the form read as values, written into the page's own
// query (so that a link reproduces the quote) and read back from it, and turned into the quote's URL.
import { $ } from "./dom.js";
import { E18, formatD18, parseD18, parseInteger } from "./numbers.js";

/** The form's text fields: the quote parameters' (explorer/fields.json), in the order the service checks them. */
const FIELDS = [];

/** /quoter, wherever the page is mounted: the page lives at <base>/explorer. */
export function apiBase() {
  return window.location.pathname.replace(/\/explorer\/?$/, "");
}

/** Builds the form's fields, fills it from the page's query, and keeps its hints and choices in step with it. */
export async function buildForm() {
  await buildFields();
  const query = new URLSearchParams(window.location.search);
  for (const { name } of FIELDS) if (query.has(name)) $(name).value = query.get(name);
  $("search-exact").checked = query.get("search") === "exact";
  $("search-bisection").checked = !$("search-exact").checked;
  $("compare").checked = query.get("compare") === "true";
  $("live").checked = query.get("live") === "true";
  for (const name of RANGE_FIELDS) if (query.has(name)) $(name).value = query.get(name);
  $("kind-held").checked = query.get("kind") === "held";
  $("kind-liquidity").checked = query.get("kind") === "liquidity";
  $("kind-new").checked = !$("kind-held").checked && !$("kind-liquidity").checked;
  showSearchChoice();
  showKind();
  showBudgetUnits();
  $("compare").addEventListener("change", showSearchChoice);
  $("live").addEventListener("change", showSearchChoice);
  $("collateralAvailable").addEventListener("input", showBudgetUnits);
  $("preset").addEventListener("change", applyPreset);
  for (const id of ["kind-new", "kind-held", "kind-liquidity"]) $(id).addEventListener("change", showKind);
}

/** The range's fields: a liquidity position's, beside the form's quote parameters (the route's own). */
const RANGE_FIELDS = ["lowerPrice", "upperPrice"];
/** What a liquidity quote does not take: the trade's price rules (and the search choice, its one search proven). */
const TRADE_ONLY = ["expectedPrice", "priceLimit", "maxIterations"];

/**
 * A held position is named by its id, in the market id's field; its quote has one search at a time. A liquidity
 * position takes a range and a budget, and no price rule or search: those fields step aside.
 */
function showKind() {
  const held = $("kind-held").checked;
  const liquidity = $("kind-liquidity").checked;
  $("marketId").previousSibling.textContent = held ? "Position id " : "Market id ";
  if (held || liquidity) $("compare").checked = false;
  $("compare").disabled = held || liquidity || $("live").checked;
  $("range-fields").hidden = !liquidity;
  for (const id of [...TRADE_ONLY, "search-bisection", "search-exact", "compare"]) if ($(id)) $(id).parentElement.hidden = liquidity;
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

export function readForm() {
  const values = {};
  for (const { name } of FIELDS) values[name] = $(name).value.trim();
  values.search = $("search-exact").checked ? "exact" : "bisection";
  values.compare = $("compare").checked;
  values.live = $("live").checked;
  for (const name of RANGE_FIELDS) values[name] = $(name).value.trim();
  values.held = $("kind-held").checked;
  values.liquidity = $("kind-liquidity").checked;
  return values;
}

/** The page's own query: the form, so that a link reproduces the quote (and the comparison). */
export function pageQuery(values) {
  const query = new URLSearchParams();
  for (const { name } of FIELDS) if (values[name]) query.set(name, values[name]);
  query.set("search", values.search);
  if (values.compare) query.set("compare", "true");
  if (values.live) query.set("live", "true");
  if (values.held) query.set("kind", "held");
  if (values.liquidity) {
    query.set("kind", "liquidity");
    for (const name of RANGE_FIELDS) if (values[name]) query.set(name, values[name]);
  }
  return query;
}

/**
 * The form as the client's quote request with the search asked and its trace, and the call's options (minBlock is
 * one). A required parameter is sent even when empty, so that the service names its rule; an optional one only
 * when set.
 */
export function quoteRequest(values, search) {
  const quote = {};
  for (const { name, required } of FIELDS) if (name !== "minBlock" && (required || values[name])) quote[name] = values[name];
  quote.search = search;
  quote.trace = "true";
  return { quote, options: values.minBlock ? { minBlock: values.minBlock } : {} };
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
  $("compare").disabled = $("live").checked || $("kind-held").checked || $("kind-liquidity").checked;
  for (const id of ["search-bisection", "search-exact"]) $(id).disabled = $("compare").checked;
}
