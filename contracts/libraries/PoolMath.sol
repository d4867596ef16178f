// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title PoolMath: exact math of one concentrated-liquidity range
/// @notice Pure Uniswap-v3-style math for a pool of liquidity L over a single price range, with base token
/// = token0 (x) and quote token = token1 (y).
///
/// Notation: Q = 2^96; E = 1e18 (D18 fixed point); F = 1e6 (fee pips); X = sqrtPriceX96 = sqrt(P) * Q, the
/// current sqrt price; L the liquidity; s > 0 the number of base tokens (wei) a trade buys (LONG) or sells
/// (SHORT); D = L*Q - s*X for a LONG, L*Q + s*X for a SHORT.
///
/// A LONG of s moves 1/sqrt(P) to 1/sqrt(P) - s/L, a SHORT to 1/sqrt(P) + s/L, so the exact next sqrt price
/// is L*Q*X / D, and the quote tokens exchanged are dy = s*L*X^2 / (Q*D) = L * |next - X| / Q.
///
/// Every function rounds once: where a value is computed as a nested division, both divisions round the
/// same way, and ceil(ceil(a)/n) = ceil(a/n), floor(floor(a)/n) = floor(a/n) for a real a and an integer
/// n > 0. All products of more than 256 bits go through OpenZeppelin's 512-bit `Math.mulDiv`/`Math.mulShr`.
///
/// Bit budget: the functions state preconditions; the market group keeps X in [2^86, 2^106]
/// (prices in [1e-6, 1e6]), L <= 2^80 and s below the range limits, which satisfies all of them.
library PoolMath {
    /// @notice 2^96, the fixed-point unit of a sqrt price.
    uint256 internal constant Q96 = 1 << 96;
    /// @notice 1e18, the fixed-point unit of a D18 price.
    uint256 internal constant D18 = 1e18;
    /// @notice 1e6, the unit of a fee rate in pips (10_000 = 1%).
    uint256 internal constant FEE_UNIT = 1e6;

    /// @notice The sqrt price of a D18 price: sqrt(priceD18 * 2^192 / E), rounded as `rounding`.
    /// @dev One rounding: floor(sqrt(floor(v))) = floor(sqrt(v)) and ceil(sqrt(ceil(v))) = ceil(sqrt(v)).
    /// Precondition: priceD18 < 2^64 * E, so that the result of the inner mulDiv fits 256 bits.
    /// Invariant: floor gives r with r^2 * E <= priceD18 * 2^192 < (r+1)^2 * E.
    function sqrtPriceX96FromPriceD18(uint256 priceD18, Math.Rounding rounding) internal pure returns (uint256) {
        return Math.sqrt(Math.mulDiv(priceD18, 1 << 192, D18, rounding), rounding);
    }

    /// @notice The D18 price of a sqrt price: sqrtPriceX96^2 * E / 2^192, rounded as `rounding`.
    /// @dev One rounding (a 512-bit product shifted once). Precondition: sqrtPriceX96 < 2^196, so that
    /// sqrtPriceX96 * E fits 256 bits.
    function priceD18FromSqrtPriceX96(uint256 sqrtPriceX96, Math.Rounding rounding) internal pure returns (uint256) {
        return Math.mulShr(sqrtPriceX96, sqrtPriceX96 * D18, 192, rounding);
    }

    /// @notice x / 2^96, rounded as `rounding`.
    function divQ96(uint256 x, Math.Rounding rounding) internal pure returns (uint256) {
        return Math.mulShr(x, 1, 96, rounding);
    }

    /// @notice The largest LONG the pool can fill at all: the largest s with s*X < L*Q, floor((L*Q - 1) / X).
    /// @dev A LONG of s needs the pool to hold more than s base tokens (D > 0). Any s not above this bound
    /// has s*X <= L*Q - 1, so s*X cannot overflow. Preconditions: 0 < L <= 2^160, X > 0.
    function maxLongSize(uint256 liquidity, uint256 sqrtPriceX96) internal pure returns (uint256) {
        return (liquidity * Q96 - 1) / sqrtPriceX96;
    }

    /// @notice A bound on SHORT sizes that keep the price at or above sqrtMin: floor(L*Q / (sqrtMin - 1)).
    /// @dev Any larger s gives an exact next sqrt price below L*Q/s < sqrtMin - 1, hence a rounded-up next
    /// sqrt price below sqrtMin: the bound rejects nothing the range check would accept, and below it
    /// s*X <= L*Q*X / (sqrtMin - 1) cannot overflow. Preconditions: sqrtMin > 1, L <= 2^160.
    function maxShortSize(uint256 liquidity, uint256 sqrtMinPriceX96) internal pure returns (uint256) {
        return (liquidity * Q96) / (sqrtMinPriceX96 - 1);
    }

    /// @notice D of a LONG: L*Q - s*X.
    /// @dev Precondition: s <= maxLongSize(L, X), so that 0 < D <= L*Q.
    function longDenominator(uint256 liquidity, uint256 sqrtPriceX96, uint256 size) internal pure returns (uint256) {
        return liquidity * Q96 - size * sqrtPriceX96;
    }

    /// @notice D of a SHORT: L*Q + s*X.
    /// @dev Precondition: s*X + L*Q < 2^256 (s <= maxShortSize(L, sqrtMin) with X <= 2^106 gives < 2^197).
    function shortDenominator(uint256 liquidity, uint256 sqrtPriceX96, uint256 size) internal pure returns (uint256) {
        return liquidity * Q96 + size * sqrtPriceX96;
    }

    /// @notice The smallest LONG denominator that keeps the price at or below sqrtMax: ceil(L*Q*X / sqrtMax).
    /// @dev For an integer D > 0: D >= ceil(L*Q*X / sqrtMax) <=> L*Q*X / D <= sqrtMax <=>
    /// nextSqrtPriceX96(L, X, D) <= sqrtMax, so comparing D with it checks the range before the next sqrt
    /// price is computed (which could exceed 256 bits for a tiny D). Preconditions: X <= sqrtMax, so the
    /// result is at most L*Q; L <= 2^160.
    function minLongDenominator(uint256 liquidity, uint256 sqrtPriceX96, uint256 sqrtMaxPriceX96)
        internal
        pure
        returns (uint256)
    {
        return Math.mulDiv(liquidity * Q96, sqrtPriceX96, sqrtMaxPriceX96, Math.Rounding.Ceil);
    }

    /// @notice The next sqrt price: ceil(L*Q*X / D), rounded up in both directions (Uniswap's amount0 rounding).
    /// @dev A LONG (D < L*Q) gives a result > X; a SHORT (D > L*Q) a result <= X. Precondition: the result
    /// fits 256 bits (for a LONG, D >= minLongDenominator makes it <= sqrtMax).
    function nextSqrtPriceX96(uint256 liquidity, uint256 sqrtPriceX96, uint256 denominator)
        internal
        pure
        returns (uint256)
    {
        return Math.mulDiv(liquidity * Q96, sqrtPriceX96, denominator, Math.Rounding.Ceil);
    }

    /// @notice The average fill price in D18: dy / s * E = L*X^2*E / (Q*D), rounded as `rounding`.
    /// @dev One rounding: mulDiv(L*X, X*E, D) then / Q, both as `rounding`. The size cancels out.
    /// It lies between the prices before and after the trade. Preconditions: L*X and X*E fit 256 bits
    /// (L <= 2^80, X <= 2^106 give 2^186 and 2^166); L*X^2*E/D < 2^256 (it is fill price * Q <= 2^176).
    function fillPriceD18(uint256 liquidity, uint256 sqrtPriceX96, uint256 denominator, Math.Rounding rounding)
        internal
        pure
        returns (uint256)
    {
        return divQ96(Math.mulDiv(liquidity * sqrtPriceX96, sqrtPriceX96 * D18, denominator, rounding), rounding);
    }

    /// @notice The quote tokens exchanged scaled by E and by a fee factor: dy * E * feeFactor / F
    /// = s*L*X^2*E*feeFactor / (Q*D*F), rounded as `rounding`.
    /// @dev One rounding: mulDiv(s*X*feeFactor, L*X*E, D*F) then / Q, both as `rounding`. feeFactor is F + f
    /// for a LONG (the trader pays the fee on top) and F - f for a SHORT (the fee comes off the proceeds).
    /// Dividing by F inside the mulDiv keeps the intermediate (the value times Q) within 256 bits:
    /// dy <= L*sqrtMax/Q <= 2^90, so value * Q <= 2^90 * 2^59.8 * 1.1 * 2^96 < 2^246.
    /// Preconditions: s*X*feeFactor, L*X*E and D*F fit 256 bits (2^217, 2^246, 2^217 in the market group).
    function quoteWithFeeD18(
        uint256 size,
        uint256 liquidity,
        uint256 sqrtPriceX96,
        uint256 denominator,
        uint256 feeFactor,
        Math.Rounding rounding
    ) internal pure returns (uint256) {
        uint256 scaled = Math.mulDiv(
            size * sqrtPriceX96 * feeFactor, liquidity * sqrtPriceX96 * D18, denominator * FEE_UNIT, rounding
        );
        return divQ96(scaled, rounding);
    }

    /// @notice The collateral of a LONG: its worst case, settlement at minPrice, is
    /// dy*(1 + f/F) - s*minPrice/E, rounded up, never below 0.
    /// @dev Given costD18 = ceil(dy*E*(F+f)/F) (quoteWithFeeD18, Ceil), returns ceil((costD18 - s*minPrice)/E)
    /// clamped at 0. That is a single rounding of the exact value, because s*minPrice is an integer:
    /// ceil((x - K)/n) = ceil((ceil(x) - K)/n) for integers K, n > 0. The exact value is non-decreasing in s
    /// (its derivative is (F+f)/F * next price - minPrice >= 0 while the price stays in range), so the result
    /// never drops between neighbouring sizes, which a difference of two separately rounded values could.
    function longCollateral(uint256 costD18, uint256 size, uint256 minPriceD18) internal pure returns (uint256) {
        uint256 floorValue = size * minPriceD18;
        return costD18 > floorValue ? Math.ceilDiv(costD18 - floorValue, D18) : 0;
    }

    /// @notice The collateral of a SHORT: its worst case, settlement at maxPrice, is
    /// s*maxPrice/E - dy*(1 - f/F), rounded up, never below 0.
    /// @dev Given proceedsD18 = floor(dy*E*(F-f)/F) (quoteWithFeeD18, Floor), returns
    /// ceil((s*maxPrice - proceedsD18)/E) clamped at 0: a single rounding up of the exact value, as
    /// K - floor(x) = ceil(K - x) for an integer K. The exact value is non-decreasing in s (its derivative is
    /// maxPrice - (F-f)/F * next price >= 0 while the price stays in range).
    function shortCollateral(uint256 proceedsD18, uint256 size, uint256 maxPriceD18) internal pure returns (uint256) {
        uint256 ceilingValue = size * maxPriceD18;
        return ceilingValue > proceedsD18 ? Math.ceilDiv(ceilingValue - proceedsD18, D18) : 0;
    }
}
