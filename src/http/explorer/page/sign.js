// The "Sign and send" buttons of the trade panel (a new position's createTraderPosition), of the position tab (a
// held position's modifyTraderPosition) and of the liquidity tab (createLiquidityPosition): each sends the answer's
// calls from the connected wallet (send.js), then says what happened as a trader reads it, from the receipts
// (receipts.js) and the chain (through the wallet's own provider): the position minted (the market group's ERC-721
// Transfer to the account), its size now (getPositionSize) or the liquidity it holds (the pool's Mint), the
// collateral the calls moved against the limit; then opens a trader position's live quote. A button is disabled,
// with the reason beside it, when there is no trade to sign, no wallet connected, or the simulation says it fails.
import { fillList } from "./answers.js";
import { $ } from "./dom.js";
import { abs, formatD18 } from "./numbers.js";
import { collateralWords, liquidityOutcome, readReceipts } from "./receipts.js";
import { callsOf, sendTrade } from "./send.js";
import { ask, onWalletChange, switchChain, wallet } from "./wallet.js";

const GET_POSITION_SIZE = "0x20613d18"; // getPositionSize(uint256)
const TWO_255 = 2n ** 255n;

/** What each button signs now: `{ body, chainId }`, or null. */
const offers = { trade: null, position: null, liquidity: null };
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
    const told = id === "liquidity" ? liquidityOutcome(body, receipts, wallet.account) : await outcome(body, receipts);
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

/** What the receipts say happened, in words and rows; `positionId` the position to follow, or null. */
async function outcome(body, receipts) {
  const { trade } = body;
  const group = trade.transaction.to;
  const { minted, net } = readReceipts(receipts, trade, wallet.account);
  const held = body.positionId !== undefined;
  const positionId = held ? BigInt(body.positionId) : minted;
  const size = positionId === null ? null : await positionSize(group, positionId);
  const quoted = BigInt(held ? body.targetSize : body.maxSize);
  const units = collateralWords(net, BigInt(body.collateralDecimals ?? 18), trade.collateralLimit);
  const sizeWords = size === null ? "no position minted in the receipts" : `${size} (${sideOf(size)} ${formatD18(abs(size))} × 10^18)${size === quoted ? ", as quoted" : `: the quote said ${quoted}`}`;
  const words = positionId === null
    ? `the calls went through, but no position was minted to ${wallet.account}.`
    : `position ${positionId} ${held ? "now has" : "opened with"} size ${sizeWords}; ${units}.`;
  const rows = [
    ["position", positionId === null ? "none" : `${positionId}${held ? "" : " (minted to you)"}`, "positionId"],
    ["its size now", size === null ? "–" : sizeWords, "size"],
    ["collateral (token units)", units, "collateral"],
    ["transactions", receipts.map((receipt) => receipt.transactionHash).join(", "), "transactions"],
  ];
  return { positionId, words, rows };
}

const sideOf = (size) => (size > 0n ? "long" : size < 0n ? "short" : "closed");

/** getPositionSize(positionId) on the market group, read through the wallet: the chain the trade went to. */
async function positionSize(group, positionId) {
  const data = `${GET_POSITION_SIZE}${positionId.toString(16).padStart(64, "0")}`;
  const word = BigInt(await ask("eth_call", [{ to: group, data }, "latest"]));
  return word >= TWO_255 ? word - 2n * TWO_255 : word;
}
