// The trade panel: what an answer asked with a taker gives to sign (semantics §12), shown as a trader checks it before
// signing: the approval first (token, spender, amount, the allowance now), then the transaction (the market group,
// the function and its arguments read back from the data itself, not from the answer's other fields), the balance
// against what it may take, and the simulation's verdict in words. The page has no keys: the wallet signs (sign.js).
import { fillList as rows } from "./answers.js";
import { $ } from "./dom.js";
import { abs, formatD18 } from "./numbers.js";

const CREATE_TRADER_POSITION = "0x7656fbeb"; // createTraderPosition((uint256,int256,uint256,uint256))
const APPROVE = "0x095ea7b3"; // approve(address,uint256)
const TWO_255 = 2n ** 255n;

/** The 32-byte words after a call's 4-byte selector, as BigInts; null when the data is not that many whole words. */
export function words(data, count) {
  const hex = data.slice(10);
  if (!/^0x[0-9a-f]{8}/.test(data) || hex.length !== 64 * count) return null;
  return Array.from({ length: count }, (_, i) => BigInt(`0x${hex.slice(64 * i, 64 * (i + 1))}`));
}

/** createTraderPosition's arguments read from its data (the size as a signed int256), or null. */
export function decodeTrade(data) {
  const read = data.startsWith(CREATE_TRADER_POSITION) ? words(data, 4) : null;
  if (!read) return null;
  const [marketId, rawSize, maxCollateral, deadline] = read;
  return { marketId, size: rawSize >= TWO_255 ? rawSize - 2n * TWO_255 : rawSize, maxCollateral, deadline };
}

/** approve's arguments read from its data, or null. */
export function decodeApproval(data) {
  const read = data.startsWith(APPROVE) ? words(data, 2) : null;
  return read ? { spender: `0x${read[0].toString(16).padStart(40, "0")}`, amount: read[1] } : null;
}

/** Unix seconds as a UTC date. */
export const when = (seconds) => `${seconds} (${new Date(Number(seconds) * 1000).toISOString().replace(".000Z", "Z")})`;

/** The simulation's verdict in a trader's words; `revertArgs` named as the service decoded them. */
export function simulationWords(trade) {
  const { simulation, approval } = trade;
  const after = approval ? " after the approval" : "";
  if (simulation.ok === true) {
    return simulation.gas ? `The transaction succeeds${after}, using ${simulation.gas} gas (simulated at this block).` : `The transaction succeeds${after} (run by eth_call at this block: the node does not measure its gas).`;
  }
  if (simulation.ok === null) return `Not simulated: ${simulation.reason}.`;
  const args = simulation.revertArgs ? ` (${Object.entries(simulation.revertArgs).map(([k, v]) => `${k} ${v}`).join(", ")})` : "";
  const why = {
    ERC20InsufficientBalance: "the taker does not hold the collateral it takes",
    ERC20InsufficientAllowance: "the market group may not take that much of the taker's collateral",
    PositionSizeBelowMin: "the size is below the market group's minimum trade size",
    TransactionExpired: "its deadline passes before the next block (the chain's head is old: quote again)",
    CollateralLimitReached: "it needs more collateral than its limit",
  }[simulation.revert];
  return `The transaction would revert${after}: ${simulation.revert}${args}${why ? `: ${why}` : ""}.`;
}

/** The trade of `body` (a 200 asked with a taker), or the panel hidden when there is none. */
export function showTrade(body) {
  const trade = body && body.trade;
  $("trade").hidden = !trade;
  if (!trade) return;
  const { transaction, approval, balance } = trade;
  const decoded = decodeTrade(transaction.data);
  const verdict = $("trade-verdict");
  verdict.textContent = simulationWords(trade);
  verdict.dataset.ok = String(trade.simulation.ok);
  $("trade-approval-title").textContent = approval ? "1. Approve first" : "No approval needed";
  const approved = approval && decodeApproval(approval.transaction.data);
  rows($("trade-approval"), approval
    ? [
        ["from", approval.transaction.from, "approval.from"],
        ["to (the token)", approval.transaction.to, "approval.to"],
        ["call", approved ? `approve(${approved.spender}, ${approved.amount})` : "not an approve call", "approval.call"],
        ["spender (the market group)", approval.spender, "approval.spender"],
        ["allowance now", `${approval.allowance}: below the limit ${trade.collateralLimit}`, "approval.allowance"],
        ["data", approval.transaction.data, "approval.data"],
      ]
    : [["allowance", `covers the limit ${trade.collateralLimit} already`, "approval.none"]]);
  $("trade-transaction-title").textContent = approval ? "2. Then the transaction" : "The transaction";
  rows($("trade-transaction"), [
    ["from", transaction.from, "transaction.from"],
    ["to (the market group)", transaction.to, "transaction.to"],
    ["call", decoded ? "createTraderPosition((marketId, size, maxCollateral, deadline))" : "not createTraderPosition", "transaction.call"],
    ["marketId", decoded ? decoded.marketId : "?", "transaction.marketId"],
    ["size", decoded ? `${decoded.size} (${decoded.size < 0n ? "SHORT" : "LONG"} ${formatD18(abs(decoded.size))} × 10^18)` : "?", "transaction.size"],
    ["maxCollateral (token units)", decoded ? `${decoded.maxCollateral} (maxCollateral ${body.maxCollateral} with slippage)` : "?", "transaction.maxCollateral"],
    ["deadline", decoded ? when(decoded.deadline) : "?", "transaction.deadline"],
    ["value", `${transaction.value} (no ether)`, "transaction.value"],
    ["data", transaction.data, "transaction.data"],
  ]);
  rows($("trade-balance"), balance
    ? [["collateral token", balance.token, "balance.token"], ["the taker holds", balance.available, "balance.available"], ["it may take", balance.needed, "balance.needed"]]
    : [["collateral token", "the market group names none", "balance.token"]]);
}
