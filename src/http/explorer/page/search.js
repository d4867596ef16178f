// The search drawn: each search's candidates on the price chart, its last steps zoomed in, required collateral
// against the budget, the legend, a note in words and the table of every candidate.
import { $, clear, el } from "./dom.js";
import { OUTCOMES, drawChart, extent } from "./chart.js";
import { E18, abs, formatD18, maxBig, parseD18, parseInteger } from "./numbers.js";

/** How each search is drawn when both are compared on one chart (candidates keep their outcome's colour). */
const SEARCHES = {
  bisection: { prefix: "b", marker: "circle", colour: "#8250df" },
  exact: { prefix: "e", marker: "diamond", colour: "#1b7c83" },
};

/** A legend entry: a small SVG swatch drawn by `draw`, then its text. */
function legendItem(text, draw, search) {
  const item = document.createElement("li");
  const swatch = el("svg", { width: "12", height: "12" });
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
  legend.appendChild(legendItem("sizes the bisection tried (b1, b2, …)", (svg) => el("circle", { cx: 6, cy: 6, r: 5, fill: "#fff", stroke: "#1f2328" }, svg), "bisection"));
  legend.appendChild(legendItem("sizes the exact search tried (e1, e2, …)", (svg) => el("path", { d: "M6,0.5 L11.5,6 L6,11.5 L0.5,6 Z", fill: "#fff", stroke: "#1f2328" }, svg), "exact"));
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

/**
 * Draws the search from the request and the answers: one (a 200 body or a search-failure 400 with a trace), or
 * the two of a comparison ({ search, body } each), whose candidates share the charts.
 */
export function drawSearch(values, answers, compare) {
  const series = answers.map(({ search, body }) => ({ search, body: body ?? {}, trace: body && Array.isArray(body.trace) ? body.trace : [] }));
  const all = series.flatMap((s) => s.trace);
  $("charts").hidden = all.length === 0;
  if (all.length === 0) return;

  const market = marketOf(values, series, all);
  for (const s of series) plotSeries(s, compare);
  const points = series.flatMap((s) => s.points);
  const xMax = maxBig([...(market.cap !== null ? [market.cap] : []), ...points.map((p) => p.x)]);
  const whole = [0n, xMax > 0n ? xMax + (xMax * 4n) / 100n : 1n];
  const chosenLines = series
    .filter((s) => s.chosenIndex >= 0)
    .map((s) => ({
      x: s.points[s.chosenIndex].x,
      label: compare ? `${s.search} maxSize` : "maxSize",
      kind: compare && s.search === "exact" ? "chosen-exact" : "chosen",
      search: compare ? s.search : undefined,
    }));
  drawPriceCharts(values, series, market, { points, whole, chosenLines, compare });
  drawChart($("collateral-chart"), {
    xLabel: "|size| in 10^18 wei",
    yLabel: "required collateral (10^18 wei)",
    xDomain: whole,
    lines: market.budget !== null ? [{ y: market.budget, label: `budget ${formatD18(market.budget)} × 10^18`, kind: "budget" }] : [],
    vlines: chosenLines,
    points: points.map((p) => ({ ...p, y: p.requiredCollateral })),
    compare,
    yFormat: formatD18,
  });
  drawLegend(compare);

  $("chart-note").textContent = compare
    ? series.map((s) => `${s.search}: ${searchCounts(s.trace, s.chosenIndex, "")}`).join("; ") +
      ". Circles are the sizes the bisection tried, diamonds the exact search's, numbered b1, b2, … and e1, e2, … in search order. Hover a point for its exact values."
    : `${searchCounts(series[0].trace, series[0].chosenIndex, ", numbered in search order")}. Hover a point for its exact values.`;
  fillTraceTable(series, compare);
}

/** What the charts need of the market: the prices, the side, the budget and the bisection's cap on the size. */
function marketOf(values, series, all) {
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
  return { expected, current, isLong, limit, budget, cap };
}

/** One search's candidates as points of the charts, and which of them is its answer. */
function plotSeries(s, compare) {
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

/** Size against the price after the trade, with the price bounds and the feasible band; then its last steps. */
function drawPriceCharts(values, series, { expected, current, isLong, limit, cap }, { points, whole, chosenLines, compare }) {
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
  if (!zoomable) return;
  const zoomXs = compare ? [...late.filter((p) => p.y !== null), ...points.filter((p) => p.chosen)].map((p) => p.x) : late.map((p) => p.x);
  const [zx0, zx1] = extent(zoomXs, 15n);
  const yDomain = extent([...late.filter((p) => p.y !== null).map((p) => p.y), ...priceLines.map((l) => l.y)], 10n);
  const count = drawChart($("zoom-chart"), { ...priceChart, xDomain: [zx0, zx1], yDomain });
  const ranges = series
    .filter((s) => s.points.length > 0)
    .map((s) => `${compare ? `${s.search} ` : ""}#${Math.floor(s.points.length / 2) + 1} to #${s.points.length}`);
  $("zoom-note").textContent = `Sizes ${ranges.join(", ")} (${count} drawn), scaled to fit.`;
}

/** Every candidate of each search, one row each, the answer's marked. */
function fillTraceTable(series, compare) {
  const tbody = $("trace-table").querySelector("tbody");
  clear(tbody);
  for (const s of series) {
    s.trace.forEach((entry, index) => {
      const row = tbody.insertRow();
      if (index === s.chosenIndex) row.className = "chosen";
      row.dataset.search = s.search;
      // Comparing, the number carries its search's prefix, as on the charts (b3, e3).
      const number = `${compare ? SEARCHES[s.search].prefix : ""}${index + 1}`;
      const result = OUTCOMES[entry.outcome]?.label ?? entry.outcome;
      const cells = [number, entry.size, result, entry.priceAfter, entry.fillPrice, entry.requiredCollateral, entry.revert];
      for (const value of cells) row.insertCell().textContent = value === undefined ? "" : String(value);
      row.cells[2].className = `outcome ${entry.outcome}`;
      row.cells[2].dataset.outcome = entry.outcome;
    });
  }
}

/** "10 candidates quoted<said>; 2 reverted; the chosen size is #10": one search's trace in a few words. */
function searchCounts(trace, chosenIndex, said) {
  const reverted = trace.filter((e) => e.priceAfter === undefined).length;
  const overBudget = trace.filter((e) => e.outcome === "over-budget").length;
  return (
    `${trace.length} size${trace.length === 1 ? "" : "s"} tried${said}` +
    (reverted ? `; ${reverted} failed on chain` : "") +
    (overBudget ? `; ${overBudget} cost more than the budget` : "") +
    (chosenIndex >= 0 ? `; the chosen size is #${chosenIndex + 1}` : "; no size was chosen")
  );
}
