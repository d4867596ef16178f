// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title ExactSearchRule: how the exact search (semantics section 4b) chooses its next candidate
/// @notice The same integer rule as the service's `nextExactCandidate` (src/quote/exactSearch.ts), word for word,
/// so that a searcher on chain quotes exactly the candidates the service then asks for. Every division rounds
/// down. Where TypeScript's unbounded integers would pass 256 bits, the rule itself is bounded (prices above
/// {MAX_SCALED_PRICE} give no estimate; the budget's bound saturates at 2^256-1) or the value saturates at
/// {SATURATED}, which is above every size and changes no choice: a size that large is cut back to the bracket.
library ExactSearchRule {
    /// @dev Below this the real contracts revert on rounding between sizes that fill (section 4b).
    uint256 internal constant DUST = 1e6;
    /// @dev The largest size a quote takes (int256 max).
    uint256 internal constant MAX_SIZE = uint256(type(int256).max);
    /// @dev Stands for every value above MAX_SIZE: an overshoot or a step that large ends at the bracket's edge.
    uint256 private constant SATURATED = 1 << 255;
    /// @dev The largest D18 price whose scaled square (p * 10^36) fits 256 bits.
    uint256 private constant MAX_SCALED_PRICE = type(uint256).max / 1e36;
    /// @dev Two quoted values this close (in units of their last digit) cannot be told apart from their rounding.
    uint256 private constant RESOLUTION = 2;
    /// @dev A bracket wider than this ratio is split near its geometric mean, not at its midpoint.
    uint256 private constant GEOMETRIC_RATIO = 1 << 16;
    /// @dev How far the search may stray from the price edge while the edge still guides it.
    uint256 private constant EDGE_WINDOW = 16;

    /// @notice A quoted size: below the top of the feasible interval (`low`) or above it (`high`). Above, a
    /// revert has no quote but may name the D18 price the market's range ends at (`rangeEnd`, 0 for none).
    struct Side {
        bool known;
        uint256 size;
        bool quoted;
        uint256 requiredCollateral;
        uint256 priceAfter;
        uint256 rangeEnd;
    }

    /// @notice Where the search stands: both sides, quotes in a row on one side (positive below, negative
    /// above; guided quotes only), and how many candidates were quoted.
    struct State {
        Side low;
        Side high;
        int256 streak;
        uint256 quoted;
    }

    /// @notice What the rule reads of the request and the market, and the price edge read at the block ({PriceEdge}).
    struct Input {
        bool isLong;
        uint256 cap;
        uint256 currentPrice;
        uint256 expectedPrice;
        uint256 collateralAvailable;
        bool hasEdge;
        uint256 edge;
    }

    struct Estimate {
        bool found;
        uint256 size;
        uint256 unit;
    }

    /// @notice One rule a size can break, as {_along} follows it (the price or the collateral).
    struct Rule {
        bool isPrice;
        uint256 rawOrigin;
        bool hasOrigin;
        uint256 origin;
        bool hasTarget;
        uint256 target;
        bool brokenAbove;
    }

    /// @notice Whether the top of the feasible interval is known to the wei (or nothing lies above).
    function closed(State memory s) internal pure returns (bool) {
        if (s.low.known && s.low.size == MAX_SIZE) return true;
        if (!s.high.known) return false;
        return s.low.known ? s.high.size - s.low.size <= 1 : s.high.size <= DUST;
    }

    /// @notice Records a quote that raised the low side (feasible, or short of priceLimit).
    function recordBelow(State memory s, uint256 size, uint256 requiredCollateral, uint256 priceAfter) internal pure {
        s.low = Side(true, size, true, requiredCollateral, priceAfter, 0);
        s.streak = s.streak > 0 ? s.streak + 1 : int256(1);
        s.quoted++;
    }

    /// @notice Records a quote over the budget or beyond expectedPrice.
    function recordAbove(State memory s, uint256 size, uint256 requiredCollateral, uint256 priceAfter) internal pure {
        s.high = Side(true, size, true, requiredCollateral, priceAfter, 0);
        _stepAbove(s);
    }

    /// @notice Records a reverted size, with the range end its revert names (0 for none).
    function recordRevert(State memory s, uint256 size, uint256 rangeEnd) internal pure {
        s.high = Side(true, size, false, 0, 0, rangeEnd);
        _stepAbove(s);
    }

    function _stepAbove(State memory s) private pure {
        s.streak = s.streak < 0 ? s.streak - 1 : -1;
        s.quoted++;
    }

    /// @notice The D18 price where the market's range ends, from a PoolPriceOutOfRange bound (a sqrt price X96)
    /// as the service reads it (a uint160 of at most 49 digits): bound^2 * 10^18 / 2^192, rounded down; 0 for none.
    function rangeEndOf(uint256 bound) internal pure returns (uint256) {
        if (bound >= 1e49) return 0;
        return Math.mulDiv(bound, bound * 1e18, 1 << 192);
    }

    /// @notice The next size to quote (unsigned), and whether an estimate guided it (else the streak restarts).
    function next(Input memory input, State memory s) internal pure returns (uint256 size, bool guided) {
        uint256 floor = s.low.known ? s.low.size + 1 : DUST;
        uint256 ceiling = s.high.known ? s.high.size - 1 : MAX_SIZE;
        uint256 middle = s.high.known ? _split(s.low.known ? s.low.size : DUST, s.high.size) : 0;
        if (s.quoted == 0) {
            // The price edge when the budget's first guess lies beyond it.
            size = input.hasEdge && input.edge < input.cap ? input.edge : input.cap;
        } else {
            Estimate memory estimate = _estimateTop(input, s);
            if (estimate.found) {
                guided = true;
                size = _guided(s, estimate, middle);
            } else {
                size = s.high.known ? middle : s.low.size * 2;
            }
            // Nothing fills yet and what is left above DUST would be halved: DUST itself (a proof either way).
            if (!s.low.known && s.high.known && s.high.size / GEOMETRIC_RATIO <= DUST) {
                size = DUST;
                guided = false;
            }
        }
        if (size < floor) size = floor;
        else if (size > ceiling) size = ceiling;
    }

    /// @notice Just before the estimate, then moved on by 1, 2, 4, ... units while quotes keep landing on one side,
    /// never past the split.
    function _guided(State memory s, Estimate memory estimate, uint256 middle) private pure returns (uint256 size) {
        uint256 streakLength = s.streak < 0 ? uint256(-s.streak) : uint256(s.streak);
        uint256 overshoot = streakLength <= 1 ? 0 : _shifted(estimate.unit, Math.min(streakLength, 255) - 2);
        uint256 gap;
        if (s.streak <= -2 && s.high.size > estimate.size) gap = s.high.size - estimate.size;
        else if (s.streak >= 2 && s.low.known && estimate.size > s.low.size) gap = estimate.size - s.low.size;
        uint256 far = gap == 0 ? 0 : _shifted(gap, Math.min(streakLength, 255) - 2);
        if (far > overshoot) overshoot = far;
        if (s.streak >= 0) {
            uint256 past = estimate.size + overshoot;
            // past - 1 below 0 is below every bound: 0 stands for it, as the floor is at least DUST.
            size = past == 0 ? 0 : past - 1;
            if (s.streak > 0 && s.high.known && size > middle) size = middle;
        } else {
            size = estimate.size >= overshoot + 1 ? estimate.size - 1 - overshoot : 0;
            if (size < middle) size = middle;
        }
    }

    /// @notice value * 2^shift, saturated at {SATURATED}.
    function _shifted(uint256 value, uint256 shift) private pure returns (uint256) {
        if (value == 0) return 0;
        if (shift >= 255 || value > SATURATED >> shift) return SATURATED;
        return value << shift;
    }

    /// @notice Near the geometric mean while the bracket spans more than 2^16, else the midpoint.
    function _split(uint256 bottom, uint256 top) private pure returns (uint256) {
        return top / GEOMETRIC_RATIO > bottom ? Math.sqrt(bottom) * Math.sqrt(top) : (bottom + top) / 2;
    }

    /// @notice The smallest estimate of the first size too large over the rules a size can break, in order:
    /// the price, the budget, the range's end (a tie keeps the first). Where the price edge guides, it stands for the
    /// price and the range's end, and is kept even above the size known too large (its steps down start there).
    function _estimateTop(Input memory input, State memory s) private pure returns (Estimate memory best) {
        bool tooCostly = s.high.known && s.high.quoted && s.high.requiredCollateral > input.collateralAvailable;
        Estimate memory byEdge = _edgeTop(input, s, tooCostly);
        _keepSmallest(best, byEdge);
        Rule memory price;
        price.isPrice = true;
        price.rawOrigin = input.currentPrice;
        (price.hasOrigin, price.origin) = _inverseSqrtPrice(input.currentPrice);
        if (input.isLong ? input.expectedPrice < MAX_SCALED_PRICE : input.expectedPrice > 0) {
            (price.hasTarget, price.target) =
                _inverseSqrtPrice(input.isLong ? input.expectedPrice + 1 : input.expectedPrice - 1);
        }
        price.brokenAbove = s.high.known && s.high.quoted && !tooCostly;
        if (!byEdge.found) _keepSmallest(best, _along(s, price));

        uint256 overBudget = input.collateralAvailable == type(uint256).max ? type(uint256).max : input.collateralAvailable + 1;
        _keepSmallest(best, _along(s, Rule(false, 0, true, 0, true, overBudget, tooCostly)));

        if (!byEdge.found && s.high.known && !s.high.quoted && s.high.rangeEnd != 0) {
            (price.hasTarget, price.target) = _inverseSqrtPrice(s.high.rangeEnd);
            price.brokenAbove = false;
            _keepSmallest(best, _along(s, price));
        }
    }

    /// @notice One wei past the price edge, while the edge guides: the search has not moved more than EDGE_WINDOW
    /// from it, and no size at or below it is known to need more than the budget.
    function _edgeTop(Input memory input, State memory s, bool tooCostly) private pure returns (Estimate memory estimate) {
        if (!input.hasEdge || (s.low.known && s.low.size > input.edge + EDGE_WINDOW)) return estimate;
        if (s.high.known && (s.high.size + EDGE_WINDOW <= input.edge || (tooCostly && s.high.size <= input.edge))) return estimate;
        return Estimate(true, input.edge < MAX_SIZE ? input.edge + 1 : MAX_SIZE, 1);
    }

    /// @notice Keeps `candidate` when it is useful (not above the size known too large) and smaller than `best`.
    function _keepSmallest(Estimate memory best, Estimate memory candidate) private pure {
        if (!candidate.found) return;
        if (best.found && candidate.size >= best.size) return;
        best.found = true;
        best.size = candidate.size;
        best.unit = candidate.unit;
    }

    /// @notice One rule's estimate: interpolated between both sides when the size above broke it, else
    /// extrapolated from the start of the trade (size 0) through the low side. None where the two quoted values
    /// are too close to tell apart, or the estimate lies above the size known too large.
    function _along(State memory s, Rule memory rule) private pure returns (Estimate memory estimate) {
        if (!rule.hasTarget || !rule.hasOrigin) return estimate;
        (bool hasLowValue, uint256 lowValue) = s.low.known && s.low.quoted ? _scaled(rule, s.low) : (false, 0);
        uint256 s1 = hasLowValue ? s.low.size : 0;
        uint256 y1 = hasLowValue ? lowValue : rule.origin;
        if (rule.brokenAbove && s.high.known && s.high.quoted) {
            estimate = _between(s, rule, s1, y1, hasLowValue);
        } else if (s1 > 0) {
            (estimate.found, estimate.size) = _interpolate(0, rule.origin, s1, y1, rule.target);
            estimate.unit = 1;
        }
        if (estimate.found && s.high.known && estimate.size > s.high.size) estimate.found = false;
    }

    /// @notice Interpolated between (s1, y1) and the size above, which broke the rule; the unit is the wei one unit
    /// of the raw value spans between them.
    function _between(State memory s, Rule memory rule, uint256 s1, uint256 y1, bool hasLowValue)
        private
        pure
        returns (Estimate memory estimate)
    {
        (bool hasHighValue, uint256 highValue) = _scaled(rule, s.high);
        if (!hasHighValue) return estimate;
        uint256 highRaw = _raw(rule, s.high);
        uint256 lowRaw = hasLowValue ? _raw(rule, s.low) : rule.rawOrigin;
        uint256 apart = highRaw > lowRaw ? highRaw - lowRaw : lowRaw - highRaw;
        if (s.low.known && s.low.quoted && apart <= RESOLUTION) return estimate;
        (estimate.found, estimate.size) = _interpolate(s1, y1, s.high.size, highValue, rule.target);
        uint256 unit = apart == 0 ? 1 : (s.high.size - s1) / apart;
        estimate.unit = unit > 0 ? unit : 1;
    }

    function _raw(Rule memory rule, Side memory side) private pure returns (uint256) {
        return rule.isPrice ? side.priceAfter : side.requiredCollateral;
    }

    function _scaled(Rule memory rule, Side memory side) private pure returns (bool, uint256) {
        return rule.isPrice ? _inverseSqrtPrice(side.priceAfter) : (true, side.requiredCollateral);
    }

    /// @notice 10^54 / floor(sqrt(p * 10^36)), rounded down: affine in size over one liquidity range.
    function _inverseSqrtPrice(uint256 price) private pure returns (bool, uint256) {
        if (price == 0 || price > MAX_SCALED_PRICE) return (false, 0);
        return (true, 1e54 / Math.sqrt(price * 1e36));
    }

    /// @notice Where the line through (s1, y1) and (s2, y2), s1 < s2, reaches `target`, when it moves towards it:
    /// s1 + |target - y1| * (s2 - s1) / |y2 - y1|, rounded up, at most MAX_SIZE.
    function _interpolate(uint256 s1, uint256 y1, uint256 s2, uint256 y2, uint256 target)
        private
        pure
        returns (bool, uint256)
    {
        bool rising = y2 > y1;
        uint256 rise = rising ? y2 - y1 : y1 - y2;
        bool up = target > y1;
        uint256 needed = up ? target - y1 : y1 - target;
        if (rise == 0 || (needed != 0 && up != rising)) return (false, 0);
        (uint256 productHigh,) = Math.mul512(needed, s2 - s1);
        if (productHigh >= rise) return (true, MAX_SIZE);
        // Rounded up: the first size at or past the target on the line.
        uint256 step = Math.mulDiv(needed, s2 - s1, rise);
        if (step < type(uint256).max && mulmod(needed, s2 - s1, rise) != 0) step++;
        return (true, step > MAX_SIZE - s1 ? MAX_SIZE : s1 + step);
    }
}
