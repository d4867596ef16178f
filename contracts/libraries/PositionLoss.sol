// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title PositionLoss: what a new position loses at its worst settlement price
/// @notice A LONG bought base tokens for quote tokens: it loses the most if the market settles at its minimum
/// price m. A SHORT sold base tokens it owes: it loses the most at the maximum price M. The loss is valued over
/// the pool's price move, from the sqrt price before the trade to the one after (both read from the pool), across
/// the liquidity ranges the market group placed (the only liquidity of the pool: nobody else holds its tokens).
///
/// On one range of liquidity L, between sqrt prices lo < hi (Q96, Q = 2^96), the pool exchanges quote tokens
/// y = L * (hi - lo) / Q against base tokens x = L * Q * (hi - lo) / (lo * hi) = y * Q^2 / (lo * hi), and takes
/// its fee f (pips / 1e6) from the input: the input is the amount moved divided by (1 - f). So, in D18 terms:
/// - LONG (quote in, base out): y / (1 - f) - x * m / E = y * [E / (1 - f) - m * Q^2 / (lo * hi)] / E;
/// - SHORT (base in, quote out): x * M / (E (1 - f)) - y = y * [M * Q^2 / (lo * hi * (1 - f)) - E] / E.
/// Both brackets are >= 0 inside the market's range (lo * hi / Q^2 lies between m and M, up to their rounding:
/// a bracket is taken as 0 where that rounding would make it negative) and grow as the trade
/// moves the price further (hi up for a LONG, lo down for a SHORT), and so does y: each range's loss is a product
/// of two non-negative factors that never decrease with the trade's size. Each factor is rounded up (y to 1e-18
/// of a wei, the bracket to 1e-36) in a way that keeps it non-decreasing, and the product once more, up; the sum
/// over the ranges is therefore non-decreasing in |size| to the wei, which the pool's integer amounts are not
/// (a wei more of size may add no quote token at all). It differs from the loss of the pool's own integer amounts
/// by their rounding, a few wei per swap step (and a wei of base tokens valued at m or M).
library PositionLoss {
    uint256 internal constant Q96 = 1 << 96;
    uint256 internal constant D18 = 1e18;
    /// @dev The brackets' unit: fine enough that a bracket's rounding costs less than a wei on any y below 1e36.
    uint256 internal constant D36 = 1e36;
    uint256 internal constant FEE_UNIT = 1e6;

    /// @notice One liquidity position of the group in a market's pool, with its bounds' sqrt prices.
    struct Range {
        uint160 sqrtLowerX96;
        uint96 liquidity;
        uint160 sqrtUpperX96;
        int24 tickLower;
        int24 tickUpper;
    }

    /// @notice The LONG's loss at `minPriceD18` over the move from `sqrtFrom` up to `sqrtTo`, rounded up.
    function longLoss(Range[] storage ranges, uint160 sqrtFrom, uint160 sqrtTo, uint256 minPriceD18, uint24 fee)
        internal
        view
        returns (uint256 loss)
    {
        uint256 feeFactor = Math.mulDiv(D36, FEE_UNIT, FEE_UNIT - fee, Math.Rounding.Ceil);
        for (uint256 i; i < ranges.length; ++i) {
            Range storage range = ranges[i];
            uint256 lo = Math.max(sqrtFrom, range.sqrtLowerX96);
            uint256 hi = Math.min(sqrtTo, range.sqrtUpperX96);
            if (hi <= lo) continue;
            // m * Q^2 / (lo * hi) in D36, rounded down twice: non-increasing in hi, so the bracket never decreases.
            uint256 credit = Math.mulDiv(Math.mulDiv(minPriceD18 * D18, Q96, lo), Q96, hi);
            loss += _term(range.liquidity, hi - lo, feeFactor > credit ? feeFactor - credit : 0);
        }
    }

    /// @notice The SHORT's loss at `maxPriceD18` over the move from `sqrtFrom` down to `sqrtTo`, rounded up.
    function shortLoss(Range[] storage ranges, uint160 sqrtFrom, uint160 sqrtTo, uint256 maxPriceD18, uint24 fee)
        internal
        view
        returns (uint256 loss)
    {
        for (uint256 i; i < ranges.length; ++i) {
            Range storage range = ranges[i];
            uint256 lo = Math.max(sqrtTo, range.sqrtLowerX96);
            uint256 hi = Math.min(sqrtFrom, range.sqrtUpperX96);
            if (hi <= lo) continue;
            // M * Q^2 / (lo * hi) / (1 - f) in D36, rounded up three times: non-increasing in lo.
            uint256 debit = Math.mulDiv(Math.mulDiv(maxPriceD18 * D18, Q96, hi, Math.Rounding.Ceil), Q96, lo, Math.Rounding.Ceil);
            debit = Math.mulDiv(debit, FEE_UNIT, FEE_UNIT - fee, Math.Rounding.Ceil);
            loss += _term(range.liquidity, hi - lo, debit > D36 ? debit - D36 : 0);
        }
    }

    /// @notice ceil(ceil(L * width * E / Q) * bracket / (E * E36)): the quote tokens of the move (in 1e-18 wei, up)
    /// times the D36 bracket, in wei, up. Bits: quoteE18 < 2^150, bracket < 2^161 (M / price <= 1e12), so the
    /// product fits mulDiv's 512 bits.
    function _term(uint256 liquidity, uint256 width, uint256 bracketD36) private pure returns (uint256) {
        uint256 quoteE18 = Math.mulDiv(liquidity, width * D18, Q96, Math.Rounding.Ceil);
        return Math.mulDiv(quoteE18, bracketD36, D18 * D36, Math.Rounding.Ceil);
    }
}
