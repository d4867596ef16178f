// The quote explorer: plain browser JavaScript, no dependencies. On open it runs the prefilled quote with
// trace=true, says in one sentence which limit decided, shows the market's facts, the request as a curl line,
// and draws the search as SVG. Every number the API sends (prices, sizes, collateral) stays exact: it is read
// into a BigInt (prices in 10^-18 units) and shown with string arithmetic; even the pixel positions are
// computed in BigInt and only the final, small coordinate becomes a Number. It quotes with either search, or
// with both at once to draw what the bisection leaves below the exact maximum.
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
const TOO_LARGE = ["beyond-expected", "over-budget", "reverted"];
/** How each search is drawn when both are compared on one chart (candidates keep their outcome's colour). */
const SEARCHES = {
  bisection: { prefix: "b", marker: "circle", colour: "#8250df" },
  exact: { prefix: "e", marker: "diamond", colour: "#1b7c83" },
};
const E18 = 10n ** 18n;

const $ = (id) => document.getElementById(id);

// ---- exact numbers ---------------------------------------------------------------------------------------

/** A decimal text (`-1.5`, `1030`, `2.5e3`) as a BigInt of 10^-18 units; null when it is not one or is finer. */
function parseD18(text) {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d{1,4}))?$/.exec(String(text ?? "").trim());
  if (!match) return null;
  const [, sign, whole, fraction = "", exponent = "0"] = match;
  const shift = 18 + Number(exponent) - fraction.length;
  let digits = BigInt(whole + fraction);
  if (shift >= 0) digits *= 10n ** BigInt(shift);
  else {
    const unit = 10n ** BigInt(-shift);
    if (digits % unit !== 0n) return null;
    digits /= unit;
  }
  return sign ? -digits : digits;
}

/** A whole number (wei, a size) as a BigInt; null otherwise. */
function parseInteger(text) {
  return /^-?\d+$/.test(String(text ?? "").trim()) ? BigInt(String(text).trim()) : null;
}

/** 10^-18 units as the shortest exact decimal: 45898437500000000n -> "0.0458984375". */
function formatD18(value) {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const fraction = (magnitude % E18).toString().padStart(18, "0").replace(/0+$/, "");
  const text = fraction ? `${magnitude / E18}.${fraction}` : `${magnitude / E18}`;
  return negative ? `-${text}` : text;
}

const abs = (v) => (v < 0n ? -v : v);
const minBig = (values) => values.reduce((a, b) => (b < a ? b : a));
const maxBig = (values) => values.reduce((a, b) => (b > a ? b : a));

/** A size or an amount in wei, with its value in 10^18 units: "45898437500000000 wei (0.0458984375 × 10^18)". */
function wei(value) {
  return `${value} wei (${formatD18(value)} × 10^18)`;
}

/** part / whole as a percentage with two decimals, rounded down, in BigInt: (45898437500000000n, 46392895919600201n) -> "98.93%". */
function percentOf(part, whole) {
  if (whole === 0n) return "n/a";
  const hundredths = (part * 10000n) / whole;
  if (hundredths === 0n && part !== 0n) return "under 0.01%";
  return `${hundredths / 100n}.${(hundredths % 100n).toString().padStart(2, "0")}%`;
}

/** Rounds a positive 10^-18 value to `digits` significant digits, for labels only ("about" is said by callers). */
function roundSignificant(value, digits = 6) {
  const length = abs(value).toString().length;
  if (length <= digits) return value;
  const unit = 10n ** BigInt(length - digits);
  return ((value + unit / 2n) / unit) * unit;
}

/** A Uniswap sqrt price (Q64.96) as a 10^-18 price, rounded to nearest. */
function sqrtX96ToD18(sqrtPrice) {
  const q192 = 2n ** 192n;
  return (sqrtPrice * sqrtPrice * E18 + q192 / 2n) / q192;
}

// ---- the request -----------------------------------------------------------------------------------------

/** /quoter, wherever the page is mounted: the page lives at <base>/explorer. */
function apiBase() {
  return window.location.pathname.replace(/\/explorer\/?$/, "");
}

function readForm() {
  const values = {};
  for (const name of FIELDS) values[name] = $(name).value.trim();
  values.search = $("search-exact").checked ? "exact" : "bisection";
  values.compare = $("compare").checked;
  return values;
}

/** The page's own query: the form, so that a link reproduces the quote (and the comparison). */
function pageQuery(values) {
  const query = new URLSearchParams();
  for (const name of FIELDS) if (values[name]) query.set(name, values[name]);
  query.set("search", values.search);
  if (values.compare) query.set("compare", "true");
  return query;
}

function quoteUrl(values, search) {
  const query = new URLSearchParams({ expectedPrice: values.expectedPrice, collateralAvailable: values.collateralAvailable });
  if (values.priceLimit) query.set("priceLimit", values.priceLimit);
  if (values.maxIterations) query.set("maxIterations", values.maxIterations);
  query.set("search", search);
  query.set("trace", "true");
  const path = [values.chainId, values.marketAddress, values.marketId].map(encodeURIComponent).join("/");
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

// ---- SVG ---------------------------------------------------------------------------------------------------

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

/** Where `value` falls between `low` and `high` on `pixels`: BigInt arithmetic, a Number only at the end. */
function position(value, low, high, pixels) {
  if (high <= low) return 0;
  return Number(((value - low) * BigInt(Math.round(pixels * 100))) / (high - low)) / 100;
}

/** About five round tick values (1, 2 or 5 × 10^k) covering [low, high]: BigInts. */
function ticks(low, high, count = 5n) {
  if (high <= low) return [low];
  const raw = (high - low) / count || 1n;
  const power = 10n ** BigInt(raw.toString().length - 1);
  const step = [1n, 2n, 5n, 10n].map((f) => f * power).find((s) => s >= raw);
  const out = [];
  let v = low >= 0n ? ((low + step - 1n) / step) * step : -((-low / step) * step);
  for (; v <= high; v += step) out.push(v);
  return out;
}

/** [low, high] of the values with a margin of pad/100 each side; never below 0 (sizes and prices are not). */
function extent(values, pad = 6n) {
  if (values.length === 0) return [0n, E18];
  let low = minBig(values);
  let high = maxBig(values);
  if (low === high) {
    const d = abs(low) / 100n || 1n;
    low -= d;
    high += d;
  }
  const margin = ((high - low) * pad) / 100n;
  const from = low - margin;
  return [from < 0n ? 0n : from, high + margin];
}

/** Do two boxes {x, y, w, h} overlap? */
function overlaps(a, b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/**
 * The candidates' order numbers, kept legible: points closer than a label's size share one label ("8-10"), and
 * each label takes the first spot around its point that no other label or point covers. When two searches are
 * drawn, each number carries its search's prefix ("b8–10,e3").
 */
function placeOrderLabels(parent, placed, bounds) {
  const clusters = [];
  for (const p of placed) {
    const member = { prefix: p.prefix, number: p.index + 1 };
    const near = clusters.find((c) => Math.hypot(c.cx - p.cx, c.cy - p.cy) < 12);
    if (near) near.members.push(member);
    else clusters.push({ cx: p.cx, cy: p.cy, members: [member] });
  }
  const taken = placed.map((p) => ({ x: p.cx - 6, y: p.cy - 6, w: 12, h: 12 }));
  for (const cluster of clusters) {
    const prefixes = [...new Set(cluster.members.map((m) => m.prefix))];
    const label = prefixes.map((prefix) => prefix + runs(cluster.members.filter((m) => m.prefix === prefix).map((m) => m.number))).join(",");
    const m = cluster.members.map((member) => member.prefix + member.number);
    const w = label.length * 6.2 + 2;
    const h = 12; // a 10px label's box is 11.6px high: a smaller one lets labels stacked on it touch
    const spots = [
      [8, -17], [8, 5], [-8 - w, -17], [-8 - w, 5], [-w / 2, -22], [-w / 2, 10],
      [16, -6], [-16 - w, -6], [14, -30], [-14 - w, -30], [14, 18], [-14 - w, 18],
    ].map(([dx, dy]) => ({ x: cluster.cx + dx, y: cluster.cy + dy, w, h }));
    const inside = (box) => box.x >= bounds.x && box.y >= bounds.y && box.x + box.w <= bounds.x + bounds.w && box.y + box.h <= bounds.y + bounds.h;
    const box = spots.find((s) => inside(s) && !taken.some((t) => overlaps(s, t))) ?? null;
    if (box === null) continue; // no free spot: the number is in the point's tooltip and the table
    taken.push(box);
    text(parent, box.x + 1, box.y + h - 2.5, label, { class: "order", "data-members": m.join(",") });
  }
}

/** Candidate numbers as runs: [4, 6, 7, 8, 10] -> "4,6–8,10". */
function runs(numbers) {
  const sorted = [...numbers].sort((a, b) => a - b);
  const parts = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(j - i >= 2 ? `${sorted[i]}–${sorted[j]}` : sorted.slice(i, j + 1).join(","));
    i = j + 1;
  }
  return parts.join(",");
}

/** Right-hand labels of horizontal lines, moved apart so that none covers another. */
function spreadVertically(items, gap = 13) {
  const sorted = [...items].sort((a, b) => a.y - b.y);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].y - sorted[i - 1].y < gap) sorted[i].y = sorted[i - 1].y + gap;
  }
  return sorted;
}

/**
 * One chart: x is |size| in wei, y a price (10^-18 units) or an amount (wei); all BigInt. `lines` are horizontal
 * markers ({ y, label, kind }), `vlines` vertical ones ({ x, label, kind, search? }), `band` an optional shaded y
 * interval, `points` the candidates ({ x, y (null when reverted), outcome, title, index, chosen, search, prefix,
 * marker }). What falls outside the domains is left out. `yFormat` turns a y tick into its label. `compare`: two
 * searches are drawn, each point and maxSize line says which (data-search).
 */
function drawChart(svg, { xLabel, yLabel, xDomain, yDomain, lines, vlines, band, points, compare, yFormat }) {
  clear(svg);
  const [xlo, xhi] = xDomain;
  const [y0, y1] = yDomain ?? extent([...points.filter((p) => p.y !== null).map((p) => p.y), ...lines.map((l) => l.y)]);
  const inX = (x) => x >= xlo && x <= xhi;
  const inY = (y) => y >= y0 && y <= y1;
  const shown = points.filter((p) => inX(p.x) && (p.y === null || inY(p.y)));
  const revertedBand = shown.some((p) => p.y === null);
  const width = 860;
  const height = 360;
  const margin = { left: 96, right: 190, top: revertedBand ? 52 : 22, bottom: 48 };
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const sx = (x) => margin.left + position(x, xlo, xhi, plotW);
  const sy = (y) => margin.top + plotH - position(y, y0, y1, plotH);

  const axes = el("g", { class: "axes" }, svg);
  el("rect", { x: margin.left, y: margin.top, width: plotW, height: plotH, class: "plot" }, axes);
  if (band) {
    const bandHigh = maxBig([band.from, band.to]);
    const bandLow = minBig([band.from, band.to]);
    const top = sy(bandHigh < y1 ? bandHigh : y1);
    const bottom = sy(bandLow > y0 ? bandLow : y0);
    if (bottom > top + 1) {
      el("rect", { x: margin.left, y: top, width: plotW, height: bottom - top, class: "band" }, axes);
      if (bottom - top > 14) text(axes, margin.left + plotW - 6, bottom - 5, band.label, { class: "band-label", "text-anchor": "end" });
    }
  }
  for (const t of ticks(y0, y1)) {
    el("line", { x1: margin.left, x2: margin.left + plotW, y1: sy(t), y2: sy(t), class: "grid" }, axes);
    text(axes, margin.left - 8, sy(t) + 4, yFormat(t), { class: "tick", "text-anchor": "end" });
  }
  // A zoom a few wei wide at a large size has long tick labels (2017.262233469234524764): label only as many
  // as fit side by side, the grid keeps every tick.
  const xTicks = ticks(xlo, xhi);
  const longest = Math.max(...xTicks.map((t) => formatD18(t).length));
  const every = Math.ceil(xTicks.length / Math.max(1, Math.floor(plotW / (longest * 6.5 + 16))));
  xTicks.forEach((t, i) => {
    const x = sx(t);
    el("line", { x1: x, x2: x, y1: margin.top, y2: margin.top + plotH, class: "grid" }, axes);
    if (i % every === 0) text(axes, x, margin.top + plotH + 18, formatD18(t), { class: "tick", "text-anchor": "middle" });
  });
  text(axes, margin.left + plotW / 2, height - 8, xLabel, { class: "axis-label", "text-anchor": "middle" });
  text(axes, 14, margin.top + plotH / 2, yLabel, {
    class: "axis-label",
    "text-anchor": "middle",
    transform: `rotate(-90 14 ${margin.top + plotH / 2})`,
  });

  const markers = el("g", { class: "markers" }, svg);
  const rightLabels = [];
  for (const line of lines) {
    if (!inY(line.y)) continue;
    const y = sy(line.y);
    el("line", { x1: margin.left, x2: margin.left + plotW, y1: y, y2: y, class: `bound ${line.kind}`, "data-bound": line.kind }, markers);
    rightLabels.push({ y: y + 4, line });
  }
  for (const { y, line } of spreadVertically(rightLabels)) text(markers, margin.left + plotW + 6, y, line.label, { class: `bound-label ${line.kind}` });
  let lastX = -Infinity;
  let row = 0;
  for (const line of [...vlines].filter((l) => inX(l.x)).sort((a, b) => (a.x < b.x ? -1 : 1))) {
    const x = sx(line.x);
    const which = line.search ? { "data-search": line.search } : {};
    el("line", { x1: x, x2: x, y1: margin.top, y2: margin.top + plotH, class: `vbound ${line.kind}`, "data-bound": line.kind, ...which }, markers);
    row = x - lastX < 90 ? row + 1 : 0;
    lastX = x;
    // Left of its line, unless that runs into the price ticks left of the plot (a line near size 0).
    const left = x - 4 - line.label.length * 6 >= margin.left;
    text(markers, left ? x - 4 : x + 4, margin.top + 12 + row * 13, line.label, { class: `bound-label ${line.kind}`, "text-anchor": left ? "end" : "start" });
  }
  if (revertedBand) text(markers, margin.left, 12, "reverted candidates (no price) are drawn above the plot", { class: "note-label" });

  // The order of each search, then the candidates on top, then their numbers where they fit.
  const placed = shown.map((p) => ({ ...p, cx: sx(p.x), cy: p.y !== null ? sy(p.y) : margin.top - 16 }));
  for (const search of new Set(placed.map((p) => p.search))) {
    const path = placed.filter((p) => p.search === search);
    if (path.length > 1) el("polyline", { points: path.map((p) => `${p.cx},${p.cy}`).join(" "), class: compare ? `path ${search}` : "path" }, markers);
  }
  const dots = el("g", { class: "candidates" }, svg);
  for (const p of placed) {
    if (p.chosen) el("circle", { cx: p.cx, cy: p.cy, r: 12, class: compare ? `chosen-ring ${p.search}` : "chosen-ring" }, dots);
    const colour = OUTCOMES[p.outcome]?.colour ?? "#000";
    const attributes = {
      class: `candidate ${p.outcome}${p.chosen ? " chosen" : ""}`,
      fill: p.y !== null ? colour : "#fff",
      stroke: colour,
      "data-index": p.index + 1,
      "data-outcome": p.outcome,
      ...(compare ? { "data-search": p.search } : {}),
    };
    const marker = p.marker === "diamond"
      ? el("path", { d: `M${p.cx},${p.cy - 8} L${p.cx + 8},${p.cy} L${p.cx},${p.cy + 8} L${p.cx - 8},${p.cy} Z`, ...attributes }, dots)
      : el("circle", { cx: p.cx, cy: p.cy, r: 6, ...attributes }, dots);
    el("title", {}, marker).textContent = p.title;
  }
  placeOrderLabels(el("g", { class: "orders" }, svg), placed, { x: margin.left - 4, y: 0, w: plotW + 8, h: margin.top + plotH + 4 });
  return shown.length;
}

/** A legend entry: a small SVG swatch drawn by `draw`, then its text. */
function legendItem(text, draw, search) {
  const item = document.createElement("li");
  const swatch = document.createElementNS(SVG, "svg");
  swatch.setAttribute("width", "12");
  swatch.setAttribute("height", "12");
  draw(swatch);
  item.append(swatch, ` ${text}`);
  if (search) item.dataset.search = search;
  return item;
}

function drawLegend(compare) {
  const legend = $("legend");
  clear(legend);
  for (const [key, { label, colour }] of Object.entries(OUTCOMES)) {
    legend.appendChild(legendItem(label, (svg) => el("circle", { cx: 6, cy: 6, r: 5, fill: key === "reverted" ? "#fff" : colour, stroke: colour }, svg)));
  }
  if (!compare) {
    const chosen = document.createElement("li");
    chosen.textContent = "◯ chosen size (maxSize)";
    legend.appendChild(chosen);
    return;
  }
  // Both searches on one chart: the marker's shape tells the search, its colour the outcome.
  legend.appendChild(legendItem("bisection's candidates (b1, b2, …)", (svg) => el("circle", { cx: 6, cy: 6, r: 5, fill: "#fff", stroke: "#1f2328" }, svg), "bisection"));
  legend.appendChild(legendItem("exact search's candidates (e1, e2, …)", (svg) => el("path", { d: "M6,0.5 L11.5,6 L6,11.5 L0.5,6 Z", fill: "#fff", stroke: "#1f2328" }, svg), "exact"));
  for (const [search, { colour }] of Object.entries(SEARCHES)) {
    legend.appendChild(legendItem(`${search}'s maxSize`, (svg) => el("circle", { cx: 6, cy: 6, r: 4.5, fill: "none", stroke: colour, "stroke-width": 2 }, svg), search));
  }
}

function candidateTitle(entry, index, search) {
  const lines = [`${search ? `${search} ` : ""}#${index + 1} size ${entry.size}`, `outcome: ${entry.outcome}`];
  if (entry.priceAfter) lines.push(`price after: ${entry.priceAfter}`);
  if (entry.fillPrice) lines.push(`fill price: ${entry.fillPrice}`);
  if (entry.requiredCollateral) lines.push(`required collateral: ${entry.requiredCollateral}`);
  if (entry.revert) lines.push(`revert: ${entry.revert}`);
  return lines.join("\n");
}

/** The market's price range, when a candidate's PoolPriceOutOfRange revert names it (sqrt prices). */
function rangeFromTrace(trace) {
  const entry = trace.find((e) => e.revert === "PoolPriceOutOfRange" && e.revertArgs && /^\d+$/.test(e.revertArgs.minPrice ?? "") && /^\d+$/.test(e.revertArgs.maxPrice ?? ""));
  if (!entry) return null;
  return [sqrtX96ToD18(BigInt(entry.revertArgs.minPrice)), sqrtX96ToD18(BigInt(entry.revertArgs.maxPrice))];
}

/**
 * Draws the search from the request and the answers: one (a 200 body or a search-failure 400 with a trace), or
 * the two of a comparison ({ search, body } each), whose candidates share the charts.
 */
function drawSearch(values, answers, compare) {
  const series = answers.map(({ search, body }) => ({ search, body: body ?? {}, trace: body && Array.isArray(body.trace) ? body.trace : [] }));
  const all = series.flatMap((s) => s.trace);
  $("charts").hidden = all.length === 0;
  if (all.length === 0) return;

  // The market's facts come from an answer that carries them (a 200), else from the request.
  const facts = series.find((s) => s.body.currentPrice !== undefined)?.body ?? series[0].body;
  const expected = parseD18(facts.expectedPrice ?? values.expectedPrice);
  const current = facts.currentPrice === undefined ? null : parseD18(facts.currentPrice);
  const isLong = facts.direction ? facts.direction === "LONG" : !all[0].size.startsWith("-");
  const limit = values.priceLimit ? parseD18(values.priceLimit) : current;
  const budget = parseInteger(facts.collateralAvailable ?? values.collateralAvailable);
  // The bisection's range ends at collateral / current price (semantics §4); without the price (a failed
  // search), its first candidate is the middle of the range. The exact search's first candidate says nothing.
  const firstHalving = series.find((s) => s.search === "bisection" && s.trace.length > 0)?.trace[0];
  const cap = current !== null && current > 0n && budget !== null ? (budget * E18) / current : firstHalving ? 2n * abs(BigInt(firstHalving.size)) : null;

  for (const s of series) {
    const chosenIndex = s.body.maxSize === undefined ? -1 : s.trace.findIndex((entry) => entry.size === s.body.maxSize);
    s.chosenIndex = chosenIndex;
    s.points = s.trace.map((entry, index) => ({
      x: abs(BigInt(entry.size)),
      y: entry.priceAfter === undefined ? null : parseD18(entry.priceAfter),
      outcome: entry.outcome,
      title: candidateTitle(entry, index, compare ? s.search : ""),
      index,
      chosen: index === chosenIndex,
      search: s.search,
      prefix: compare ? SEARCHES[s.search].prefix : "",
      marker: compare ? SEARCHES[s.search].marker : "circle",
      requiredCollateral: entry.requiredCollateral === undefined ? null : BigInt(entry.requiredCollateral),
    }));
  }
  const points = series.flatMap((s) => s.points);
  const xMax = maxBig([...(cap !== null ? [cap] : []), ...points.map((p) => p.x)]);
  const whole = [0n, xMax > 0n ? xMax + (xMax * 4n) / 100n : 1n];
  const chosenLines = series
    .filter((s) => s.chosenIndex >= 0)
    .map((s) => ({
      x: s.points[s.chosenIndex].x,
      label: compare ? `${s.search} maxSize` : "maxSize",
      kind: compare && s.search === "exact" ? "chosen-exact" : "chosen",
      search: compare ? s.search : undefined,
    }));

  const priceLines = [];
  if (expected !== null) priceLines.push({ y: expected, label: `expectedPrice ${formatD18(expected)}`, kind: "expected" });
  if (limit !== null) priceLines.push({ y: limit, label: `priceLimit ${formatD18(limit)}${values.priceLimit ? "" : " (current)"}`, kind: "limit" });
  if (current !== null && values.priceLimit && current !== limit) priceLines.push({ y: current, label: `current ${formatD18(current)}`, kind: "current" });
  // The exact search looks past the cap: for it the line only says where the bisection's range ends.
  const capLabel = series.some((s) => s.search === "exact") ? "budget cap (bisection's range)" : "budget cap";
  const vlines = [...(cap !== null ? [{ x: cap, label: capLabel, kind: "cap" }] : []), ...chosenLines];
  const band = expected !== null && limit !== null
    ? { from: limit, to: expected, label: isLong ? "feasible: priceLimit < price ≤ expectedPrice" : "feasible: expectedPrice ≤ price < priceLimit" }
    : undefined;
  const priceChart = {
    xLabel: `|size| in 10^18 wei${isLong ? "" : " (a SHORT: sizes are negative)"}`,
    yLabel: "price after the trade",
    lines: priceLines,
    vlines,
    band,
    points,
    compare,
    yFormat: formatD18,
  };
  drawChart($("price-chart"), { ...priceChart, xDomain: whole });

  // A bisection halves its interval at every step: the last steps are invisible at the scale of the first.
  // The zoom shows the second half of each search, with the price bounds; comparing, it is fitted to the
  // priced candidates and the answers, so that both maxSizes show even when one search's late steps reverted.
  const late = series.flatMap((s) => s.points.slice(Math.floor(s.points.length / 2)));
  const zoomable = points.length >= 4 && late.some((p) => p.y !== null);
  $("zoom").hidden = !zoomable;
  if (zoomable) {
    const zoomXs = compare ? [...late.filter((p) => p.y !== null), ...points.filter((p) => p.chosen)].map((p) => p.x) : late.map((p) => p.x);
    const [zx0, zx1] = extent(zoomXs, 15n);
    const yDomain = extent([...late.filter((p) => p.y !== null).map((p) => p.y), ...priceLines.map((l) => l.y)], 10n);
    const count = drawChart($("zoom-chart"), { ...priceChart, xDomain: [zx0, zx1], yDomain });
    const ranges = series
      .filter((s) => s.points.length > 0)
      .map((s) => `${compare ? `${s.search} ` : ""}#${Math.floor(s.points.length / 2) + 1} to #${s.points.length}`);
    $("zoom-note").textContent = `Candidates ${ranges.join(", ")} (${count} drawn), scaled to fit.`;
  }

  drawChart($("collateral-chart"), {
    xLabel: "|size| in 10^18 wei",
    yLabel: "required collateral (10^18 wei)",
    xDomain: whole,
    lines: budget !== null ? [{ y: budget, label: `budget ${formatD18(budget)} × 10^18`, kind: "budget" }] : [],
    vlines: chosenLines,
    points: points.map((p) => ({ ...p, y: p.requiredCollateral })),
    compare,
    yFormat: formatD18,
  });
  drawLegend(compare);

  $("chart-note").textContent = compare
    ? series.map((s) => `${s.search}: ${searchCounts(s.trace, s.chosenIndex, "")}`).join("; ") +
      ". Circles are the bisection's candidates, diamonds the exact search's, numbered b1, b2, … and e1, e2, … in search order. Hover a point for its exact values."
    : `${searchCounts(series[0].trace, series[0].chosenIndex, ", numbered in search order")}. Hover a point for its exact values.`;

  const tbody = $("trace-table").querySelector("tbody");
  clear(tbody);
  for (const s of series) {
    s.trace.forEach((entry, index) => {
      const row = tbody.insertRow();
      if (index === s.chosenIndex) row.className = "chosen";
      row.dataset.search = s.search;
      // Comparing, the number carries its search's prefix, as on the charts (b3, e3).
      const number = `${compare ? SEARCHES[s.search].prefix : ""}${index + 1}`;
      const cells = [number, entry.size, entry.outcome, entry.priceAfter, entry.fillPrice, entry.requiredCollateral, entry.revert];
      for (const value of cells) row.insertCell().textContent = value === undefined ? "" : String(value);
      row.cells[2].className = `outcome ${entry.outcome}`;
    });
  }
}

/** "10 candidates quoted<said>; 2 reverted; the chosen size is #10": one search's trace in a few words. */
function searchCounts(trace, chosenIndex, said) {
  const reverted = trace.filter((e) => e.priceAfter === undefined).length;
  const overBudget = trace.filter((e) => e.outcome === "over-budget").length;
  return (
    `${trace.length} candidate${trace.length === 1 ? "" : "s"} quoted${said}` +
    (reverted ? `; ${reverted} reverted` : "") +
    (overBudget ? `; ${overBudget} over budget` : "") +
    (chosenIndex >= 0 ? `; the chosen size is #${chosenIndex + 1}` : "; no size was chosen")
  );
}

// ---- the verdict, the market, the summary ------------------------------------------------------------------

/**
 * One sentence: which limit decided the answer. A 200 is decided by the smallest candidate above maxSize that
 * went too far (or by the budget's cap when none did); an error by its first detail, which the service writes.
 */
function verdict(status, body) {
  if (status === 200) {
    const size = abs(BigInt(body.maxSize));
    const trace = Array.isArray(body.trace) ? body.trace : [];
    const above = trace
      .filter((e) => TOO_LARGE.includes(e.outcome) && abs(BigInt(e.size)) > size)
      .sort((a, b) => (abs(BigInt(a.size)) < abs(BigInt(b.size)) ? -1 : 1))[0];
    const head = `A ${body.direction} of at most ${wei(size)} fits`;
    if (!above) {
      const cap = (BigInt(body.collateralAvailable) * E18) / parseD18(body.currentPrice);
      return ["budget", `${head}: the budget decided, since the search reached the top of the range that ${body.collateralAvailable} wei buys at the current price ${body.currentPrice} (${cap} wei of size).`];
    }
    const next = abs(BigInt(above.size));
    if (above.outcome === "beyond-expected") {
      return ["expectedPrice", `${head}: expectedPrice ${body.expectedPrice} decided, since the next size tried, ${next} wei, would move the price to ${above.priceAfter}, past it.`];
    }
    if (above.outcome === "over-budget") {
      return ["budget", `${head}: the budget decided, since the next size tried, ${next} wei, needs ${above.requiredCollateral} wei of collateral, more than the ${body.collateralAvailable} available.`];
    }
    return ["liquidity", `${head}: the market's liquidity decided, since the next size tried, ${next} wei, reverted (${above.revert ?? "no reason given"}).`];
  }
  const details = body && Array.isArray(body.details) ? body.details : [];
  const first = details[0];
  const error = body && body.error ? body.error : "Unexpected answer";
  // The exact search's details may say "no size fits" themselves: the sentence says it once.
  const reason = first ? first.message.replace(/^no size fits: /i, "") : null;
  if (error.startsWith("Insufficient liquidity")) return ["liquidity", `No size fits: ${reason ?? "the market's liquidity ends before the sizes tried"}.`];
  if (error.startsWith("Could not find a valid position size")) {
    const decided = { priceLimit: "priceLimit", expectedPrice: "expectedPrice", collateralAvailable: "budget", marketId: "market" }[first?.param] ?? "price";
    return [decided, `No size fits: ${reason ?? "no size tried met the price rules"}.`];
  }
  if (error === "Market is settled") return ["market", "The market is settled: no position can be opened on it any more."];
  return ["request", `Not quoted (${status} ${error})${first ? `: ${first.param} ${first.message}` : ""}.`];
}

/** The verdict of each answer: one sentence, or one line per search when comparing (coloured by the exact one's). */
function showVerdict(answers, compare) {
  const box = $("verdict");
  clear(box);
  let decidedLast = "";
  for (const { search, status, body } of answers) {
    const [decided, sentence] = verdict(status, body);
    decidedLast = decided;
    if (!compare) {
      box.textContent = sentence;
      continue;
    }
    const line = document.createElement("span");
    line.className = "line";
    line.dataset.search = search;
    line.dataset.decided = decided;
    line.textContent = `${search}: ${sentence}`;
    box.appendChild(line);
  }
  box.dataset.decided = decidedLast;
  box.hidden = false;
}

/**
 * The two answers side by side in one line, in BigInt: "exact: X wei; bisection: Y wei (Z% of exact: …)". A side
 * that found no size says its status and error, plainly.
 */
function comparison(bisection, exact) {
  const noSize = (answer) => `no size (${answer.status} ${answer.body && answer.body.error ? answer.body.error : "Unexpected answer"})`;
  const exactFound = exact.status === 200;
  const exactSide = !exactFound
    ? noSize(exact)
    : `${exact.body.maxSize} wei${exact.body.exact === false ? ` (the largest found, not proven: upperBound ${exact.body.upperBound})` : ""}`;
  if (bisection.status !== 200) {
    const tail = exactFound ? `, although the exact search ${exact.body.exact === false ? "finds" : "proves"} that ${exact.body.maxSize} wei fits` : ": neither search finds a size";
    return [exactFound ? "bisection-failed" : "neither", `exact: ${exactSide}; bisection: ${noSize(bisection)}${tail}.`];
  }
  if (!exactFound) return ["exact-failed", `exact: ${exactSide}; bisection: ${bisection.body.maxSize} wei.`];
  const found = abs(BigInt(bisection.body.maxSize));
  const best = abs(BigInt(exact.body.maxSize));
  const gap = best > found ? `: it leaves ${best - found} wei of size on the table` : best === found ? ": the same size" : `: ${found - best} wei more`;
  return ["both", `exact: ${exactSide}; bisection: ${bisection.body.maxSize} wei (${percentOf(found, best)} of exact${gap}).`];
}

function showComparison(bisection, exact) {
  const [outcome, line] = comparison(bisection, exact);
  $("comparison").textContent = line;
  $("comparison").dataset.outcome = outcome;
  $("comparison").hidden = false;
}

function fillList(list, rows) {
  clear(list);
  for (const [term, value, field] of rows) {
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.textContent = String(value);
    dd.dataset.field = field ?? term;
    list.append(dt, dd);
  }
}

/** What the answer tells of the market: price, range (when a revert names it), settled, collateral decimals. */
function showMarket(status, values, body) {
  const trace = body && Array.isArray(body.trace) ? body.trace : [];
  const range = rangeFromTrace(trace);
  const settled = body && body.error === "Market is settled";
  const searched = status === 200 || trace.length > 0;
  const rows = [
    ["market", `chain ${values.chainId}, group ${values.marketAddress}, id ${values.marketId}`, "market"],
    ["current price", body && body.currentPrice !== undefined ? body.currentPrice : "not in this answer (only a 200 carries it)", "currentPrice"],
    [
      "price range",
      range ? `about [${formatD18(roundSignificant(range[0]))}, ${formatD18(roundSignificant(range[1]))}] (from a PoolPriceOutOfRange revert)` : "not known: no candidate left it",
      "range",
    ],
    ["liquidity", "not readable through quotes: the trace shows where it ran out", "liquidity"],
    ["settled", settled ? "yes" : searched ? "no" : "not known", "settled"],
    [
      "collateral decimals",
      body && body.collateralDecimals !== undefined
        ? `${body.collateralDecimals} (maxCollateral ${body.maxCollateral} in token units)`
        : "not in this answer (only a 200 carries it)",
      "collateralDecimals",
    ],
  ];
  if (body && body.blockNumber !== undefined) rows.push(["block", body.blockNumber, "blockNumber"]);
  fillList($("market-list"), rows);
  $("market").hidden = false;
}

/** The answer's fields: one list, or, comparing, a table with a column per search (a failed one says why). */
function showSummary(answers, compare) {
  $("summary-list").hidden = compare;
  $("compare-table").hidden = !compare;
  if (compare) {
    if (answers.some((a) => a.ok)) showComparedAnswers(answers);
    return;
  }
  const [{ search, ok, body }] = answers;
  if (!ok) return;
  const size = BigInt(body.maxSize);
  const rows = [
    ["direction", body.direction],
    ["maxSize", `${body.maxSize} (${formatD18(size)} × 10^18)`],
    ["current price", body.currentPrice],
    ["expected price", body.expectedPrice],
    ["price after", body.priceAfter],
    ["fill price", body.fillPrice],
    ["required collateral", `${body.requiredCollateral} of ${body.collateralAvailable}`],
    ["block", body.blockNumber],
    ["iterations", body.iterations],
    ["search", search === "exact" ? "exact" : "bisection (interface default)", "search"],
  ];
  if (body.exact !== undefined) rows.push(["exact", proof(body), "exact"]);
  fillList($("summary-list"), rows);
  $("summary").hidden = false;
}

/** What search=exact's `exact` field says. */
function proof(body) {
  return body.exact ? "true: proven, maxSize fits and one wei more does not" : `false: the largest size found within the candidate limit; upperBound ${body.upperBound}`;
}

function showComparedAnswers(answers) {
  const rows = [
    ["answer", (a) => (a.ok ? `${a.status}` : `${a.status} ${a.body && a.body.error ? a.body.error : "Unexpected answer"}`), "status"],
    ["maxSize", (a) => `${a.body.maxSize} (${formatD18(BigInt(a.body.maxSize))} × 10^18)`, "maxSize"],
    ["price after", (a) => a.body.priceAfter, "priceAfter"],
    ["fill price", (a) => a.body.fillPrice, "fillPrice"],
    ["required collateral", (a) => a.body.requiredCollateral, "requiredCollateral"],
    ["candidates quoted", (a) => a.body.iterations, "iterations"],
    ["proven largest", (a) => (a.body.exact === undefined ? "no: the answer is a bisection step" : proof(a.body)), "exact"],
  ];
  const tbody = $("compare-table").querySelector("tbody");
  clear(tbody);
  for (const [term, value, field] of rows) {
    const row = tbody.insertRow();
    row.insertCell().textContent = term;
    for (const answer of answers) {
      const cell = row.insertCell();
      // A failed answer has only its status: the rest of its column stays empty.
      cell.textContent = answer.ok || field === "status" ? String(value(answer)) : "";
      cell.dataset.search = answer.search;
      cell.dataset.field = field;
    }
  }
  $("summary").hidden = false;
}

/** Each failed answer's status, error and details; comparing, the title names the search. */
function showErrors(failures, compare) {
  const section = $("error");
  clear(section);
  failures.forEach(({ search, status, body }, index) => {
    const title = document.createElement("h2");
    title.textContent = `${compare ? `${search}: ` : ""}${status} ${body && body.error ? body.error : "Unexpected answer"}`;
    const details = document.createElement("ul");
    if (index === 0) {
      title.id = "error-title";
      details.id = "error-details";
    }
    title.dataset.search = search;
    for (const detail of (body && Array.isArray(body.details) ? body.details : [])) {
      const item = document.createElement("li");
      const param = document.createElement("code");
      param.textContent = detail.param;
      item.append(param, `: ${detail.message}`);
      details.appendChild(item);
    }
    section.append(title, details);
  });
  section.hidden = failures.length === 0;
}

/** The request as a shell command: single quotes, with any single quote in it escaped for the shell. */
function curlLine(url) {
  const absolute = new URL(url, window.location.origin).href;
  return `curl '${absolute.replace(/'/g, "'\\''")}'`;
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

async function run(event) {
  if (event) event.preventDefault();
  const values = readForm();
  // Comparing sends the same request with each search, at once.
  const requests = (values.compare ? ["bisection", "exact"] : [values.search]).map((search) => ({ search, url: quoteUrl(values, search) }));
  const button = $("run");
  button.disabled = true;
  button.textContent = "Quoting…";
  for (const id of ["error", "summary", "charts", "raw", "comparison", "verdict", "market"]) $(id).hidden = true;
  $("request").hidden = false;
  $("curl-line").textContent = requests.map(({ url }) => curlLine(url)).join("\n");
  $("status").textContent = "…";
  $("status").className = "status";
  document.body.dataset.state = "loading";
  window.history.replaceState(null, "", `?${pageQuery(values)}`);

  const started = performance.now();
  try {
    const answers = await Promise.all(requests.map(async (request) => ({ ...request, ...(await fetchAnswer(request.url)) })));
    const ms = Math.round(performance.now() - started);
    const found = answers.filter((a) => a.ok);
    $("status").textContent = `${answers.map((a) => (values.compare ? `${a.search} ${a.status}` : `${a.status}`)).join(" · ")} · ${ms} ms`;
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
  } catch (error) {
    // A bug of this page, not an answer: say so rather than leave it loading.
    showErrors([{ search: "page", status: "page error", body: { error: String(error && error.message ? error.message : error) } }], false);
    document.body.dataset.state = "failed";
  } finally {
    button.disabled = false;
    button.textContent = "Quote";
  }
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
  $("priceLimit").value = priceLimit;
  $("maxIterations").value = "";
  showBudgetUnits();
}

/** Comparing sends both searches: the choice of one has no effect then. */
function showSearchChoice() {
  for (const id of ["search-bisection", "search-exact"]) $(id).disabled = $("compare").checked;
}

function init() {
  const query = new URLSearchParams(window.location.search);
  for (const name of FIELDS) if (query.has(name)) $(name).value = query.get(name);
  $("search-exact").checked = query.get("search") === "exact";
  $("search-bisection").checked = !$("search-exact").checked;
  $("compare").checked = query.get("compare") === "true";
  showSearchChoice();
  showBudgetUnits();
  $("compare").addEventListener("change", showSearchChoice);
  $("collateralAvailable").addEventListener("input", showBudgetUnits);
  $("preset").addEventListener("change", applyPreset);
  $("quote-form").addEventListener("submit", run);
  $("copy-curl").addEventListener("click", copyCurl);
  document.body.dataset.state = "ready";
  // A first look needs no click: the prefilled (or linked) quote runs at once.
  run();
}

init();
