// The price edge of an exact quote (semantics §4b): the size at which the trade's price reaches expectedPrice, asked
// of the market's own QuoterV2 (`uniswapQuoter` in getMarket's params) as one price-limited swap. A plain eth_call,
// which both strategies make alike: the searcher on chain (contracts/PriceEdge.sol, the same plan word for word) and
// an endpoint quoted call by call. Read from the raw words of getMarket's answer, as the searcher reads them.
import { encodeFunctionData, maxInt256, parseAbi, type Address, type Hex } from "viem";
import { marketWords } from "../../generated/contracts.ts";
import { D18 } from "../../quote/fixedPoint.ts";
import { highestSqrtX96PricedAtMost, MIN_SQRT_RATIO, sqrtX96FromPriceD18Up } from "../../quote/priceMath.ts";
import type { Direction } from "../../quote/search.ts";
import type { RawCall } from "../rpc/call.ts";
import { wordAt } from "../rpc/decode.ts";

/** The QuoterV2 call that measures the edge: its target and call data. */
export type EdgeCall = { readonly to: Address; readonly data: Hex };

const quoterAbi = parseAbi([
  "function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
  "function quoteExactOutputSingle((address tokenIn, address tokenOut, uint256 amount, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountIn, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
]);

/**
 * Words of getMarket's answer: params (feeRate, uniswapQuoter) from word 1, then MarketData's head at its offset; as
 * the searchers read them (contracts/libraries/MarketWords.sol, which the build checks against the ABI and writes out).
 */
const { FEE_WORD, QUOTER_WORD, QUOTE_TOKEN_WORD, BASE_TOKEN_WORD, MIN_PRICE_WORD, MAX_PRICE_WORD, MARKET_DATA_HEAD_WORDS } = marketWords;
/** Prices from here on have a sqrt price of 2^128 or more (no market's): no edge is asked. */
const MAX_TARGET = (1n << 64n) * D18;
/** v3's least price limit: a swap's limit must lie above MIN_SQRT_RATIO. */
const MIN_LIMIT = MIN_SQRT_RATIO + 1n;
/** Swapped as if without end: the price limit stops the swap first. */
const UNLIMITED = maxInt256;

/**
 * The sqrt price the swap may reach: for a LONG the largest whose price, rounded down as the group rounds it, does not
 * pass `target`; for a SHORT the smallest whose price reaches it, and above v3's least price limit.
 */
export function priceLimit(isLong: boolean, target: bigint): bigint {
  if (isLong) return highestSqrtX96PricedAtMost(target);
  const limit = sqrtX96FromPriceD18Up(target);
  return limit > MIN_LIMIT ? limit : MIN_LIMIT;
}

/**
 * The QuoterV2 call of a market whose getMarket answered `market` (its check passed), or none: no quoter, base not
 * token0, a malformed word, or a target price out of bounds. The target is expectedPrice, within the market's range.
 */
export function planEdge(market: RawCall, direction: Direction, expectedPrice: bigint): EdgeCall | undefined {
  const at = (index: number) => wordAt(market.data, index) ?? 0n;
  const offset = at(0);
  const bytes = BigInt((market.data.length - 2) / 2);
  const first = offset / 32n;
  if (offset % 32n !== 0n || offset > bytes || bytes < (first + BigInt(MARKET_DATA_HEAD_WORDS)) * 32n) return undefined;
  const field = (index: number) => at(Number(first) + index);
  const [quoter, fee, quote, base] = [at(QUOTER_WORD), at(FEE_WORD), field(QUOTE_TOKEN_WORD), field(BASE_TOKEN_WORD)];
  if (quoter === 0n || quoter >> 160n !== 0n || quote >> 160n !== 0n || base >= quote || fee >> 24n !== 0n) return undefined;
  const [minPrice, maxPrice] = [field(MIN_PRICE_WORD), field(MAX_PRICE_WORD)];
  const isLong = direction === "LONG";
  const target = isLong ? (maxPrice !== 0n && maxPrice < expectedPrice ? maxPrice : expectedPrice) : expectedPrice > minPrice ? expectedPrice : minPrice;
  if (target >= MAX_TARGET) return undefined;
  const address = (value: bigint) => `0x${value.toString(16).padStart(40, "0")}` as Address;
  const [tokenIn, tokenOut] = isLong ? [address(quote), address(base)] : [address(base), address(quote)];
  const limit = priceLimit(isLong, target);
  const data = isLong
    ? encodeFunctionData({ abi: quoterAbi, functionName: "quoteExactInputSingle", args: [{ tokenIn, tokenOut, amountIn: UNLIMITED, fee: Number(fee), sqrtPriceLimitX96: limit }] })
    : encodeFunctionData({ abi: quoterAbi, functionName: "quoteExactOutputSingle", args: [{ tokenIn, tokenOut, amount: UNLIMITED, fee: Number(fee), sqrtPriceLimitX96: limit }] });
  return { to: address(quoter), data };
}

/** The edge a QuoterV2 answer gives: its first word (the base moved), at most 2^255-1; none for a revert or less. */
export function interpretEdge(answer: RawCall): bigint | undefined {
  const amount = answer.success ? wordAt(answer.data, 0) : undefined;
  if (amount === undefined) return undefined;
  return amount > maxInt256 ? maxInt256 : amount;
}
