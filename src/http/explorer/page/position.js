// The explorer's position tab: a held position's quote (GET …/positions/{positionId}) through the client's
// quotePosition, or its live stream through `watch`. The market id field names the position then. It shows the
// verdict, the position (its owner, size, market, and its PnL if closed at the trade's price), what the largest trade
// does to it (its new size, the collateral it moves in or out, the modify's limit), the candidates tried, and, with a
// taker who owns it, the modifyTraderPosition transaction to sign. Every number stays a BigInt, as elsewhere.
import { showErrors, showVerdict, whyNotMore, fillList } from "./answers.js";
import { outcome, quoter } from "./api.js";
import { curlLine } from "./curl.js";
import { $, clear } from "./dom.js";
import { startLive } from "./live.js";
import { abs, formatD18 } from "./numbers.js";
import { offerSigning } from "./sign.js";

/** The position's quote request from the form: the market id field holds the position's id. */
export function positionRequest(values) {
  const quote = { chainId: values.chainId, marketAddress: values.marketAddress, positionId: values.marketId };
  for (const name of ["expectedPrice", "collateralAvailable", "priceLimit", "taker", "slippageBps", "deadlineSeconds"]) if (values[name]) quote[name] = values[name];
  if (quote.collateralAvailable === undefined) quote.collateralAvailable = values.collateralAvailable;
  quote.search = values.search;
  quote.trace = "true";
  return { search: values.search, quote, options: values.minBlock ? { minBlock: values.minBlock } : {} };
}

/** Quotes the held position once, or live, and shows each answer; `done` when the first is shown. */
export async function runHeld(values) {
  const request = positionRequest(values);
  $("curl-line").textContent = curlLine(quoter.positionUrl(request.quote, request.options), values.live);
  if (values.live) {
    startLive(request, {
      onAnswer: (answer) => showHeld({ ...request, ...answer }, `live · block ${answer.block ?? "–"} · ${answer.status}`),
      onReconnecting: ({ reason }) => ($("status").textContent = `reconnecting (${reason})`),
      onEnd: (reason) => ($("status").textContent = `${$("status").textContent} · stream ended (${reason})`),
    });
    return;
  }
  const started = performance.now();
  const answer = { ...request, ...(await outcome(() => quoter.quotePosition(request.quote, request.options))) };
  showHeld(answer, `${answer.status} · ${Math.round(performance.now() - started)} ms`);
}

/** Tokens of a signed wei amount: "-484.474722877370501564 × 10^18 wei". */
const tokens = (value) => `${formatD18(BigInt(value))} × 10^18`;

/** Which way the collateral moves, in the trader's words. */
function moved(delta) {
  const value = BigInt(delta);
  if (value > 0n) return `${delta} wei in (deposited: ${tokens(delta)})`;
  if (value < 0n) return `${abs(value)} wei back to the trader (${tokens(-value)})`;
  return "none";
}

function showHeld(answer, statusText) {
  const { ok, body } = answer;
  $("status").textContent = statusText;
  $("status").className = `status ${ok ? "ok" : "failed"}`;
  $("raw-body").textContent = JSON.stringify(body, null, 2);
  $("raw").hidden = false;
  showVerdict([answer], false);
  showErrors(ok ? [] : [answer], false);
  $("position").hidden = !ok;
  offerSigning("position", ok ? body : undefined, answer.quote.chainId);
  document.body.dataset.state = ok ? "done" : "failed";
  if (!ok) return;
  const turned = BigInt(body.currentSize) !== 0n && BigInt(body.targetSize) !== 0n && BigInt(body.currentSize) > 0n !== BigInt(body.targetSize) > 0n;
  fillList($("position-list"), [
    ["position", `${body.positionId} (market ${body.marketId})`, "positionId"],
    ["owner", body.owner, "owner"],
    ["its size", `${body.currentSize} (${tokens(body.currentSize)}: ${BigInt(body.currentSize) >= 0n ? "long" : "short"})`, "currentSize"],
    ["PnL if closed at the trade's price", `${body.closePnL} wei (${tokens(body.closePnL)})`, "closePnL"],
    ["the largest trade", `${body.direction === "LONG" ? "buy" : "sell"} ${abs(BigInt(body.maxSize))} (${body.maxSize})`, "maxSize"],
    ["size after it", `${body.targetSize}${BigInt(body.targetSize) === 0n ? " (closed)" : turned ? " (turned around)" : ""}`, "targetSize"],
    ["collateral", moved(body.collateralDelta), "collateralDelta"],
    ["the modify's limit (token units)", body.collateralDeltaLimit, "collateralDeltaLimit"],
    ["price now, after", `${body.currentPrice} → ${body.priceAfter} (fill ${body.fillPrice})`, "priceAfter"],
    ["why not more", whyNotMore(body), "limitedBy"],
    ["block", `${body.blockNumber} (${body.blockHash})`, "blockNumber"],
  ]);
  fillTrace(body.trace ?? []);
  fillList($("position-trade"), body.trade ? tradeRows(body.trade) : [["trade", "ask with the owner as taker for the modifyTraderPosition transaction", "trade"]]);
}

/** Every candidate trade: its outcome, the price it leaves, the collateral it moves, the PnL if closed. */
function fillTrace(trace) {
  const tbody = $("position-trace").querySelector("tbody");
  clear(tbody);
  trace.forEach((entry, index) => {
    const row = tbody.insertRow();
    for (const cell of [index + 1, entry.size, entry.outcome, entry.priceAfter ?? "", entry.collateralDelta ?? "", entry.closePnL ?? "", entry.revert ?? ""]) row.insertCell().textContent = String(cell);
  });
}

function tradeRows(trade) {
  const simulation = trade.simulation.ok === true ? `succeeds (gas ${trade.simulation.gas ?? "?"})` : trade.simulation.ok === false ? `reverts ${trade.simulation.revert}` : `not run: ${trade.simulation.reason}`;
  return [
    ["transaction", `modifyTraderPosition to ${trade.transaction.to}, data ${trade.transaction.data.slice(0, 10)}…`, "transaction"],
    ["deltaCollateralLimit", trade.collateralLimit, "collateralLimit"],
    ["deadline", trade.deadline, "deadline"],
    ["approval first", trade.approval ? `approve ${trade.approval.transaction.to} for ${trade.collateralLimit}` : "none needed", "approval"],
    ["simulated", simulation, "simulation"],
  ];
}
