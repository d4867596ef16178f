// What the explorer says of the answers: the verdict (which limit decided), the comparison of the two searches,
// the market's facts, the answer's fields, and each error with its details.
import { $, clear } from "./dom.js";
import { abs, formatD18, percentOf, priceD18FromSqrtX96Nearest, roundSignificant, wei } from "./numbers.js";


/** The market's price range, when a candidate's PoolPriceOutOfRange revert names it (sqrt prices). */
function rangeFromTrace(trace) {
  const entry = trace.find((e) => e.revert === "PoolPriceOutOfRange" && e.revertArgs && /^\d+$/.test(e.revertArgs.minPrice ?? "") && /^\d+$/.test(e.revertArgs.maxPrice ?? ""));
  if (!entry) return null;
  return [priceD18FromSqrtX96Nearest(BigInt(entry.revertArgs.minPrice)), priceD18FromSqrtX96Nearest(BigInt(entry.revertArgs.maxPrice))];
}

/** What stopped the position from being larger (the answer's limitedBy), in a trader's words. */
export function whyNotMore(body) {
  const words = {
    collateral: "more collateral would buy more",
    expectedPrice: `the price would pass ${body.expectedPrice}`,
    liquidity: "the market cannot fill more",
    search: "the exact search ran out of candidates before it proved the largest size",
  };
  return words[body.limitedBy] ?? `not said (limitedBy ${body.limitedBy})`;
}

/** The limit that decided a 200, as the verdict's data-decided names it. */
const DECIDED = { collateral: "budget", expectedPrice: "expectedPrice", liquidity: "liquidity", search: "search" };

/**
 * One sentence: which limit decided the answer. A 200 is decided by its limitedBy alone (the service's reading of its
 * search), an error by its first detail, which the service writes.
 */
function verdict(status, body) {
  if (status === 200) {
    const head = `A ${body.direction} of at most ${wei(abs(BigInt(body.maxSize)))} fits`;
    const decided = DECIDED[body.limitedBy] ?? "request";
    switch (body.limitedBy) {
      case "expectedPrice":
        return [decided, `${head}: expectedPrice ${body.expectedPrice} decided, since a larger size would move the price past it.`];
      case "collateral":
        return [decided, `${head}: the budget decided, since a larger size would need more than the ${body.collateralAvailable} wei of collateral available.`];
      case "liquidity":
        return [decided, `${head}: the market's liquidity decided, since it cannot fill a larger size.`];
      case "search":
        return [decided, `${head}: the search decided, since it ran out of candidates before it proved the largest size${body.upperBound ? `; the largest lies below ${wei(abs(BigInt(body.upperBound)))}` : ""}.`];
      default:
        return [decided, `${head} (limitedBy ${body.limitedBy}).`];
    }
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
export function showVerdict(answers, compare) {
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

export function showComparison(bisection, exact) {
  const [outcome, line] = comparison(bisection, exact);
  $("comparison").textContent = line;
  $("comparison").dataset.outcome = outcome;
  $("comparison").hidden = false;
}

/** A definition list of [term, value, field] rows, each value's `dd` named by its field (data-field). */
export function fillList(list, rows) {
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
export function showMarket(status, values, body) {
  const trace = body && Array.isArray(body.trace) ? body.trace : [];
  const range = rangeFromTrace(trace);
  const settled = body && body.error === "Market is settled";
  const searched = status === 200 || trace.length > 0;
  const rows = [
    ["market", `chain ${values.chainId}, group ${values.marketAddress}, id ${values.marketId}`, "market"],
    ["current price", body && body.currentPrice !== undefined ? body.currentPrice : "not in this answer (only a 200 carries it)", "currentPrice"],
    [
      "price range",
      range ? `about [${formatD18(roundSignificant(range[0]))}, ${formatD18(roundSignificant(range[1]))}] (from a PoolPriceOutOfRange revert)` : "not known: no size tried left it",
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
  if (body && body.blockNumber !== undefined) {
    rows.push(["block", body.blockHash ? `${body.blockNumber} (${body.blockHash})` : body.blockNumber, "blockNumber"]);
  }
  fillList($("market-list"), rows);
  $("market").hidden = false;
}

/** The answer's fields: one list, or, comparing, a table with a column per search (a failed one says why). */
export function showSummary(answers, compare) {
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
    ["why not more", whyNotMore(body), "limitedBy"],
    ["block", `${body.blockNumber} (${body.blockHash})`],
    ["iterations", body.iterations],
    ["search", search === "exact" ? "exact" : "bisection (interface default)", "search"],
  ];
  if (body.exact !== undefined) rows.push(["exact", proof(body), "exact"]);
  fillList($("summary-list"), rows);
  $("summary").hidden = false;
}

/** What search=exact's `exact` field says. */
function proof(body) {
  return body.exact ? "true: proven, maxSize fits and one wei more does not" : `false: the largest size found within the limit of sizes tried; upperBound ${body.upperBound}`;
}

function showComparedAnswers(answers) {
  const rows = [
    ["answer", (a) => (a.ok ? `${a.status}` : `${a.status} ${a.body && a.body.error ? a.body.error : "Unexpected answer"}`), "status"],
    ["maxSize", (a) => `${a.body.maxSize} (${formatD18(BigInt(a.body.maxSize))} × 10^18)`, "maxSize"],
    ["price after", (a) => a.body.priceAfter, "priceAfter"],
    ["fill price", (a) => a.body.fillPrice, "fillPrice"],
    ["required collateral", (a) => a.body.requiredCollateral, "requiredCollateral"],
    ["why not more", (a) => whyNotMore(a.body), "limitedBy"],
    ["sizes tried", (a) => a.body.iterations, "iterations"],
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
export function showErrors(failures, compare) {
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
