// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title ExactSearchRule: how the exact search (semantics section 4b) chooses its next step, and how a step moves it
/// @notice The same integer rule as the service's (src/quote/exactRule.ts), function for function, so that a searcher
/// on chain quotes exactly the candidates the service then asks for. Every division rounds down. Where TypeScript's
/// unbounded integers would pass 256 bits, the rule itself is bounded (prices above {MAX_SCALED_PRICE} give no
/// estimate; the budget's target saturates at 2^256-1; the loss model refuses values from 2^253 on) or the value
/// saturates at {SATURATED}, which is above every size and changes no choice: a size that large is cut back to the
/// bracket.
library ExactSearchRule {
    /// @dev Below this the real contracts revert on rounding between sizes that fill (section 4b).
    uint256 internal constant DUST = 1e6;
    /// @dev The largest size a quote takes (int256 max).
    uint256 internal constant MAX_SIZE = uint256(type(int256).max);
    /// @dev Stands for every value above MAX_SIZE: an overshoot or a step that large ends at the bracket's edge.
    uint256 private constant SATURATED = 1 << 255;
    uint256 private constant D18 = 1e18;
    uint256 private constant D36 = 1e36;
    /// @dev The largest D18 price whose scaled square (p * 10^36) fits 256 bits.
    uint256 private constant MAX_SCALED_PRICE = type(uint256).max / D36;
    /// @dev Two quoted values this close (in units of their last digit) cannot be told apart from their rounding.
    uint256 private constant RESOLUTION = 2;
    /// @dev Sides whose requirements are at most this many units apart bound a narrow bracket.
    uint256 private constant NARROW_UNITS = 8;
    /// @dev A bracket wider than this ratio is split near its geometric mean, not at its midpoint.
    uint256 private constant GEOMETRIC_RATIO = 1 << 16;
    /// @dev How far the search may stray from the price edge while the edge still guides it.
    uint256 private constant EDGE_WINDOW = 16;
    /// @dev Newton steps on the loss model.
    uint256 private constant MODEL_STEPS = 8;
    /// @dev The loss model's values and its distance to the target stay below this, so that their sums fit an int256.
    uint256 private constant MODEL_BOUND = 1 << 253;

    /// @notice A quoted size: below the top of the feasible interval (`low`) or above it (`high`). Above, a revert
    /// has no quote but may name the D18 price the market's range ends at (`rangeEnd`, 0 for none).
    struct Side {
        bool known;
        uint256 size;
        bool quoted;
        uint256 requiredCollateral;
        uint256 fillPrice;
        uint256 priceAfter;
        uint256 rangeEnd;
    }

    /// @notice Where the search stands: both sides, the quote before the latest (`prior`), quotes in a row on one side
    /// (positive below, negative above; guided quotes only), how many candidates were quoted, and the price edge
    /// (asked for or not, and its size when one was read).
    struct State {
        Side low;
        Side high;
        Side prior;
        int256 streak;
        uint256 quoted;
        bool edgeAsked;
        bool hasEdge;
        uint256 edge;
    }

    /// @notice What the rule reads of the request and the market: the direction, the cap, the prices, the budget, and
    /// the settlement price at which the position loses the most (the market's minimum for a LONG, maximum for a SHORT).
    struct Input {
        bool isLong;
        uint256 cap;
        uint256 currentPrice;
        uint256 expectedPrice;
        uint256 collateralAvailable;
        uint256 worstPrice;
    }

    /// @notice An estimate of the first size too large, the wei one unit of its value spans, whether it bounds a
    /// narrow bracket, and whether it came from the latest quotes alone (a secant or the loss model).
    struct Estimate {
        bool found;
        uint256 size;
        uint256 unit;
        bool narrow;
        bool steady;
    }

    /// @notice Whether the top of the feasible interval is known to the wei (or nothing lies above).
    function closed(State memory s) internal pure returns (bool) {
        if (s.low.known && s.low.size == MAX_SIZE) return true;
        if (!s.high.known) return false;
        return s.low.known ? s.high.size - s.low.size <= 1 : s.high.size <= DUST;
    }

    /// @notice Records the price edge read: its size, or none.
    function recordEdge(State memory s, bool hasEdge, uint256 edge) internal pure {
        (s.edgeAsked, s.hasEdge, s.edge) = (true, hasEdge, hasEdge ? edge : 0);
    }

    /// @notice Records a quote that raised the low side (feasible, or short of priceLimit).
    function recordBelow(State memory s, bool guided, uint256 size, uint256 requiredCollateral, uint256 fillPrice, uint256 priceAfter)
        internal
        pure
    {
        s.prior = _latest(s);
        s.low = Side(true, size, true, requiredCollateral, fillPrice, priceAfter, 0);
        s.streak = guided && s.streak > 0 ? s.streak + 1 : int256(1);
        s.quoted++;
    }

    /// @notice Records a quote over the budget or beyond expectedPrice.
    function recordAbove(State memory s, bool guided, uint256 size, uint256 requiredCollateral, uint256 fillPrice, uint256 priceAfter)
        internal
        pure
    {
        _stepAbove(s, guided, Side(true, size, true, requiredCollateral, fillPrice, priceAfter, 0));
    }

    /// @notice Records a reverted size, with the range end its revert names (0 for none).
    function recordRevert(State memory s, bool guided, uint256 size, uint256 rangeEnd) internal pure {
        _stepAbove(s, guided, Side(true, size, false, 0, 0, 0, rangeEnd));
    }

    function _stepAbove(State memory s, bool guided, Side memory high) private pure {
        s.prior = _latest(s);
        s.high = high;
        s.streak = guided && s.streak < 0 ? s.streak - 1 : -1;
        s.quoted++;
    }

    /// @dev The latest quote: the side the streak is on (none at the start).
    function _latest(State memory s) private pure returns (Side memory latest) {
        if (s.streak > 0) return s.low;
        if (s.streak < 0) return s.high;
    }

    /// @notice The D18 price where the market's range ends, from a PoolPriceOutOfRange bound (a sqrt price X96)
    /// as the service reads it (a uint160 of at most 49 digits): bound^2 * 10^18 / 2^192, rounded down; 0 for none.
    function rangeEndOf(uint256 bound) internal pure returns (uint256) {
        if (bound >= 1e49) return 0;
        return Math.mulDiv(bound, bound * 1e18, 1 << 192);
    }

    /// @notice The next step: read the price edge, or quote `size` (unsigned), and whether an estimate guided it.
    function next(Input memory input, State memory s) internal pure returns (bool readEdge, uint256 size, bool guided) {
        if (!s.edgeAsked) return (true, 0, false);
        uint256 floor = s.low.known ? s.low.size + 1 : DUST;
        uint256 ceiling = s.high.known ? s.high.size - 1 : MAX_SIZE;
        if (s.quoted == 0) {
            // The price edge when the budget's first guess lies beyond it.
            size = s.hasEdge && s.edge < input.cap ? s.edge : input.cap;
        } else {
            Estimate memory estimate = _estimateTop(input, s);
            if (estimate.found && estimate.narrow && s.low.known && s.high.known) {
                guided = true;
                size = _narrowed(s, estimate);
            } else if (estimate.found) {
                guided = true;
                size = _guided(s, estimate);
            } else if (!s.low.known && s.high.known && s.high.size / GEOMETRIC_RATIO <= DUST) {
                // Nothing fills yet, nothing guides, and what is left above DUST would be halved: DUST itself.
                size = DUST;
            } else {
                size = s.high.known ? _split(s.low.known ? s.low.size : DUST, s.high.size) : _doubled(s.low.size);
            }
        }
        if (size < floor) size = floor;
        else if (size > ceiling) size = ceiling;
    }

    /// @notice In a narrow bracket: just before the estimate, halfway from the second quote in a row on one side,
    /// and kept to the bracket's middle half.
    function _narrowed(State memory s, Estimate memory estimate) private pure returns (uint256 size) {
        uint256 quarter = (s.high.size - s.low.size) / 4;
        bool repeated = s.streak >= 2 || s.streak <= -2;
        size = repeated ? (s.low.size + s.high.size) / 2 : _before(estimate.size);
        if (size < s.low.size + quarter) size = s.low.size + quarter;
        if (size > s.high.size - quarter) size = s.high.size - quarter;
    }

    /// @notice Just before the estimate; for regula falsi's lines, from the third quote in a row on one side moved on
    /// by 1, 2, 4, ... units (and at least as far as the last quote missed it, doubled), never past the split.
    function _guided(State memory s, Estimate memory estimate) private pure returns (uint256 size) {
        size = _before(estimate.size);
        if (estimate.steady) return size;
        uint256 run = s.streak < 0 ? uint256(-s.streak) : uint256(s.streak);
        if (run >= 3) {
            uint256 shift = Math.min(run, 257) - 3;
            uint256 gap;
            if (s.streak < 0 && s.high.size > estimate.size) gap = s.high.size - estimate.size;
            else if (s.streak > 0 && s.low.known && estimate.size > s.low.size) gap = estimate.size - s.low.size;
            uint256 far = _shifted(gap, shift);
            uint256 near = _shifted(estimate.unit, shift);
            uint256 overshoot = far > near ? far : near;
            if (s.streak > 0) size = size + overshoot > SATURATED ? SATURATED : size + overshoot;
            else size = size > overshoot ? size - overshoot : 0;
        }
        if (s.high.known && s.streak != 0) {
            uint256 middle = _split(s.low.known ? s.low.size : DUST, s.high.size);
            if (s.streak > 0 ? size > middle : size < middle) size = middle;
        }
    }

    /// @dev One below `size`; 0 stands for below 0, which every bound then lifts (the floor is at least DUST).
    function _before(uint256 size) private pure returns (uint256) {
        return size == 0 ? 0 : size - 1;
    }

    /// @dev Twice `size`, saturated (nothing above is known: doubling up).
    function _doubled(uint256 size) private pure returns (uint256) {
        return size > SATURATED / 2 ? SATURATED : size * 2;
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

    /// @notice The smallest estimate of the first size too large over the rules a size can break, in order: the price
    /// edge (or, without it, the price's line and the range's end), then the budget (a tie keeps the first). The edge's
    /// estimate is kept even above the size known too large (its steps down start there); no other is.
    function _estimateTop(Input memory input, State memory s) private pure returns (Estimate memory best) {
        bool tooCostly = s.high.known && s.high.quoted && s.high.requiredCollateral > input.collateralAvailable;
        best = _edgeTop(s, tooCostly);
        if (!best.found) {
            (bool hasOrigin, uint256 origin) = _inverseSqrtPrice(input.currentPrice);
            (bool hasPassed, uint256 passed) = input.isLong
                ? (input.expectedPrice < MAX_SCALED_PRICE ? _inverseSqrtPrice(input.expectedPrice + 1) : (false, 0))
                : (input.expectedPrice > 0 ? _inverseSqrtPrice(input.expectedPrice - 1) : (false, 0));
            _keep(s, best, _priceLine(s, hasOrigin, origin, hasPassed, passed, s.high.known && s.high.quoted && !tooCostly));
            if (s.high.known && !s.high.quoted && s.high.rangeEnd != 0) {
                (bool hasEnd, uint256 end) = _inverseSqrtPrice(s.high.rangeEnd);
                _keep(s, best, _priceLine(s, hasOrigin, origin, hasEnd, end, false));
            }
        }
        // Nothing can come nearer than one wei past the largest size known to fit: the budget need not be asked then.
        uint256 nearest = s.low.known ? s.low.size + 1 : DUST + 1;
        if (!best.found || best.size > nearest) _keep(s, best, _budgetTop(input, s, tooCostly));
    }

    /// @notice One wei past the price edge, while the edge guides: the search has not moved more than EDGE_WINDOW
    /// from it, and no size at or below it is known to need more than the budget.
    function _edgeTop(State memory s, bool tooCostly) private pure returns (Estimate memory estimate) {
        if (!s.hasEdge || (s.low.known && s.low.size > s.edge + EDGE_WINDOW)) return estimate;
        if (s.high.known && (s.high.size + EDGE_WINDOW <= s.edge || (tooCostly && s.high.size <= s.edge))) return estimate;
        return Estimate(true, s.edge < MAX_SIZE ? s.edge + 1 : MAX_SIZE, 1, false, false);
    }

    /// @notice Keeps `candidate` when it is not above the size known too large and smaller than `best`.
    function _keep(State memory s, Estimate memory best, Estimate memory candidate) private pure {
        if (!candidate.found || (s.high.known && candidate.size > s.high.size)) return;
        if (best.found && candidate.size >= best.size) return;
        (best.found, best.size, best.unit, best.narrow, best.steady) = (true, candidate.size, candidate.unit, candidate.narrow, candidate.steady);
    }

    /// @notice Where 1/sqrt(priceAfter) reaches `target`: between the sides when the size above broke the price,
    /// else from the start of the trade through `low`; none where the sides' prices are within their rounding.
    function _priceLine(State memory s, bool hasOrigin, uint256 origin, bool hasTarget, uint256 target, bool brokenAbove)
        private
        pure
        returns (Estimate memory estimate)
    {
        if (!hasTarget || !hasOrigin) return estimate;
        (bool hasLowValue, uint256 lowValue) = s.low.known && s.low.quoted ? _inverseSqrtPrice(s.low.priceAfter) : (false, 0);
        if (brokenAbove && s.high.known && s.high.quoted) return _priceBetween(s, hasLowValue, hasLowValue ? lowValue : origin, target);
        if (hasLowValue) {
            (estimate.found, estimate.size) = _interpolate(0, origin, s.low.size, lowValue, target);
            estimate.unit = 1;
        }
    }

    /// @notice The price's line between the sides (from the start of the trade, at `y1`, when nothing below is
    /// quoted), with the wei one unit of price spans between them.
    function _priceBetween(State memory s, bool hasLowValue, uint256 y1, uint256 target) private pure returns (Estimate memory estimate) {
        (bool hasHighValue, uint256 highValue) = _inverseSqrtPrice(s.high.priceAfter);
        if (!hasHighValue) return estimate;
        uint256 s1 = hasLowValue ? s.low.size : 0;
        estimate.unit = 1;
        if (hasLowValue) {
            uint256 apart = s.high.priceAfter > s.low.priceAfter ? s.high.priceAfter - s.low.priceAfter : s.low.priceAfter - s.high.priceAfter;
            if (apart <= RESOLUTION) return estimate;
            uint256 unit = (s.high.size - s1) / apart;
            if (unit > 0) estimate.unit = unit;
        }
        (estimate.found, estimate.size) = _interpolate(s1, y1, s.high.size, highValue, target);
    }

    /// @notice The budget's first size too large (see the service's budgetTop): halfway between sides whose
    /// requirements are within a rounding or two; the line towards half a unit below the target when they are a few
    /// roundings apart (narrow); the line when the last two quotes fell on either side; else the secant through the
    /// last two quotes or the loss model, kept inside the bracket, the line where neither is. With nothing over budget
    /// above: the loss model, or the line from the start of the trade through `low`.
    function _budgetTop(Input memory input, State memory s, bool tooCostly) private pure returns (Estimate memory estimate) {
        uint256 target = input.collateralAvailable == type(uint256).max ? type(uint256).max : input.collateralAvailable + 1;
        bool hasLowValue = s.low.known && s.low.quoted;
        (uint256 s1, uint256 y1) = hasLowValue ? (s.low.size, s.low.requiredCollateral) : (0, 0);
        if (tooCostly) {
            uint256 apart = s.high.requiredCollateral > y1 ? s.high.requiredCollateral - y1 : 0;
            if (hasLowValue && apart <= RESOLUTION) return Estimate(true, (s.low.size + s.high.size) / 2 + 1, 1, true, false);
            if (hasLowValue && apart <= NARROW_UNITS) return _line(s, s1, y1, target, true);
            if (hasLowValue && (s.streak == 1 || s.streak == -1)) return _line(s, s1, y1, target, false);
            (bool found, uint256 size) = _secantTop(s, target);
            if (!found) (found, size) = _lossModelTop(input, s, target);
            if (found && size > s1 && size <= s.high.size) return Estimate(true, size, 1, false, true);
            return _line(s, s1, y1, target, false);
        }
        (bool modelled, uint256 modelSize) = _lossModelTop(input, s, target);
        if (modelled && modelSize > s1) return Estimate(true, modelSize, 1, false, true);
        if (s1 > 0) {
            (estimate.found, estimate.size) = _interpolate(0, 0, s1, y1, target);
            estimate.unit = 1;
        }
    }

    /// @notice The line from (s1, y1) to the size above towards `target` (narrow: towards half a unit below it, on
    /// doubled values, which must fit 256 bits), with the wei one unit spans between them.
    function _line(State memory s, uint256 s1, uint256 y1, uint256 target, bool narrow) private pure returns (Estimate memory estimate) {
        uint256 highValue = s.high.requiredCollateral;
        if (narrow && highValue >= SATURATED) return estimate;
        (estimate.found, estimate.size) = narrow
            ? _interpolate(s1, 2 * y1, s.high.size, 2 * highValue, 2 * target - 1)
            : _interpolate(s1, y1, s.high.size, highValue, target);
        uint256 apart = highValue > y1 ? highValue - y1 : 0;
        uint256 unit = apart == 0 ? 1 : (s.high.size - s1) / apart;
        estimate.unit = unit > 0 ? unit : 1;
        estimate.narrow = narrow;
    }

    /// @notice Where the secant through the latest quote and the one before it reaches `target` in requiredCollateral.
    function _secantTop(State memory s, uint256 target) private pure returns (bool, uint256) {
        Side memory latest = _latest(s);
        Side memory prior = s.prior;
        if (!latest.known || !latest.quoted || !prior.known || !prior.quoted || latest.size == prior.size) return (false, 0);
        if (prior.size < latest.size) return _interpolate(prior.size, prior.requiredCollateral, latest.size, latest.requiredCollateral, target);
        return _interpolate(latest.size, latest.requiredCollateral, prior.size, prior.requiredCollateral, target);
    }

    /// @notice What the loss model is anchored on: the latest quote's curve, and where the model's requirement must go.
    struct Model {
        bool isLong;
        uint256 a;
        uint256 b;
        uint256 moved;
        uint256 latestSize;
        uint256 fill36;
        uint256 worst36;
        int256 goal;
    }

    /// @notice Where requiredCollateral first reaches `target` by the loss model of a v3 position on one liquidity
    /// range, anchored on the latest quote (see the service's lossModelTop): Newton's method on s * (fill(s) - min)
    /// (LONG) or s * (max - fill(s)) (SHORT), fill(s) = fill * b / u(s), u affine in s through (0, a) and (size, b),
    /// prices held to 10^-36, its value shifted through the quote's requirement.
    function _lossModelTop(Input memory input, State memory s, uint256 target) private pure returns (bool, uint256) {
        Side memory latest = _latest(s);
        if (!latest.known || !latest.quoted) return (false, 0);
        (bool hasA, uint256 a) = _inverseSqrtPrice(input.currentPrice);
        (bool hasB, uint256 b) = _inverseSqrtPrice(latest.priceAfter);
        if (!hasA || !hasB || a == b) return (false, 0);
        if (latest.fillPrice > type(uint256).max / D18 || input.worstPrice > type(uint256).max / D18) return (false, 0);
        Model memory m = Model(input.isLong, a, b, a > b ? a - b : b - a, latest.size, latest.fillPrice * D18, input.worstPrice * D18, 0);
        (bool ok, int256 value, uint256 slope) = _modelAt(m, latest.size);
        (bool inRange, int256 distance) = _signedDifference(target, latest.requiredCollateral);
        if (!ok || !inRange) return (false, 0);
        m.goal = distance + value;
        return _newton(m, value, slope);
    }

    /// @notice MODEL_STEPS of Newton's method on the model from the latest quote, where it is worth `value` with
    /// `slope`: the first size at or past the model's goal.
    function _newton(Model memory m, int256 value, uint256 slope) private pure returns (bool, uint256) {
        uint256 size = m.latestSize;
        bool ok;
        for (uint256 i; i < MODEL_STEPS; i++) {
            if (slope == 0) return (false, 0);
            int256 gap = m.goal - value;
            (bool fits, uint256 step) = _mulDiv(gap < 0 ? uint256(-gap) : uint256(gap), D36, slope);
            if (!fits) return (false, 0);
            if (gap < 0) {
                if (step >= size) return (false, 0);
                size -= step;
            } else {
                if (step > MAX_SIZE - size) return (false, 0);
                size += step;
            }
            // A step of a wei or none: the model has converged (its own rounding is coarser than that).
            if (step <= 1) break;
            (ok, value, slope) = _modelAt(m, size);
            if (!ok) return (false, 0);
        }
        return (true, size < MAX_SIZE ? size + 1 : MAX_SIZE);
    }

    /// @notice The model's requirement at `size` (signed) and its slope (10^-36 per wei; 0 where not positive); not ok
    /// where a value leaves its bounds.
    function _modelAt(Model memory m, uint256 size) private pure returns (bool ok, int256 value, uint256 slope) {
        (bool fits, uint256 shift) = _mulDiv(m.moved, size, m.latestSize);
        if (!fits || (m.isLong ? shift >= m.a : shift > type(uint256).max - m.a)) return (false, 0, 0);
        uint256 u = m.isLong ? m.a - shift : m.a + shift;
        uint256 fill;
        uint256 marginal;
        (fits, fill) = _mulDiv(m.fill36, m.b, u);
        if (!fits) return (false, 0, 0);
        (fits, marginal) = _mulDiv(fill, m.a, u);
        if (!fits) return (false, 0, 0);
        bool gain = m.isLong ? fill < m.worst36 : m.worst36 < fill;
        uint256 margin = fill > m.worst36 ? fill - m.worst36 : m.worst36 - fill;
        uint256 magnitude;
        (fits, magnitude) = _mulDiv(size, margin, D36);
        if (!fits || magnitude >= MODEL_BOUND) return (false, 0, 0);
        value = gain ? -int256(magnitude) : int256(magnitude);
        if (m.isLong) slope = marginal > m.worst36 ? marginal - m.worst36 : 0;
        else slope = m.worst36 > marginal ? m.worst36 - marginal : 0;
        ok = true;
    }

    /// @dev x - y as an int256, when its magnitude is below MODEL_BOUND.
    function _signedDifference(uint256 x, uint256 y) private pure returns (bool, int256) {
        uint256 magnitude = x > y ? x - y : y - x;
        if (magnitude >= MODEL_BOUND) return (false, 0);
        return (true, x >= y ? int256(magnitude) : -int256(magnitude));
    }

    /// @dev floor(x * y / z), when it fits 256 bits.
    function _mulDiv(uint256 x, uint256 y, uint256 z) private pure returns (bool, uint256) {
        (uint256 high,) = Math.mul512(x, y);
        if (high >= z) return (false, 0);
        return (true, Math.mulDiv(x, y, z));
    }

    /// @notice 10^54 / floor(sqrt(p * 10^36)), rounded down: affine in size over one liquidity range.
    function _inverseSqrtPrice(uint256 price) private pure returns (bool, uint256) {
        if (price == 0 || price > MAX_SCALED_PRICE) return (false, 0);
        return (true, 1e54 / Math.sqrt(price * D36));
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
