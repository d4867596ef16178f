// The liquidity tab's picture: the market's price axis from its lowest to its highest price, the position's range as
// a band on it, and the current price as a line across, so that an LP sees at a glance whether the range holds the
// price (both tokens), lies above it (base tokens only) or below it (quote tokens only). The prices are BigInts of
// 10^-18 units; only the final pixel becomes a Number (chart.js's `position`).
import { position } from "./chart.js";
import { clear, el, text } from "./dom.js";
import { parseD18 } from "./numbers.js";

const WIDTH = 860;
const HEIGHT = 130;
const LEFT = 24;
const AXIS_W = WIDTH - 2 * LEFT;
const AXIS_Y = 78;

/**
 * Draws `axis` ({ min, max, known }: price texts, `known` false when the market's bounds could not be had and the
 * axis only spans the range and the price) with `range` ({ lower, upper, current }: the answer's price texts).
 */
export function drawRange(svg, axis, range) {
  clear(svg);
  svg.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
  const [low, high] = [parseD18(axis.min), parseD18(axis.max)];
  const x = (price) => LEFT + position(parseD18(price), low, high, AXIS_W);
  const band = el("rect", { x: x(range.lower), y: AXIS_Y - 22, width: Math.max(1, x(range.upper) - x(range.lower)), height: 44, class: "range-band", "data-lower": range.lower, "data-upper": range.upper }, svg);
  el("title", {}, band).textContent = `the range: ${range.lower} to ${range.upper}`;
  el("line", { x1: LEFT, x2: LEFT + AXIS_W, y1: AXIS_Y, y2: AXIS_Y, class: "range-axis", "data-min": axis.min, "data-max": axis.max }, svg);
  const now = el("line", { x1: x(range.current), x2: x(range.current), y1: AXIS_Y - 36, y2: AXIS_Y + 30, class: "range-current", "data-price": range.current }, svg);
  el("title", {}, now).textContent = `the current price: ${range.current}`;
  const bounds = axis.known ? "the market's" : "(the market's bounds not known)";
  text(svg, LEFT, HEIGHT - 4, `${axis.known ? "min " : ""}${axis.min}`, { class: "range-label axis-min", "text-anchor": "start" });
  text(svg, LEFT + AXIS_W, HEIGHT - 4, `${axis.known ? "max " : ""}${axis.max}`, { class: "range-label axis-max", "text-anchor": "end" });
  text(svg, WIDTH / 2, HEIGHT - 4, `price axis: ${bounds} range`, { class: "range-label", "text-anchor": "middle" });
  text(svg, x(range.lower), AXIS_Y - 28, range.lower, { class: "range-label lower", "text-anchor": "end" });
  text(svg, x(range.upper), AXIS_Y - 28, range.upper, { class: "range-label upper", "text-anchor": "start" });
  text(svg, x(range.current), 14, `current ${range.current}`, { class: "range-label current", "text-anchor": "middle" });
}
