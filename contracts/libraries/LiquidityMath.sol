// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title LiquidityMath: a liquidity position's tokens and the collateral it needs
/// @notice Between the sqrt prices a < b (Q96) of a range, at the pool's sqrt price p, liquidity L holds
/// x = L * 2^96 * (b' - a') / (b' * a') base tokens and y = L * (b'' - a'') / 2^96 quote tokens, where [a', b'] and
/// [a'', b''] are the parts of the range above and below p. As v3-periphery's position manager and the real group
/// compute them: amounts rounded down (L << 96 * (b - a) / b, then / a, each floored), the liquidity of amounts
/// rounded down and the least of the two sides' when p lies inside the range. A liquidity past 128 bits, and a range
/// of width zero, revert with no data, as theirs do.
///
/// The collateral a new position of L needs (docs/semantics.md section 8): the position owes the pool's amounts it
/// was minted with (its loans, each counted one wei more) and holds L's tokens. At the market's minimum price m it
/// would hold only base tokens, x of the whole range, worth floor(x * m / E); at its maximum M only quote tokens, y
/// of the whole range. The need at a bound is what the loans are worth there (base loans valued at that bound's
/// price, rounded down) less what it holds, at least 0; the requirement is the larger need, plus 2 wei when not 0.
library LiquidityMath {
    uint256 internal constant Q96 = 1 << 96;
    uint256 internal constant D18 = 1e18;

    /// @notice The base and quote tokens liquidity `liquidity` holds in [sqrtA, sqrtB] at sqrt price `sqrtPrice`.
    function amountsForLiquidity(uint160 sqrtPrice, uint160 sqrtA, uint160 sqrtB, uint128 liquidity)
        internal
        pure
        returns (uint256 amount0, uint256 amount1)
    {
        (sqrtA, sqrtB) = _ordered(sqrtA, sqrtB);
        if (sqrtPrice <= sqrtA) return (amount0For(sqrtA, sqrtB, liquidity), 0);
        if (sqrtPrice >= sqrtB) return (0, amount1For(sqrtA, sqrtB, liquidity));
        return (amount0For(sqrtPrice, sqrtB, liquidity), amount1For(sqrtA, sqrtPrice, liquidity));
    }

    /// @notice The most liquidity that `amount0` base and `amount1` quote tokens pay for in [sqrtA, sqrtB] at sqrt
    /// price `sqrtPrice`.
    function liquidityForAmounts(uint160 sqrtPrice, uint160 sqrtA, uint160 sqrtB, uint256 amount0, uint256 amount1)
        internal
        pure
        returns (uint128)
    {
        (sqrtA, sqrtB) = _ordered(sqrtA, sqrtB);
        if (sqrtPrice <= sqrtA) return _liquidityFor0(sqrtA, sqrtB, amount0);
        if (sqrtPrice >= sqrtB) return _liquidityFor1(sqrtA, sqrtB, amount1);
        uint128 from0 = _liquidityFor0(sqrtPrice, sqrtB, amount0);
        uint128 from1 = _liquidityFor1(sqrtA, sqrtPrice, amount1);
        return from0 < from1 ? from0 : from1;
    }

    /// @notice The collateral (18 decimals) a new position of `liquidity` in [sqrtA, sqrtB] needs, owing `loan0` base
    /// and `loan1` quote tokens, on a market of prices [minPriceD18, maxPriceD18] (see the library's notice).
    function requiredCollateral(
        uint128 liquidity,
        uint256 loan0,
        uint256 loan1,
        uint160 sqrtA,
        uint160 sqrtB,
        uint256 minPriceD18,
        uint256 maxPriceD18
    ) internal pure returns (uint256 required) {
        uint256 heldAtMin = Math.mulDiv(amount0For(sqrtA, sqrtB, liquidity), minPriceD18, D18);
        uint256 heldAtMax = amount1For(sqrtA, sqrtB, liquidity);
        uint256 owedAtMin = loan1 + 1 + Math.mulDiv(loan0 + 1, minPriceD18, D18);
        uint256 owedAtMax = loan1 + 1 + Math.mulDiv(loan0 + 1, maxPriceD18, D18);
        required = Math.max(_shortfall(owedAtMin, heldAtMin), _shortfall(owedAtMax, heldAtMax));
        if (required > 0) required += 2;
    }

    /// @notice floor(floor(L * 2^96 * (b - a) / b) / a).
    function amount0For(uint160 sqrtA, uint160 sqrtB, uint128 liquidity) internal pure returns (uint256) {
        (sqrtA, sqrtB) = _ordered(sqrtA, sqrtB);
        return Math.mulDiv(uint256(liquidity) << 96, sqrtB - sqrtA, sqrtB) / sqrtA;
    }

    /// @notice floor(L * (b - a) / 2^96).
    function amount1For(uint160 sqrtA, uint160 sqrtB, uint128 liquidity) internal pure returns (uint256) {
        (sqrtA, sqrtB) = _ordered(sqrtA, sqrtB);
        return Math.mulDiv(liquidity, sqrtB - sqrtA, Q96);
    }

    function _liquidityFor0(uint160 sqrtA, uint160 sqrtB, uint256 amount0) private pure returns (uint128) {
        return _toUint128(Math.mulDiv(amount0, Math.mulDiv(sqrtA, sqrtB, Q96), _width(sqrtA, sqrtB)));
    }

    function _liquidityFor1(uint160 sqrtA, uint160 sqrtB, uint256 amount1) private pure returns (uint128) {
        return _toUint128(Math.mulDiv(amount1, Q96, _width(sqrtA, sqrtB)));
    }

    /// @dev b - a, reverting with no data when 0 (a range of one tick), as v3's FullMath does on a zero divisor.
    function _width(uint160 sqrtA, uint160 sqrtB) private pure returns (uint256) {
        if (sqrtB == sqrtA) revert();
        return sqrtB - sqrtA;
    }

    function _toUint128(uint256 value) private pure returns (uint128) {
        if (value > type(uint128).max) revert();
        return uint128(value);
    }

    function _ordered(uint160 a, uint160 b) private pure returns (uint160, uint160) {
        return a > b ? (b, a) : (a, b);
    }

    function _shortfall(uint256 owed, uint256 held) private pure returns (uint256) {
        return owed > held ? owed - held : 0;
    }
}
