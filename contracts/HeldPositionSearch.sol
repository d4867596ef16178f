// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {BisectionSearch} from "./BisectionSearch.sol";
import {ExactSearch} from "./ExactSearch.sol";
import {IMarketGroup} from "./interfaces/IMarketGroup.sol";
import {MAX_PRICE_WORD, MIN_PRICE_WORD, wordAt} from "./libraries/MarketWords.sol";

/// @title HeldPositionSearch: both searches over the trades of a held position (semantics section 13)
/// @notice A candidate is the signed trade; the position is quoted at `current` plus it by quoteModifyTraderPosition.
/// Overrides SearcherBase's new-position hooks for a request that holds a position (`held.active`), and leaves a
/// new position's request to them; only the position searcher (and its test harness) compiles this code.
abstract contract HeldPositionSearch is BisectionSearch, ExactSearch {
    /// @dev A quote of a position's modification returns four words: delta, closePnL, fillPrice, priceAfter.
    uint256 internal constant MODIFY_RETURN_LENGTH = 128;
    /// @dev A position's offset never exceeds this (so that a shifted delta fits 256 bits), nor a target int256's.
    uint256 internal constant MAX_OFFSET = 2 ** 254;
    int256 internal constant MAX_TARGET = type(int256).max;
    /// @dev What a new position's requirement adds to its loss (the group's rounding), already held by an open one.
    uint256 internal constant COLLATERAL_ROUNDING = 2;

    /// @notice A position's offset, once its market's answer is read: the group's rounding, plus, for a trade against
    /// the position, the credit of closing it, floor(|current| * (max - min) / 1e18), capped at MAX_OFFSET. Past the
    /// close (and all along when adding) the shifted delta is then the requirement of a new position of the trade on
    /// the reference group, which the exact rule's loss model guesses from; elsewhere it is only a guide.
    function _hold(Request memory q, bytes memory market, bool isLong) internal pure override {
        if (!_held(q)) return;
        q.offset = COLLATERAL_ROUNDING;
        if (!_against(q.current, isLong)) return;
        (, uint256 first) = wordAt(market, 0);
        (, uint256 minPrice) = wordAt(market, first / 32 + MIN_PRICE_WORD);
        (, uint256 maxPrice) = wordAt(market, first / 32 + MAX_PRICE_WORD);
        uint256 held = _magnitude(q.current);
        uint256 width = maxPrice > minPrice ? maxPrice - minPrice : 0;
        (uint256 high,) = Math.mul512(held, width);
        uint256 credit = high >= D18 ? MAX_OFFSET : Math.min(Math.mulDiv(held, width, D18), MAX_OFFSET);
        q.offset += credit;
    }

    /// @notice The range's top plus |current| for a trade against a position (reducing returns collateral before a
    /// flip needs any), capped at int256 max.
    function _rangeTop(Request memory q, uint256 price, bool isLong) internal pure override returns (uint256 top) {
        top = super._rangeTop(q, price, isLong);
        if (_held(q) && _against(q.current, isLong)) top = Math.min(top + _magnitude(q.current), MAX_SIZE);
    }

    /// @notice A position's budget is shifted by its offset, saturated.
    function _budget(Search memory s) internal pure override returns (uint256) {
        if (!_held(s.q)) return super._budget(s);
        (bool fits, uint256 sum) = Math.tryAdd(s.q.collateralAvailable, s.q.offset);
        return fits ? sum : type(uint256).max;
    }

    /// @notice The modification to `current + size`; none when the new size would pass int256 either way.
    function _quoteCall(Search memory s, int256 size) internal pure override returns (bool quotable, bytes memory quote) {
        if (!_held(s.q)) return super._quoteCall(s, size);
        int256 current = s.q.current;
        if (size > 0 ? current > MAX_TARGET - size : current < -MAX_TARGET - size) return (false, quote);
        return (true, abi.encodeCall(IMarketGroup.quoteModifyTraderPosition, (s.q.positionId, current + size)));
    }

    /// @notice A modification's quote (delta, closePnL, fillPrice, priceAfter), classified as a new position's with its
    /// delta shifted ({_shifted}) as the requirement, against the shifted budget ({_budget}).
    function _outcome(Search memory s, Candidate memory candidate)
        internal
        pure
        override
        returns (bool quoted, bool tooLarge, uint256 requiredCollateral, uint256 priceAfter)
    {
        if (!_held(s.q)) return super._outcome(s, candidate);
        if (!candidate.success || candidate.data.length < MODIFY_RETURN_LENGTH) return (false, true, 0, 0);
        int256 delta;
        (delta,,, priceAfter) = abi.decode(candidate.data, (int256, int256, uint256, uint256));
        requiredCollateral = _shifted(delta, s.q.offset);
        tooLarge = requiredCollateral > _budget(s) || (s.isLong ? priceAfter > s.q.expectedPrice : priceAfter < s.q.expectedPrice);
        return (true, tooLarge, requiredCollateral, priceAfter);
    }

    /// @notice A modification's fill price is its third word.
    function _fillPrice(Search memory s, bytes memory data) internal pure override returns (uint256 fillPrice) {
        if (!_held(s.q)) return super._fillPrice(s, data);
        (, fillPrice) = wordAt(data, 2);
    }

    /// @notice Whether `q` modifies a held position (whose offset is never 0) rather than opening one.
    function _held(Request memory q) internal pure returns (bool) {
        return q.offset != 0;
    }

    /// @notice Whether a trade in the direction reduces (or turns around) a position of size `current`.
    function _against(int256 current, bool isLong) internal pure returns (bool) {
        return isLong ? current < 0 : current > 0;
    }

    function _magnitude(int256 value) internal pure returns (uint256) {
        return value >= 0 ? uint256(value) : uint256(-(value + 1)) + 1;
    }

    /// @notice A position's signed collateral delta shifted by its offset, 0 where it would be negative (then it is
    /// within any budget, as the delta itself is).
    function _shifted(int256 delta, uint256 offset) internal pure returns (uint256) {
        if (delta >= 0) return uint256(delta) + offset;
        uint256 back = _magnitude(delta);
        return back < offset ? offset - back : 0;
    }
}
