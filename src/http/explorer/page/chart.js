// One chart of the explorer, drawn as SVG: candidates (size against a price or an amount), the bounds as lines,
// the feasible band. Every coordinate is computed in BigInt; only the final, small pixel becomes a Number.
import { clear, el, text } from "./dom.js";
import { placeOrderLabels, spreadVertically } from "./labels.js";
import { E18, abs, formatD18, maxBig, minBig } from "./numbers.js";

/** Each candidate outcome's name and colour, on the charts and in the legend. */
export const OUTCOMES = {
  feasible: { label: "fills", colour: "#1a7f37" },
  "short-of-limit": { label: "moves the price too little (priceLimit)", colour: "#0969da" },
  "beyond-expected": { label: "moves the price past expected", colour: "#cf222e" },
  "over-budget": { label: "costs more than the budget", colour: "#bc4c00" },
  reverted: { label: "fails on chain", colour: "#6e7781" },
};

/** Where `value` falls between `low` and `high` on `pixels`: BigInt arithmetic, a Number only at the end. */
export function position(value, low, high, pixels) {
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
export function extent(values, pad = 6n) {
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

/**
 * One chart: x is |size| in wei, y a price (10^-18 units) or an amount (wei); all BigInt. `lines` are horizontal
 * markers ({ y, label, kind }), `vlines` vertical ones ({ x, label, kind, search? }), `band` an optional shaded y
 * interval, `points` the candidates ({ x, y (null when reverted), outcome, title, index, chosen, search, prefix,
 * marker }). What falls outside the domains is left out. `yFormat` turns a y tick into its label. `compare`: two
 * searches are drawn, each point and maxSize line says which (data-search).
 */
export function drawChart(svg, chart) {
  clear(svg);
  const frame = frameOf(svg, chart);
  drawAxes(el("g", { class: "axes" }, svg), frame, chart);
  const markers = el("g", { class: "markers" }, svg);
  drawBounds(markers, frame, chart);
  // The order of each search, then the candidates on top, then their numbers where they fit.
  const placed = frame.shown.map((p) => ({ ...p, cx: frame.sx(p.x), cy: p.y !== null ? frame.sy(p.y) : frame.margin.top - 16 }));
  for (const search of new Set(placed.map((p) => p.search))) {
    const path = placed.filter((p) => p.search === search);
    if (path.length > 1) el("polyline", { points: path.map((p) => `${p.cx},${p.cy}`).join(" "), class: chart.compare ? `path ${search}` : "path" }, markers);
  }
  drawCandidates(el("g", { class: "candidates" }, svg), placed, chart.compare);
  const { margin, plotW, plotH } = frame;
  placeOrderLabels(el("g", { class: "orders" }, svg), placed, { x: margin.left - 4, y: 0, w: plotW + 8, h: margin.top + plotH + 4 });
  return frame.shown.length;
}

/** The chart's domains, the candidates inside them, its size and margins, and the scales from values to pixels. */
function frameOf(svg, { xDomain, yDomain, lines, points }) {
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
  return { xlo, xhi, y0, y1, inX, inY, shown, revertedBand, height, margin, plotW, plotH, sx, sy };
}

/** The plot's frame, the feasible band, the grid with its tick labels, and the axes' names. */
function drawAxes(axes, { xlo, xhi, y0, y1, height, margin, plotW, plotH, sx, sy }, { xLabel, yLabel, band, yFormat }) {
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
}

/** The horizontal bounds with their names at the right, the vertical ones (cap, maxSize) named along the top. */
function drawBounds(markers, { inX, inY, revertedBand, margin, plotW, plotH, sx, sy }, { lines, vlines }) {
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
  if (revertedBand) text(markers, margin.left, 12, "sizes that fail on chain (no price) are drawn above the plot", { class: "note-label" });
}

/** Each candidate: a circle (a diamond for the exact search's when comparing), filled unless it reverted. */
function drawCandidates(dots, placed, compare) {
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
}
