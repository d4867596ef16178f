// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {
    BASE_TOKEN_WORD, FEE_WORD, MARKET_DATA_HEAD_WORDS, MAX_PRICE_WORD, MIN_PRICE_WORD, QUOTE_TOKEN_WORD, QUOTER_WORD, wordAt
} from "./libraries/MarketWords.sol";

/// @title PriceEdge: the size at which a trade's price reaches expectedPrice, asked of the market's own QuoterV2
/// @notice The exact search (semantics section 4b) starts from the pool's own integer math: the market's QuoterV2
/// (`uniswapQuoter` in getMarket's params) simulates a swap limited to the farthest sqrt price whose price, rounded
/// down as the group rounds price18DigitsAfter, does not pass expectedPrice (nor the market's range), and answers
/// how much base it moves: the largest size the price allows, to within the rounding of the swap's last step. It is
/// a plain call, so an endpoint quoted call by call makes exactly the same one (src/chain/searchers/priceEdge.ts
/// plans it word for word; test/contracts/exactSearchRule.test.ts asks both). A LONG buys base (token0) with quote:
/// QuoterV2's exact input of quote answers the base out, which is what an exact output of base delivers up to that
/// price (a step that reaches its target price moves the same amounts whichever side is specified; the fee is on the
/// quote side). A SHORT sells base: QuoterV2's exact output of quote answers the base in, fee included, as the group's
/// exact input of base pays it. Nothing is decided from the answer but the next candidate: the quotes still prove the
/// size.
library PriceEdge {
    uint256 private constant D18 = 1e18;
    uint256 private constant Q192 = 1 << 192;
    /// @dev Prices from here on have a sqrt price of 2^128 or more (no market's): no edge is asked.
    uint256 private constant MAX_TARGET = (1 << 64) * D18;
    /// @dev v3's bounds of a price limit, exclusive (TickMath.MIN_SQRT_RATIO + 1).
    uint160 private constant MIN_LIMIT = 4295128740;
    /// @dev Swapped as if without end: the price limit stops the swap first.
    uint256 private constant UNLIMITED = uint256(type(int256).max);
    /// @dev The largest size a quote takes (int256 max).
    uint256 private constant MAX_SIZE = uint256(type(int256).max);

    /// @notice The QuoterV2 call that measures the edge of a market whose getMarket answered `market` (its market
    /// check passed), or none: no quoter, base not token0, a malformed word, or a target price out of bounds.
    function plan(bytes memory market, bool isLong, uint256 expectedPrice)
        internal
        pure
        returns (bool planned, address quoter, bytes memory data)
    {
        (, uint256 offset) = wordAt(market, 0);
        uint256 first = offset / 32;
        if (offset % 32 != 0 || offset > market.length || market.length < (first + MARKET_DATA_HEAD_WORDS) * 32) {
            return (false, address(0), data);
        }
        (, uint256 quoterWord) = wordAt(market, QUOTER_WORD);
        (, uint256 fee) = wordAt(market, FEE_WORD);
        (, uint256 quote) = wordAt(market, first + QUOTE_TOKEN_WORD);
        (, uint256 base) = wordAt(market, first + BASE_TOKEN_WORD);
        if (quoterWord == 0 || quoterWord >> 160 != 0 || quote >> 160 != 0 || base >= quote || fee >> 24 != 0) {
            return (false, address(0), data);
        }
        (, uint256 minPrice) = wordAt(market, first + MIN_PRICE_WORD);
        (, uint256 maxPrice) = wordAt(market, first + MAX_PRICE_WORD);
        uint256 target = isLong ? (maxPrice != 0 && maxPrice < expectedPrice ? maxPrice : expectedPrice) : Math.max(expectedPrice, minPrice);
        if (target >= MAX_TARGET) return (false, address(0), data);
        uint160 limit = isLong ? highestAtOrBelow(target) : lowestAtOrAbove(target);
        data = isLong
            ? abi.encodeWithSignature("quoteExactInputSingle((address,address,uint256,uint24,uint160))", address(uint160(quote)), address(uint160(base)), UNLIMITED, uint24(fee), limit)
            : abi.encodeWithSignature("quoteExactOutputSingle((address,address,uint256,uint24,uint160))", address(uint160(base)), address(uint160(quote)), UNLIMITED, uint24(fee), limit);
        return (true, address(uint160(quoterWord)), data);
    }

    /// @notice The edge a QuoterV2 answer gives: its first word (the base moved), at most MAX_SIZE; none for a revert
    /// or an answer shorter than a word.
    function edgeOf(bool success, bytes memory answer) internal pure returns (bool hasEdge, uint256 edge) {
        bool hasWord;
        (hasWord, edge) = wordAt(answer, 0);
        if (!success || !hasWord) return (false, 0);
        return (true, Math.min(edge, MAX_SIZE));
    }

    /// @notice Exact: the largest sqrt price X96 whose price, floor(X^2 * 1e18 / 2^192), is at most `price`:
    /// floor(sqrt(floor(((price + 1) * 2^192 - 1) / 1e18))) (src/quote/priceMath.ts's highestSqrtX96PricedAtMost).
    /// price < MAX_TARGET.
    function highestAtOrBelow(uint256 price) internal pure returns (uint160) {
        // The last price below MAX_TARGET: (price + 1) * 2^192 / 1e18 is 2^256, past mulDiv; its floor less one is
        // 2^256 - 1, whose root is 2^128 - 1.
        if (price == MAX_TARGET - 1) return type(uint128).max;
        uint256 squared = Math.mulDiv(price + 1, Q192, D18);
        if (mulmod(price + 1, Q192, D18) == 0) squared -= 1;
        return uint160(Math.sqrt(squared));
    }

    /// @notice Rounded up: the smallest sqrt price X96 whose price is at least `price`, and above v3's least price
    /// limit: ceil(sqrt(ceil(price * 2^192 / 1e18))) (priceMath.ts's sqrtX96FromPriceD18Up), at least MIN_LIMIT.
    /// price < MAX_TARGET.
    function lowestAtOrAbove(uint256 price) internal pure returns (uint160) {
        uint256 limit = Math.sqrt(Math.mulDiv(price, Q192, D18, Math.Rounding.Ceil), Math.Rounding.Ceil);
        return uint160(Math.max(limit, MIN_LIMIT));
    }
}
