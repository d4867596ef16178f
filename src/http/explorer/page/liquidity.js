// The explorer's liquidity tab: a new liquidity position's quote (GET …/{marketId}/liquidity) through the client's
// quoteLiquidity, or its live stream through `watch`. It draws the range on the market's price axis with the current
// price (range.js), says what the budget mints (the largest liquidity, proven, and what its mint takes), sets the
// market group's own quote beside it (whether it fits the budget, and what it leaves unused when it does), and, with
// a taker, shows the createLiquidityPosition read back from its data, to sign through the wallet (sign.js). Every
// number stays a BigInt, as elsewhere.
import { fillList, showErrors, showVerdict } from "./answers.js";
import { outcome, quoter } from "./api.js";
import { curlLine } from "./curl.js";
import { $ } from "./dom.js";
import { startLive } from "./live.js";
import { formatD18, parseD18, percentOf } from "./numbers.js";
import { drawRange } from "./range.js";
import { offerSigning } from "./sign.js";
import { simulationWords, when, words } from "./trade.js";

const CREATE_LIQUIDITY_POSITION = "0x268a2f01"; // createLiquidityPosition((uint256,uint256,uint256,uint256,int24,int24,uint256,uint256,uint256))
const TWO_255 = 2n ** 255n;

/** The liquidity quote's request from the form: the market, the budget, the range, the taker's parameters. */
export function liquidityRequest(values) {
  const quote = { chainId: values.chainId, marketAddress: values.marketAddress, marketId: values.marketId, collateralAvailable: values.collateralAvailable };
  for (const name of ["lowerPrice", "upperPrice", "taker", "slippageBps", "deadlineSeconds"]) if (values[name]) quote[name] = values[name];
  return { search: "exact", quote, options: values.minBlock ? { minBlock: values.minBlock } : {} };
}

/**
 * The axis to draw the range on: the market's bounds, which a quote without a range answers as its range (asked
 * only when the form names a price); when that quote fails, the range and the price alone.
 */
async function marketAxis({ quote, options }) {
  if (quote.lowerPrice === undefined && quote.upperPrice === undefined) return null;
  const { chainId, marketAddress, marketId, collateralAvailable } = quote;
  const whole = await outcome(() => quoter.quoteLiquidity({ chainId, marketAddress, marketId, collateralAvailable }, options));
  return whole.ok ? { min: whole.body.lowerPrice, max: whole.body.upperPrice, known: true } : null;
}

/** Quotes the liquidity once, or live, and shows each answer. */
export async function runLiquidity(values) {
  const request = liquidityRequest(values);
  $("curl-line").textContent = curlLine(quoter.liquidityUrl(request.quote, request.options), values.live);
  const axis = marketAxis(request);
  if (values.live) {
    startLive(request, {
      onAnswer: (answer) => void axis.then((known) => showLiquidity({ ...request, ...answer }, known, `live · block ${answer.block ?? "–"} · ${answer.status}`)),
      onReconnecting: ({ reason }) => ($("status").textContent = `reconnecting (${reason})`),
      onEnd: (reason) => ($("status").textContent = `${$("status").textContent} · stream ended (${reason})`),
    });
    return;
  }
  const started = performance.now();
  const [answer, known] = await Promise.all([outcome(() => quoter.quoteLiquidity(request.quote, request.options)), axis]);
  showLiquidity({ ...request, ...answer }, known, `${answer.status} · ${Math.round(performance.now() - started)} ms`);
}

/** Where the current price is against the range, in an LP's words. */
function whereIsPrice(body) {
  const [price, lower, upper] = [body.currentPrice, body.lowerPrice, body.upperPrice].map(parseD18);
  if (price < lower) return "below the range";
  if (price >= upper) return "above the range";
  return "in the range";
}

function showLiquidity(answer, axis, statusText) {
  const { ok, body } = answer;
  $("status").textContent = statusText;
  $("status").className = `status ${ok ? "ok" : "failed"}`;
  $("raw-body").textContent = JSON.stringify(body, null, 2);
  $("raw").hidden = false;
  showErrors(ok ? [] : [answer], false);
  $("liquidity").hidden = !ok;
  offerSigning("liquidity", ok ? body : undefined, answer.quote.chainId);
  document.body.dataset.state = ok ? "done" : "failed";
  if (!ok) {
    showVerdict([answer], false);
    return;
  }
  $("verdict").textContent = `The budget of ${body.collateralAvailable} wei mints at most liquidity ${body.liquidity} between ${body.lowerPrice} and ${body.upperPrice}${body.exact ? ": proven, one more needs more collateral than the budget" : ""}.`;
  $("verdict").dataset.decided = "budget";
  $("verdict").hidden = false;
  drawRange($("range-chart"), axis ?? { min: minText(body), max: maxText(body), known: false }, { lower: body.lowerPrice, upper: body.upperPrice, current: body.currentPrice });
  fillList($("liquidity-list"), mintRows(body));
  showGroupQuote(body);
  fillList($("liquidity-trade"), body.trade ? tradeRows(body) : [["trade", "quote with a taker for the createLiquidityPosition transaction", "trade"]]);
}

/** Without the market's bounds, the axis spans the range and the price. */
const minText = (body) => (parseD18(body.currentPrice) < parseD18(body.lowerPrice) ? body.currentPrice : body.lowerPrice);
const maxText = (body) => (parseD18(body.currentPrice) > parseD18(body.upperPrice) ? body.currentPrice : body.upperPrice);

/** An amount in 18-decimal units with its value in tokens. */
const tokens = (value) => `${value} (${formatD18(BigInt(value))} tokens)`;

function mintRows(body) {
  const under = BigInt(body.liquidity) - BigInt(body.mintedLiquidity);
  return [
    ["range", `${body.lowerPrice} to ${body.upperPrice} (ticks ${body.lowerTick} to ${body.upperTick})`, "range"],
    ["current price", `${body.currentPrice} (${whereIsPrice(body)})`, "currentPrice"],
    ["liquidity", `${body.liquidity}: the largest the budget mints`, "liquidity"],
    ["its mint gets", `${body.mintedLiquidity}${under > 0n ? ` (${under} under: the pool's roundings of the amounts)` : ""}`, "mintedLiquidity"],
    ["base tokens", tokens(body.amountBaseToken), "amountBaseToken"],
    ["quote tokens", tokens(body.amountQuoteToken), "amountQuoteToken"],
    ["collateral it needs", `${tokens(body.requiredCollateral)} of the budget ${body.collateralAvailable} (${percentOf(BigInt(body.requiredCollateral), BigInt(body.collateralAvailable))})`, "requiredCollateral"],
    ["maxCollateral (token units)", `${body.maxCollateral} (${body.collateralDecimals} decimals)`, "maxCollateral"],
    ["proven largest", body.exact ? `yes, in ${body.candidates} candidates` : `no (${body.candidates} candidates)`, "exact"],
    ["block", `${body.blockNumber} (${body.blockHash})`, "blockNumber"],
  ];
}

/**
 * What the market group's own quote for the budget would do: revert (it asks for more collateral than the budget),
 * or fit, with as much liquidity as ours or less (or give no quote at all: its view reverted). What it leaves unused is estimated from ours: the requirement
 * grows with the liquidity, so its share of our liquidity needs about that share of our collateral.
 */
function groupWords(body) {
  if (body.groupQuote === null) return "It reverted: the market group gives no quote for this budget and range.";
  const [ours, theirs, budget, needed] = [body.liquidity, body.groupQuote.liquidity, body.collateralAvailable, body.requiredCollateral].map(BigInt);
  if (!body.groupQuote.fits) {
    return `It asks for liquidity ${theirs} (${theirs - ours} more than the largest that fits): minted with this budget, createLiquidityPosition would revert InsufficientCollateral, the position needing more collateral than the ${budget} wei given.`;
  }
  if (theirs >= ours) return `It fits, with liquidity ${theirs}: as much as the budget mints.`;
  const unused = budget - (needed * theirs) / ours;
  return `It fits, with less: liquidity ${theirs}, ${ours - theirs} (${percentOf(ours - theirs, ours)}) under the largest the budget mints, leaving about ${unused} wei (${formatD18(unused)} tokens) of the budget unused; ours leaves ${budget - needed} wei.`;
}

function showGroupQuote(body) {
  const { groupQuote } = body;
  $("group-verdict").textContent = groupWords(body);
  $("group-verdict").dataset.fits = String(groupQuote !== null && groupQuote.fits);
  fillList($("liquidity-group"), groupQuote === null ? [] : [
    ["liquidity", groupQuote.liquidity, "groupQuote.liquidity"],
    ["base tokens", tokens(groupQuote.amountBaseToken), "groupQuote.amountBaseToken"],
    ["quote tokens", tokens(groupQuote.amountQuoteToken), "groupQuote.amountQuoteToken"],
    ["mints with this budget", groupQuote.fits ? "yes" : "no: it would revert", "groupQuote.fits"],
  ]);
}

/** createLiquidityPosition's arguments read from its data (the ticks as signed int24), or null. */
export function decodeLiquidity(data) {
  const read = data.startsWith(CREATE_LIQUIDITY_POSITION) ? words(data, 9) : null;
  if (!read) return null;
  const tick = (word) => (word >= TWO_255 ? word - 2n * TWO_255 : word);
  const [marketId, amountBaseToken, amountQuoteToken, collateralAmount, lowerTick, upperTick, minBase, minQuote, deadline] = read;
  return { marketId, amountBaseToken, amountQuoteToken, collateralAmount, lowerTick: tick(lowerTick), upperTick: tick(upperTick), minBase, minQuote, deadline };
}

function tradeRows(body) {
  const { trade } = body;
  const call = decodeLiquidity(trade.transaction.data);
  const read = (value) => (call ? value(call) : "?");
  return [
    ["from, to", `${trade.transaction.from} → ${trade.transaction.to} (the market group)`, "transaction.to"],
    ["call", call ? "createLiquidityPosition((marketId, amountBaseToken, amountQuoteToken, collateralAmount, lowerTick, upperTick, minAmountBaseToken, minAmountQuoteToken, deadline))" : "not createLiquidityPosition", "transaction.call"],
    ["amounts", read((c) => `${c.amountBaseToken} base, ${c.amountQuoteToken} quote (at least ${c.minBase} and ${c.minQuote})`), "transaction.amounts"],
    ["ticks", read((c) => `${c.lowerTick} to ${c.upperTick}`), "transaction.ticks"],
    ["collateralAmount (token units)", read((c) => `${c.collateralAmount} (maxCollateral ${body.maxCollateral} with slippage, never past the budget)`), "transaction.collateralAmount"],
    ["deadline", read((c) => when(c.deadline)), "transaction.deadline"],
    ["approval first", trade.approval ? `approve ${trade.approval.spender} for ${trade.collateralLimit} on ${trade.approval.token}` : "none needed", "approval"],
    ["the taker holds", trade.balance ? `${trade.balance.available} (it may take ${trade.balance.needed})` : "not known", "balance"],
    ["simulated", simulationWords(trade), "simulation"],
  ];
}
