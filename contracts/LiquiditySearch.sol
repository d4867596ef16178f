// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title LiquiditySearch: which liquidity a new LP position's search quotes next (semantics section 14)
/// @notice The largest liquidity L whose requirement fits the budget, with L + 1 not fitting: a bracket (lo fits, hi
/// does not; lo 0 and hi 2^128 stand for none quoted) narrowed by candidates aimed through the requirement's
/// near-linearity in L (interpolated between the two sides once both are quoted, scaled from the one quoted before),
/// safeguarded: one side alone is left by strides that double, and a two-sided step that did not halve the bracket, or
/// a bracket whose sides' requirements differ by no more than the roundings' jitter, is bisected, so that it never does much worse than bisecting. The first candidate is the market group's
/// own quote. src/quote/liquidityRule.ts is the same rule, step for step: the service replays this one's choices
/// through it and refuses any difference.
abstract contract LiquiditySearch {
    /// @notice Where the search stands: its bracket with each side's requirement and whether it was quoted, the
    /// stride of a one-sided step, the bracket's width at the last two-sided step, and the candidates so far.
    struct Rule {
        uint256 lo;
        uint256 loRequired;
        bool loQuoted;
        uint256 hi;
        uint256 hiRequired;
        bool hiQuoted;
        uint256 stride;
        uint256 lastWidth;
        uint256 count;
    }

    /// @dev The largest liquidity a v3 position takes.
    uint256 internal constant MAX_LIQUIDITY = type(uint128).max;
    /// @dev Wei the mint's roundings move a requirement by: across a bracket whose sides differ by no more, the
    /// requirement says nothing of where its edge lies, so the bracket is bisected.
    uint256 internal constant JITTER = 4;

    function _newRule() internal pure returns (Rule memory) {
        return Rule(0, 0, false, MAX_LIQUIDITY + 1, 0, false, 1, 0, 0);
    }

    /// @notice The next liquidity to quote, or `done` once the bracket is one apart. `first`: the group's quote.
    function _nextLiquidity(Rule memory r, uint256 budget, uint256 first) internal pure returns (bool done, uint256 liquidity) {
        if (r.count == 0) return (false, Math.min(Math.max(first, 1), MAX_LIQUIDITY));
        if (r.hi - r.lo <= 1) return (true, 0);
        uint256 aim = _aim(r, budget);
        if (r.loQuoted && r.hiQuoted) {
            uint256 width = r.hi - r.lo;
            bool slow = (r.lastWidth != 0 && 2 * width > r.lastWidth) || r.hiRequired - r.loRequired <= JITTER;
            r.lastWidth = width;
            return (false, slow ? r.lo + width / 2 : _within(aim, r.lo + 1, r.hi - 1));
        }
        uint256 stride = r.stride;
        r.stride = Math.min(2 * stride, MAX_LIQUIDITY);
        if (r.loQuoted) return (false, Math.min(Math.max(aim, r.lo + stride), r.hi - 1));
        uint256 down = r.hi > stride ? r.hi - stride : 1;
        return (false, Math.max(Math.min(aim, down), 1));
    }

    /// @notice Takes a candidate's requirement: it fits the budget (the new lo) or it does not (the new hi).
    function _learn(Rule memory r, uint256 liquidity, uint256 required, uint256 budget) internal pure {
        r.count++;
        if (required <= budget) (r.lo, r.loRequired, r.loQuoted) = (liquidity, required, true);
        else (r.hi, r.hiRequired, r.hiQuoted) = (liquidity, required, true);
    }

    /// @notice Where the requirement meets the budget: interpolated between the sides, else scaled from the one quoted
    /// (the requirement taken as proportional to L); past 2^256 it is 2^256 - 1 (any bracket clamps it).
    function _aim(Rule memory r, uint256 budget) private pure returns (uint256) {
        if (r.loQuoted && r.hiQuoted) return r.lo + Math.mulDiv(budget - r.loRequired, r.hi - r.lo, r.hiRequired - r.loRequired);
        if (r.hiQuoted) return Math.mulDiv(r.hi, budget, r.hiRequired);
        if (r.loRequired == 0) return 2 * r.lo;
        (uint256 high,) = Math.mul512(r.lo, budget);
        return high >= r.loRequired ? type(uint256).max : Math.mulDiv(r.lo, budget, r.loRequired);
    }

    function _within(uint256 value, uint256 low, uint256 high) private pure returns (uint256) {
        return Math.min(Math.max(value, low), high);
    }
}
