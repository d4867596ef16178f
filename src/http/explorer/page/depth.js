// The depth curve beside an answer: how the largest size grows as the trader accepts a worse price, from the
// current price to the answer's expectedPrice. One request to the depth ladder (10 levels spaced to expectedPrice,
// each the exact search at that price, all at one block), drawn as size against price with the answer's own size.
import { quoter } from "./api.js";
import { $ } from "./dom.js";
import { drawChart, extent } from "./chart.js";
import { abs, formatD18, maxBig, parseD18 } from "./numbers.js";

const LEVELS = 10;

/** The ladder of an answer, for the client: its market (`request.quote`'s) and budget, levels to its expectedPrice. */
function ladderOf(request, body) {
  const { chainId, marketAddress, marketId, taker } = request.quote;
  const ladder = { chainId, marketAddress, marketId, collateralAvailable: body.collateralAvailable, to: body.expectedPrice, levels: String(LEVELS) };
  return taker ? { ...ladder, taker } : ladder;
}

/**
 * Asks for and draws the ladder of a 200 answer (`request.quote` its quote); hides the section otherwise. The
 * ladder is asked at the answer's block or later (minBlock), and says its own block.
 */
export async function showDepth(request, answer) {
  const section = $("depth");
  section.hidden = true;
  if (!answer || answer.status !== 200 || !answer.body || answer.body.maxSize === undefined) return;
  const asked = ladderOf(request, answer.body);
  const options = { minBlock: answer.body.blockNumber };
  const url = quoter.depthUrl(asked, options);
  let ladder;
  try {
    ladder = await quoter.depth(asked, options);
  } catch {
    return;
  }
  const levels = ladder.levels.filter((level) => level.maxSize !== undefined);
  if (levels.length === 0) return;
  const points = levels.map((level, index) => ({
    x: abs(BigInt(level.maxSize)),
    y: parseD18(level.expectedPrice),
    outcome: "feasible",
    title: `expectedPrice ${level.expectedPrice}\nlargest size ${level.maxSize}\nprice after ${level.priceAfter}\nrequired collateral ${level.requiredCollateral}`,
    index,
    chosen: false,
    search: "exact",
    prefix: "",
    marker: "circle",
  }));
  const size = abs(BigInt(answer.body.maxSize));
  const xMax = maxBig([size, ...points.map((p) => p.x)]);
  const current = parseD18(ladder.currentPrice);
  drawChart($("depth-chart"), {
    xLabel: "largest |size| in 10^18 wei",
    yLabel: "expectedPrice",
    xDomain: [0n, xMax + (xMax * 4n) / 100n || 1n],
    yDomain: extent([current, ...points.map((p) => p.y)]),
    lines: [{ y: current, label: `current ${formatD18(current)}`, kind: "current" }],
    vlines: [{ x: size, label: "this answer's size", kind: "chosen" }],
    points,
    compare: false,
    yFormat: formatD18,
  });
  $("depth-note").textContent =
    `The exact largest size at ${levels.length} prices from the current price ${ladder.currentPrice} to ${answer.body.expectedPrice}, ` +
    `all at block ${ladder.blockNumber} (one request: ${url}).`;
  section.hidden = false;
}
