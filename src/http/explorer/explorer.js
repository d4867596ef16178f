// The quote explorer: plain browser JavaScript, no dependencies. It calls the quote API with trace=true and
// draws the search as SVG. The API's numbers are exact decimal strings; they are turned into floats here for
// drawing only, and every exact value is shown as the API sent it (tooltips, table, summary).
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const FIELDS = ["chainId", "marketAddress", "marketId", "expectedPrice", "collateralAvailable", "priceLimit", "maxIterations"];
const OUTCOMES = {
  feasible: { label: "feasible", colour: "#1a7f37" },
  "short-of-limit": { label: "short of priceLimit", colour: "#0969da" },
  "beyond-expected": { label: "beyond expectedPrice", colour: "#cf222e" },
  "over-budget": { label: "over budget", colour: "#bc4c00" },
  reverted: { label: "reverted", colour: "#6e7781" },
};
const WEI_PER_UNIT = 1e18;

const $ = (id) => document.getElementById(id);

/** /quoter, wherever the page is mounted: the page lives at <base>/explorer. */
function apiBase() {
  return window.location.pathname.replace(/\/explorer\/?$/, "");
}

function readForm() {
  const values = {};
  for (const name of FIELDS) values[name] = $(name).value.trim();
  return values;
}

function quoteUrl(values) {
  const query = new URLSearchParams({ expectedPrice: values.expectedPrice, collateralAvailable: values.collateralAvailable });
  if (values.priceLimit) query.set("priceLimit", values.priceLimit);
  if (values.maxIterations) query.set("maxIterations", values.maxIterations);
  query.set("trace", "true");
  const path = [values.chainId, values.marketAddress, values.marketId].map(encodeURIComponent).join("/");
  return `${apiBase()}/${path}?${query}`;
}

/** A float for drawing only; NaN when absent. */
function num(text) {
  return text === undefined || text === null || text === "" ? NaN : Number(text);
}

function units(wei) {
  const value = num(wei) / WEI_PER_UNIT;
  return Number.isFinite(value) ? `${short(value)} × 10^18` : "";
}

function short(value) {
  if (value === 0) return "0";
  const magnitude = Math.abs(value);
  if (magnitude >= 1e6 || magnitude < 1e-4) return value.toExponential(3);
  return String(Number(value.toPrecision(6)));
}

function el(name, attributes = {}, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

function text(parent, x, y, content, attributes = {}) {
  const node = el("text", { x, y, ...attributes }, parent);
  node.textContent = content;
  return node;
}

function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
}

/** About five round tick values covering [low, high]. */
function ticks(low, high, count = 5) {
  if (!(high > low)) return [low];
  const raw = (high - low) / count;
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * power).find((s) => s >= raw) ?? raw;
  const out = [];
  for (let v = Math.ceil(low / step) * step; v <= high + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

function extent(values, pad = 0.06) {
  const finite = values.filter(Number.isFinite);
  if (!finite.length) return [0, 1];
  let low = Math.min(...finite);
  let high = Math.max(...finite);
  if (low === high) {
    const d = Math.abs(low) * 0.01 || 1;
    low -= d;
    high += d;
  }
  const margin = (high - low) * pad;
  return [low - margin, high + margin];
}

/**
 * One chart: x is |size| (sizes are negative for a SHORT), y a price or an amount. `lines` are horizontal
 * markers ({ y, label, kind }), `vlines` vertical ones ({ x, label, kind }), `band` an optional shaded y interval,
 * `points` the candidates ({ x, y, outcome, title, index }). `xDomain`/`yDomain` zoom in; what falls outside them
 * is left out. Without `yDomain`, y covers every point and every line.
 */
function drawChart(svg, { xLabel, yLabel, xDomain, yDomain, lines, vlines, band, points, chosenIndex }) {
  clear(svg);
  const [xlo, xhi] = xDomain;
  const [y0, y1] = yDomain ?? extent([...points.map((p) => p.y), ...lines.map((l) => l.y)]);
  const inX = (x) => x >= xlo && x <= xhi;
  const inY = (y) => y >= y0 && y <= y1;
  const shown = points.filter((p) => inX(p.x) && (!Number.isFinite(p.y) || inY(p.y)));
  const revertedBand = shown.some((p) => !Number.isFinite(p.y));
  const width = 860;
  const height = 360;
  const margin = { left: 86, right: 150, top: revertedBand ? 46 : 16, bottom: 48 };
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const sx = (x) => margin.left + ((x - xlo) / (xhi - xlo)) * plotW;
  const sy = (y) => margin.top + plotH - ((y - y0) / (y1 - y0)) * plotH;

  const axes = el("g", { class: "axes" }, svg);
  el("rect", { x: margin.left, y: margin.top, width: plotW, height: plotH, class: "plot" }, axes);
  if (band) {
    const top = sy(Math.min(y1, Math.max(band.from, band.to)));
    const bottom = sy(Math.max(y0, Math.min(band.from, band.to)));
    if (bottom > top) {
      el("rect", { x: margin.left, y: top, width: plotW, height: bottom - top, class: "band" }, axes);
      text(axes, margin.left + plotW - 6, bottom - 5, band.label, { class: "band-label", "text-anchor": "end" });
    }
  }
  for (const t of ticks(y0, y1)) {
    if (!inY(t)) continue;
    el("line", { x1: margin.left, x2: margin.left + plotW, y1: sy(t), y2: sy(t), class: "grid" }, axes);
    text(axes, margin.left - 8, sy(t) + 4, short(t), { class: "tick", "text-anchor": "end" });
  }
  for (const t of ticks(xlo / WEI_PER_UNIT, xhi / WEI_PER_UNIT)) {
    const x = sx(t * WEI_PER_UNIT);
    if (!(x >= margin.left && x <= margin.left + plotW)) continue;
    el("line", { x1: x, x2: x, y1: margin.top, y2: margin.top + plotH, class: "grid" }, axes);
    text(axes, x, margin.top + plotH + 18, short(t), { class: "tick", "text-anchor": "middle" });
  }
  text(axes, margin.left + plotW / 2, height - 8, xLabel, { class: "axis-label", "text-anchor": "middle" });
  text(axes, 14, margin.top + plotH / 2, yLabel, {
    class: "axis-label",
    "text-anchor": "middle",
    transform: `rotate(-90 14 ${margin.top + plotH / 2})`,
  });

  const markers = el("g", { class: "markers" }, svg);
  for (const line of lines) {
    if (!inY(line.y)) continue;
    const y = sy(line.y);
    el("line", { x1: margin.left, x2: margin.left + plotW, y1: y, y2: y, class: `bound ${line.kind}`, "data-bound": line.kind }, markers);
    text(markers, margin.left + plotW + 6, y + 4, line.label, { class: `bound-label ${line.kind}` });
  }
  for (const line of vlines) {
    if (!inX(line.x)) continue;
    const x = sx(line.x);
    el("line", { x1: x, x2: x, y1: margin.top, y2: margin.top + plotH, class: `vbound ${line.kind}`, "data-bound": line.kind }, markers);
    text(markers, x - 4, margin.top + 12, line.label, { class: `bound-label ${line.kind}`, "text-anchor": "end" });
  }
  if (revertedBand) text(markers, margin.left, 12, "reverted candidates (no price) are drawn above the plot", { class: "note-label" });

  // The order of the search, then the candidates on top.
  const placed = shown.map((p) => ({ ...p, cx: sx(p.x), cy: Number.isFinite(p.y) ? sy(p.y) : margin.top - 14 }));
  if (placed.length > 1) {
    el("polyline", { points: placed.map((p) => `${p.cx},${p.cy}`).join(" "), class: "path" }, markers);
  }
  const dots = el("g", { class: "candidates" }, svg);
  for (const p of placed) {
    const chosen = p.index === chosenIndex;
    if (chosen) el("circle", { cx: p.cx, cy: p.cy, r: 12, class: "chosen-ring" }, dots);
    const colour = OUTCOMES[p.outcome]?.colour ?? "#000";
    const circle = el(
      "circle",
      {
        cx: p.cx,
        cy: p.cy,
        r: 6,
        class: `candidate ${p.outcome}${chosen ? " chosen" : ""}`,
        fill: Number.isFinite(p.y) ? colour : "#fff",
        stroke: colour,
        "data-index": p.index + 1,
        "data-outcome": p.outcome,
      },
      dots,
    );
    const title = el("title", {}, circle);
    title.textContent = p.title;
    text(dots, p.cx + 8, p.cy - 8, String(p.index + 1), { class: "order" });
  }
  return shown.length;
}

function drawLegend() {
  const legend = $("legend");
  clear(legend);
  for (const [key, { label, colour }] of Object.entries(OUTCOMES)) {
    const item = document.createElement("li");
    const swatch = document.createElementNS(SVG, "svg");
    swatch.setAttribute("width", "12");
    swatch.setAttribute("height", "12");
    el("circle", { cx: 6, cy: 6, r: 5, fill: key === "reverted" ? "#fff" : colour, stroke: colour }, swatch);
    item.append(swatch, ` ${label}`);
    legend.appendChild(item);
  }
  const chosen = document.createElement("li");
  chosen.textContent = "◯ chosen size (maxSize)";
  legend.appendChild(chosen);
}

function candidateTitle(entry, index) {
  const lines = [`#${index + 1} size ${entry.size}`, `outcome: ${entry.outcome}`];
  if (entry.priceAfter) lines.push(`price after: ${entry.priceAfter}`);
  if (entry.fillPrice) lines.push(`fill price: ${entry.fillPrice}`);
  if (entry.requiredCollateral) lines.push(`required collateral: ${entry.requiredCollateral}`);
  if (entry.revert) lines.push(`revert: ${entry.revert}`);
  return lines.join("\n");
}

/** Draws the search from the request and the answer (a 200 body or a search-failure 400 with a trace). */
function drawSearch(values, body) {
  const trace = Array.isArray(body.trace) ? body.trace : [];
  $("charts").hidden = trace.length === 0;
  if (trace.length === 0) return;

  const expected = num(body.expectedPrice ?? values.expectedPrice);
  const current = num(body.currentPrice);
  const isLong = body.direction ? body.direction === "LONG" : !(num(trace[0].size) < 0);
  const limit = values.priceLimit ? num(values.priceLimit) : current;
  const budget = num(body.collateralAvailable ?? values.collateralAvailable);
  // The search range ends at collateral / current price (semantics §4); without the price (a failed search),
  // the first candidate is the middle of the range.
  const cap = Number.isFinite(current) && current > 0 ? budget / current : 2 * Math.abs(num(trace[0].size));
  const chosenIndex = body.maxSize === undefined ? -1 : trace.findIndex((entry) => entry.size === body.maxSize);

  const points = trace.map((entry, index) => ({
    x: Math.abs(num(entry.size)),
    y: num(entry.priceAfter),
    outcome: entry.outcome,
    title: candidateTitle(entry, index),
    index,
  }));
  const xMax = Math.max(cap, ...points.map((p) => p.x));
  const whole = [0, xMax > 0 ? xMax * 1.04 : 1];
  const chosenX = chosenIndex >= 0 ? points[chosenIndex].x : NaN;

  const priceLines = [];
  if (Number.isFinite(expected)) priceLines.push({ y: expected, label: `expectedPrice ${short(expected)}`, kind: "expected" });
  if (Number.isFinite(limit)) {
    priceLines.push({ y: limit, label: `priceLimit ${short(limit)}${values.priceLimit ? "" : " (current)"}`, kind: "limit" });
  }
  if (Number.isFinite(current) && values.priceLimit && current !== limit) {
    priceLines.push({ y: current, label: `current ${short(current)}`, kind: "current" });
  }
  const vlines = [{ x: cap, label: "budget cap", kind: "cap" }];
  if (Number.isFinite(chosenX)) vlines.push({ x: chosenX, label: "maxSize", kind: "chosen" });
  const band = Number.isFinite(expected) && Number.isFinite(limit)
    ? { from: limit, to: expected, label: isLong ? "feasible: priceLimit < price ≤ expectedPrice" : "feasible: expectedPrice ≤ price < priceLimit" }
    : undefined;
  const priceChart = {
    xLabel: `|size| in 10^18 wei${isLong ? "" : " (a SHORT: sizes are negative)"}`,
    yLabel: "price after the trade",
    lines: priceLines,
    vlines,
    band,
    points,
    chosenIndex,
  };
  drawChart($("price-chart"), { ...priceChart, xDomain: whole });

  // A bisection halves its interval at every step: the last steps are invisible at the scale of the first.
  // The zoom shows the second half of the search, with the price bounds.
  const late = points.slice(Math.floor(points.length / 2));
  const zoomable = points.length >= 4 && late.some((p) => Number.isFinite(p.y));
  $("zoom").hidden = !zoomable;
  if (zoomable) {
    const [zx0, zx1] = extent(late.map((p) => p.x), 0.15);
    const yDomain = extent([...late.map((p) => p.y), ...priceLines.map((l) => l.y)], 0.1);
    const count = drawChart($("zoom-chart"), { ...priceChart, xDomain: [Math.max(0, zx0), zx1], yDomain });
    $("zoom-note").textContent = `Candidates #${late[0].index + 1} to #${points.length} (${count} drawn), scaled to fit.`;
  }

  const collateralPoints = points.map((p, index) => ({ ...p, y: num(trace[index].requiredCollateral) / WEI_PER_UNIT }));
  drawChart($("collateral-chart"), {
    xLabel: "|size| in 10^18 wei",
    yLabel: "required collateral (10^18 wei)",
    xDomain: whole,
    lines: Number.isFinite(budget) ? [{ y: budget / WEI_PER_UNIT, label: `budget ${short(budget / WEI_PER_UNIT)}`, kind: "budget" }] : [],
    vlines: Number.isFinite(chosenX) ? [{ x: chosenX, label: "maxSize", kind: "chosen" }] : [],
    points: collateralPoints,
    chosenIndex,
  });
  drawLegend();

  const reverted = points.filter((p) => !Number.isFinite(p.y)).length;
  const overBudget = trace.filter((e) => e.outcome === "over-budget").length;
  $("chart-note").textContent =
    `${trace.length} candidate${trace.length === 1 ? "" : "s"} quoted, numbered in search order` +
    (reverted ? `; ${reverted} reverted` : "") +
    (overBudget ? `; ${overBudget} over budget` : "") +
    (chosenIndex >= 0 ? `; the chosen size is #${chosenIndex + 1}` : "; no size was chosen") +
    ". Hover a point for its exact values.";

  const tbody = $("trace-table").querySelector("tbody");
  clear(tbody);
  trace.forEach((entry, index) => {
    const row = tbody.insertRow();
    if (index === chosenIndex) row.className = "chosen";
    const cells = [index + 1, entry.size, entry.outcome, entry.priceAfter, entry.fillPrice, entry.requiredCollateral, entry.revert];
    for (const value of cells) row.insertCell().textContent = value === undefined ? "" : String(value);
    row.cells[2].className = `outcome ${entry.outcome}`;
  });
}

function showSummary(body) {
  const list = $("summary-list");
  clear(list);
  const rows = [
    ["direction", body.direction],
    ["maxSize", `${body.maxSize} (${units(String(Math.abs(num(body.maxSize))))})`],
    ["current price", body.currentPrice],
    ["expected price", body.expectedPrice],
    ["price after", body.priceAfter],
    ["fill price", body.fillPrice],
    ["required collateral", `${body.requiredCollateral} of ${body.collateralAvailable}`],
    ["block", body.blockNumber],
    ["iterations", body.iterations],
  ];
  for (const [term, value] of rows) {
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.textContent = String(value);
    dd.dataset.field = term;
    list.append(dt, dd);
  }
  $("summary").hidden = false;
}

function showError(status, body) {
  $("error-title").textContent = `${status} ${body && body.error ? body.error : "Unexpected answer"}`;
  const details = $("error-details");
  clear(details);
  for (const detail of (body && Array.isArray(body.details) ? body.details : [])) {
    const item = document.createElement("li");
    const param = document.createElement("code");
    param.textContent = detail.param;
    item.append(param, `: ${detail.message}`);
    details.appendChild(item);
  }
  $("error").hidden = false;
}

async function run(event) {
  if (event) event.preventDefault();
  const values = readForm();
  const url = quoteUrl(values);
  const button = $("run");
  button.disabled = true;
  button.textContent = "Quoting…";
  for (const id of ["error", "summary", "charts", "raw"]) $(id).hidden = true;
  $("request").hidden = false;
  $("request-url").textContent = `GET ${url}`;
  $("status").textContent = "…";
  $("status").className = "status";
  document.body.dataset.state = "loading";
  const pageQuery = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value) pageQuery.set(key, value);
  window.history.replaceState(null, "", `?${pageQuery}`);

  const started = performance.now();
  try {
    const response = await fetch(url, { headers: { accept: "application/json" } });
    const raw = await response.text();
    let body;
    try {
      body = JSON.parse(raw);
    } catch {
      body = { error: raw.slice(0, 500) };
    }
    const ms = Math.round(performance.now() - started);
    $("status").textContent = `${response.status} · ${ms} ms`;
    $("status").className = `status ${response.ok ? "ok" : "failed"}`;
    $("raw-body").textContent = JSON.stringify(body, null, 2);
    $("raw").hidden = false;
    if (response.ok) showSummary(body);
    else showError(response.status, body);
    drawSearch(values, body);
    document.body.dataset.state = response.ok ? "done" : "failed";
  } catch (error) {
    showError("network", { error: String(error && error.message ? error.message : error) });
    document.body.dataset.state = "failed";
  } finally {
    button.disabled = false;
    button.textContent = "Quote";
  }
}

function showBudgetUnits() {
  $("budget-units").textContent = units($("collateralAvailable").value.trim());
}

function applyPreset() {
  const value = $("preset").value;
  if (!value) return;
  const [marketId, expectedPrice, collateralAvailable, priceLimit] = value.split("|");
  $("chainId").value = "31337";
  $("marketAddress").value = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
  $("marketId").value = marketId;
  $("expectedPrice").value = expectedPrice;
  $("collateralAvailable").value = collateralAvailable;
  $("priceLimit").value = priceLimit;
  $("maxIterations").value = "";
  showBudgetUnits();
}

function init() {
  const query = new URLSearchParams(window.location.search);
  for (const name of FIELDS) if (query.has(name)) $(name).value = query.get(name);
  showBudgetUnits();
  $("collateralAvailable").addEventListener("input", showBudgetUnits);
  $("preset").addEventListener("change", applyPreset);
  $("quote-form").addEventListener("submit", run);
  document.body.dataset.state = "ready";
  if (query.has("expectedPrice")) run();
}

init();
