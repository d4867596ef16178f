// What the receipts of calls signed from the page say happened, read from their logs alone: the market group's
// ERC-721 Transfer from 0 (a position minted), the collateral token's ERC-20 Transfers between the account and the
// group (the collateral the calls moved), and, for a liquidity position, the pool's Mint (the liquidity it holds).
import { formatD18 } from "./numbers.js";

/** keccak256("Transfer(address,address,uint256)"): ERC-20's and ERC-721's Transfer event. */
const TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
/** keccak256("Mint(address,address,int24,int24,uint128,uint256,uint256)"): a Uniswap v3 pool's Mint event. */
const MINT = "0x7a53080ba414158be7ec69b987b5fb7d07dee101fe85488f0853ae16239d0bde";
const TWO_255 = 2n ** 255n;

const topicAddress = (topic) => `0x${topic.slice(-40)}`.toLowerCase();
const same = (a, b) => typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();
const logsOf = (receipts, topic) => receipts.flatMap((receipt) => receipt.logs ?? []).filter((log) => log.topics && same(log.topics[0], topic));
/** A topic or word holding a signed integer (an int24 tick is sign-extended to the whole word). */
const signed = (word) => (BigInt(word) >= TWO_255 ? BigInt(word) - 2n * TWO_255 : BigInt(word));

/**
 * The position the market group of `trade` minted to `account` (its ERC-721 Transfer from 0; ERC-721's names the
 * token id as a third topic, ERC-20's puts the amount in the data), or null; and the collateral the trade's token
 * moved from the account to the group, net of what came back (negative: the account received).
 */
export function readReceipts(receipts, trade, account) {
  const group = trade.transaction.to;
  const token = (trade.balance && trade.balance.token) || (trade.approval && trade.approval.token);
  const logs = logsOf(receipts, TRANSFER);
  const [who, to] = [account.toLowerCase(), group.toLowerCase()];
  const minted = logs.find((log) => log.topics.length === 4 && same(log.address, group) && BigInt(log.topics[1]) === 0n && topicAddress(log.topics[2]) === who);
  const moved = logs.filter((log) => log.topics.length === 3 && (!token || same(log.address, token)));
  const sum = (from, into) => moved.filter((log) => topicAddress(log.topics[1]) === from && topicAddress(log.topics[2]) === into).reduce((total, log) => total + BigInt(log.data), 0n);
  return { minted: minted ? BigInt(minted.topics[3]) : null, net: sum(who, to) - sum(to, who) };
}

/** The collateral moved, in token units and in tokens; what was taken against the trade's `limit`. */
export function collateralWords(net, decimals, limit) {
  const tokens = (value) => formatD18(value * 10n ** (18n - decimals));
  if (net > 0n) return `it took ${net} (${tokens(net)} tokens), within its limit of ${limit}`;
  if (net < 0n) return `${-net} (${tokens(-net)} tokens) came back to you`;
  return "no collateral moved";
}

/** The liquidity the pool's Mint of `group` in [lowerTick, upperTick] added, or null when the receipts hold none. */
function mintedLiquidity(receipts, group, lowerTick, upperTick) {
  const mint = logsOf(receipts, MINT).find(
    (log) => log.topics.length === 4 && same(topicAddress(log.topics[1]), group) && signed(log.topics[2]) === BigInt(lowerTick) && signed(log.topics[3]) === BigInt(upperTick),
  );
  // Its data: sender, then the liquidity (uint128), then the two amounts.
  return mint ? BigInt(`0x${mint.data.slice(2 + 64, 2 + 128)}`) : null;
}

/** A liquidity quote's calls, signed: the position minted, the liquidity it holds against the answer's, the collateral taken. */
export function liquidityOutcome(body, receipts, account) {
  const { trade } = body;
  const { minted, net } = readReceipts(receipts, trade, account);
  const held = mintedLiquidity(receipts, trade.transaction.to, body.lowerTick, body.upperTick);
  const quoted = BigInt(body.mintedLiquidity);
  const liquidityWords = held === null ? "no pool Mint in the receipts" : `${held}${held === quoted ? ", as quoted" : `: the quote said ${quoted}`}`;
  const collateral = collateralWords(net, BigInt(body.collateralDecimals ?? 18), trade.collateralLimit);
  const words = minted === null
    ? `the calls went through, but no position was minted to ${account}.`
    : `liquidity position ${minted} minted to you, holding liquidity ${liquidityWords} between ${body.lowerPrice} and ${body.upperPrice}; ${collateral}.`;
  const rows = [
    ["position", minted === null ? "none" : `${minted} (a liquidity position, minted to you)`, "positionId"],
    ["its liquidity", liquidityWords, "liquidity"],
    ["range", `${body.lowerPrice} to ${body.upperPrice} (ticks ${body.lowerTick} to ${body.upperTick})`, "range"],
    ["collateral (token units)", collateral, "collateral"],
    ["transactions", receipts.map((receipt) => receipt.transactionHash).join(", "), "transactions"],
  ];
  // The held-position tab quotes trader positions: a liquidity position is not followed there.
  return { positionId: null, words, rows };
}
