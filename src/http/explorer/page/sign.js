// The "Sign and send" buttons of the trade panel (a new position's createTraderPosition) and of the position tab (a
// held position's modifyTraderPosition): each sends the answer's calls from the connected wallet (send.js), then
// says what happened as a trader reads it, from the receipts and the chain (through the wallet's own provider): the
// position minted (the market group's ERC-721 Transfer to the account), its size now (getPositionSize), the
// collateral the calls moved (the token's ERC-20 Transfers between the account and the market group) against the
// limit; then opens the position's live quote. A button is disabled, with the reason beside it, when there is no
// trade to sign, no wallet connected, or the simulation says the trade would fail.
import { fillList } from "./answers.js";
import { $ } from "./dom.js";
import { abs, formatD18 } from "./numbers.js";
import { callsOf, sendTrade } from "./send.js";
import { ask, onWalletChange, switchChain, wallet } from "./wallet.js";

/** keccak256("Transfer(address,address,uint256)"): ERC-20's and ERC-721's Transfer event. */
const TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const GET_POSITION_SIZE = "0x20613d18"; // getPositionSize(uint256)
const TWO_255 = 2n ** 255n;

/** What each button signs now: `{ body, chainId }`, or null. */
const offers = { trade: null, position: null };
let sending = false;
/** Opens a position's live quote in the position tab (explorer.js). */
let openPosition = () => {};

export function initSigning(open) {
  openPosition = open;
  for (const id of Object.keys(offers)) $(`${id}-sign`).addEventListener("click", () => void sign(id));
  onWalletChange(refreshAll);
}

/** The trade of `body` (an answer with `trade`, or none) offered to sign by button `id` ("trade" or "position"). */
export function offerSigning(id, body, chainId) {
  offers[id] = body && body.trade ? { body, chainId } : null;
  refresh(id);
}

const refreshAll = () => Object.keys(offers).forEach(refresh);

function refresh(id) {
  const offer = offers[id];
  const trade = offer && offer.body.trade;
  const from = trade && trade.transaction.from;
  let why = "";
  if (!trade) why = "Quote with a taker for a trade to sign.";
  else if (trade.simulation.ok === false) why = `Not sendable: the simulation says it would revert (${trade.simulation.revert}).`;
  else if (!wallet.account) why = "Connect a wallet to sign and send it.";
  else if (from.toLowerCase() !== wallet.account.toLowerCase()) why = `This trade is from ${from}, the wallet's account is ${wallet.account}: quote again.`;
  else if (sending) why = "Sending…";
  $(`${id}-sign`).disabled = why !== "";
  const calls = trade ? callsOf(trade).length : 0;
  $(`${id}-sign-why`).textContent = why || `Sends ${calls === 1 ? "its one call" : `its ${calls} calls`} from ${wallet.account} on chain ${offer.chainId}, through ${wallet.chosen.info.name}.`;
}

async function sign(id) {
  const { body, chainId } = offers[id];
  sending = true;
  refreshAll();
  const say = (words) => ($("sent-status").textContent = words);
  $("sent").dataset.outcome = "sending";
  fillList($("sent-list"), []);
  try {
    await switchChain(chainId);
    const { how, receipts } = await sendTrade(callsOf(body.trade), chainId, say);
    const told = await outcome(body, receipts);
    say(`Done (${how === "batch" ? "one wallet_sendCalls" : `${receipts.length} transactions, one by one`}): ${told.words}`);
    fillList($("sent-list"), told.rows);
    $("sent").dataset.outcome = "done";
    if (told.positionId !== null) openPosition(told.positionId);
  } catch (error) {
    say(error && error.message ? error.message : String(error));
    $("sent").dataset.outcome = "failed";
  } finally {
    sending = false;
    refreshAll();
  }
}

const topicAddress = (topic) => `0x${topic.slice(-40)}`.toLowerCase();
const same = (a, b) => typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();
const logsOf = (receipts) => receipts.flatMap((receipt) => receipt.logs ?? []).filter((log) => log.topics && same(log.topics[0], TRANSFER));

/** What the receipts say happened, in words and rows; `positionId` the position to follow, or null. */
async function outcome(body, receipts) {
  const { trade } = body;
  const group = trade.transaction.to;
  const account = wallet.account.toLowerCase();
  const logs = logsOf(receipts);
  // ERC-721's Transfer names the token id as a third topic; ERC-20's puts the amount in the data.
  const minted = logs.find((log) => log.topics.length === 4 && same(log.address, group) && BigInt(log.topics[1]) === 0n && topicAddress(log.topics[2]) === account);
  const held = body.positionId !== undefined;
  const positionId = held ? BigInt(body.positionId) : minted ? BigInt(minted.topics[3]) : null;
  const token = (trade.balance && trade.balance.token) || (trade.approval && trade.approval.token);
  const moved = logs.filter((log) => log.topics.length === 3 && (!token || same(log.address, token)));
  const sum = (from, to) => moved.filter((log) => topicAddress(log.topics[1]) === from && topicAddress(log.topics[2]) === to).reduce((total, log) => total + BigInt(log.data), 0n);
  const net = sum(account, group.toLowerCase()) - sum(group.toLowerCase(), account);
  const size = positionId === null ? null : await positionSize(group, positionId);
  const quoted = BigInt(held ? body.targetSize : body.maxSize);
  const units = collateralWords(net, BigInt(body.collateralDecimals ?? 18));
  const sizeWords = size === null ? "no position minted in the receipts" : `${size} (${sideOf(size)} ${formatD18(abs(size))} × 10^18)${size === quoted ? ", as quoted" : `: the quote said ${quoted}`}`;
  const limit = net > 0n ? `, within its limit of ${trade.collateralLimit}` : "";
  const words = positionId === null
    ? `the calls went through, but no position was minted to ${wallet.account}.`
    : `position ${positionId} ${held ? "now has" : "opened with"} size ${sizeWords}; ${units}${limit}.`;
  const rows = [
    ["position", positionId === null ? "none" : `${positionId}${held ? "" : " (minted to you)"}`, "positionId"],
    ["its size now", size === null ? "–" : sizeWords, "size"],
    ["collateral (token units)", `${units}${limit}`, "collateral"],
    ["transactions", receipts.map((receipt) => receipt.transactionHash).join(", "), "transactions"],
  ];
  return { positionId, words, rows };
}

const sideOf = (size) => (size > 0n ? "long" : size < 0n ? "short" : "closed");

function collateralWords(net, decimals) {
  const tokens = (value) => formatD18(value * 10n ** (18n - decimals));
  if (net > 0n) return `it took ${net} (${tokens(net)} tokens)`;
  if (net < 0n) return `${-net} (${tokens(-net)} tokens) came back to you`;
  return "no collateral moved";
}

/** getPositionSize(positionId) on the market group, read through the wallet: the chain the trade went to. */
async function positionSize(group, positionId) {
  const data = `${GET_POSITION_SIZE}${positionId.toString(16).padStart(64, "0")}`;
  const word = BigInt(await ask("eth_call", [{ to: group, data }, "latest"]));
  return word >= TWO_255 ? word - 2n * TWO_255 : word;
}
