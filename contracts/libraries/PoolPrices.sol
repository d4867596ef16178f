// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title PoolPrices: D18 prices, Uniswap v3 sqrt prices (Q96) and ticks
/// @notice The conversions the market group needs around its v3 pools. Ticks are Uniswap's: the sqrt price of
/// tick t is sqrt(1.0001^t) * 2^96, rounded up. It is computed here in Q192 (a 192-bit fractional part) by
/// binary exponentiation of sqrt(1.0001), then rounded up to Q96: the result is the exact ceiling unless the
/// exact value lies within about 2^-60 of a Q96 unit of an integer, so it agrees with the pool's own tick prices
/// to the unit in all but such ties (where it is one unit off). The group uses these prices to place its
/// liquidity and to value a price move; the market's range is checked against the pool's own price, never
/// against a tick price.
library PoolPrices {
    uint256 internal constant Q96 = 1 << 96;
    uint256 internal constant Q192 = 1 << 192;
    uint256 internal constant D18 = 1e18;
    /// @notice floor(sqrt(1.0001) * 2^192).
    uint256 internal constant SQRT_TICK_Q192 = 6277415582627465222980879537863866035143131484452495518431;
    /// @notice Ticks handled: |tick| < 2^18, enough for every price in [1e-6, 1e6] (|tick| <= 138,163).
    uint256 internal constant TICK_BITS = 18; // the length of the powers arrays (uint256[18])
    int24 internal constant MAX_TICK = int24(int256((1 << TICK_BITS) - 1));

    /// @notice The sqrt price of a D18 price: sqrt(priceD18 * 2^192 / E), rounded as `rounding` (one rounding:
    /// floor(sqrt(floor(v))) = floor(sqrt(v)), ceil(sqrt(ceil(v))) = ceil(sqrt(v))). priceD18 < 2^64 * E.
    function sqrtPriceX96FromPriceD18(uint256 priceD18, Math.Rounding rounding) internal pure returns (uint160) {
        return uint160(Math.sqrt(Math.mulDiv(priceD18, Q192, D18, rounding), rounding));
    }

    /// @notice The D18 price of a sqrt price, floor(sqrtPriceX96^2 * E / 2^192): rounded down, as the real
    /// group's prices are. One rounding: the product is taken at 512 bits.
    function priceD18FromSqrtPriceX96(uint160 sqrtPriceX96) internal pure returns (uint256) {
        return Math.mulShr(sqrtPriceX96, uint256(sqrtPriceX96) * D18, 192, Math.Rounding.Floor);
    }

    /// @notice sqrt(1.0001)^(2^i) in Q192 for i < TICK_BITS, each the floor of the square of the previous.
    function tickPowers() internal pure returns (uint256[18] memory powers) {
        powers[0] = SQRT_TICK_Q192;
        for (uint256 i = 1; i < TICK_BITS; ++i) {
            powers[i] = Math.mulDiv(powers[i - 1], powers[i - 1], Q192);
        }
    }

    /// @notice The sqrt price (Q96) of `tick`, |tick| <= MAX_TICK, from `powers` (tickPowers()), rounded up.
    function sqrtPriceAtTick(int24 tick, uint256[18] memory powers) internal pure returns (uint160) {
        uint256 magnitude = tick < 0 ? uint256(-int256(tick)) : uint256(int256(tick));
        require(magnitude <= uint256(int256(MAX_TICK)), "tick out of range");
        uint256 ratio = Q192;
        for (uint256 i; i < TICK_BITS; ++i) {
            if (magnitude & (1 << i) != 0) ratio = Math.mulDiv(ratio, powers[i], Q192);
        }
        if (tick < 0) ratio = Math.mulDiv(Q192, Q192, ratio);
        return uint160(Math.mulShr(ratio, 1, 96, Math.Rounding.Ceil));
    }

    /// @notice The lowest multiple of `spacing` whose sqrt price is at least `sqrtPriceX96` (rounding a range's
    /// lower bound inward), by bisection over the multiples.
    function tickAtOrAbove(uint160 sqrtPriceX96, int24 spacing, uint256[18] memory powers) internal pure returns (int24) {
        int24 low = -(MAX_TICK / spacing); // sqrt price below any price handled
        int24 high = MAX_TICK / spacing; // at or above it
        while (high - low > 1) {
            int24 mid = low + (high - low) / 2;
            if (sqrtPriceAtTick(mid * spacing, powers) >= sqrtPriceX96) high = mid;
            else low = mid;
        }
        return high * spacing;
    }

    /// @notice The highest multiple of `spacing` whose sqrt price is at most `sqrtPriceX96` (rounding a range's
    /// upper bound inward).
    function tickAtOrBelow(uint160 sqrtPriceX96, int24 spacing, uint256[18] memory powers) internal pure returns (int24) {
        int24 low = -(MAX_TICK / spacing);
        int24 high = MAX_TICK / spacing;
        while (high - low > 1) {
            int24 mid = low + (high - low) / 2;
            if (sqrtPriceAtTick(mid * spacing, powers) <= sqrtPriceX96) low = mid;
            else high = mid;
        }
        return low * spacing;
    }
}
