// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title ExactSearchRule: how the exact search (semantics section 4b) chooses its next step, and how a step moves it
/// @notice The same integer rule as the service's (ExactSearchRule in src/quote/exactRule.ts, its state in
/// exactState.ts, its estimates in exactEstimates.ts, its loss model in lossModel.ts), function for function under the
/// same names, so that a searcher on chain quotes exactly the candidates the service then asks for. Every division
/// rounds down but an interpolation's step, rounded up (the first size at or past its target). Where TypeScript's
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
    /// @dev The wei a market group adds to every requirement against rounding: the pool's model leaves it to the target.
    uint256 private constant REQUIREMENT_ROUNDING = 2;
    /// @dev Parts of a million: the unit of a v3 fee tier.
    uint256 private constant PIPS = 1e6;
    /// @dev The scale of 1/sqrt(price) (see {_inverseSqrtPrice}): a v3 pool moves it by size * SCALE / L within a range.
    uint256 private constant SCALE = 1e27;

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

    /// @notice What the rule reads of the request and the market: the direction, the cap, the prices, the budget, the
    /// settlement price at which the position loses the most (the market's minimum for a LONG, maximum for a SHORT), the
    /// pool's fee tier (pips) and its liquidity in range at the block (0 where it could not be read); and, set once by
    /// {prepare}, what the pool's own range says before any quote (read the price edge first; the budget's first guess)
    /// and the current price's scaled 1/sqrt, which every estimate starts from.
    struct Input {
        bool isLong;
        uint256 cap;
        uint256 currentPrice;
        uint256 expectedPrice;
        uint256 collateralAvailable;
        uint256 worstPrice;
        uint256 feeRate;
        uint256 liquidity;
        bool edgeFirst;
        bool hasPoolBudget;
        uint256 poolBudget;
        bool hasCurrentRoot;
        uint256 currentRoot;
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

    /// @notice Works out once per search what the pool's own range says before any quote: the budget's first guess,
    /// and whether to read the price edge first (unless the pool's price edge lies more than an eighth past it).
    function prepare(Input memory input) internal pure {
        (input.hasCurrentRoot, input.currentRoot) = _inverseSqrtPrice(input.currentPrice);
        (input.hasPoolBudget, input.poolBudget) = _poolBudgetTop(input);
        (bool hasPrice, uint256 price) = _poolPriceTop(input);
        input.edgeFirst = !hasPrice || !input.hasPoolBudget || price <= input.poolBudget + input.poolBudget / 8;
    }

    /// @notice The next step: read the price edge, or quote `size` (unsigned), and whether an estimate guided it.
    function next(Input memory input, State memory s) internal pure returns (bool readEdge, uint256 size, bool guided) {
        if (!s.edgeAsked && (s.quoted == 0 ? input.edgeFirst : _priceFoundBinding(input, s))) return (true, 0, false);
        uint256 floor = s.low.known ? s.low.size + 1 : DUST;
        uint256 ceiling = s.high.known ? s.high.size - 1 : MAX_SIZE;
        if (s.quoted == 0) {
            // The budget's first guess (the pool's range's, else the cap); the price edge where it is nearer.
            uint256 first = input.hasPoolBudget ? input.poolBudget - 1 : input.cap;
            size = s.hasEdge && s.edge < first ? s.edge : first;
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
            (bool hasOrigin, uint256 origin) = (input.hasCurrentRoot, input.currentRoot);
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

    /// @notice The budget's first size too large (see the service's budgetTop, the same cases in the same order).
    function _budgetTop(Input memory input, State memory s, bool tooCostly) private pure returns (Estimate memory estimate) {
        uint256 target = input.collateralAvailable == type(uint256).max ? type(uint256).max : input.collateralAvailable + 1;
        bool hasLowValue = s.low.known && s.low.quoted;
        (uint256 s1, uint256 y1) = hasLowValue ? (s.low.size, s.low.requiredCollateral) : (0, 0);
        if (!tooCostly) {
            (bool modelled, uint256 modelSize) = _lossModelTop(input, s, target);
            if (modelled && modelSize > s1) return Estimate(true, modelSize, 1, false, true);
            if (s1 > 0) {
                (estimate.found, estimate.size) = _interpolate(0, 0, s1, y1, target);
                estimate.unit = 1;
            }
            return estimate;
        }
        uint256 highValue = s.high.requiredCollateral;
        uint256 apart = highValue > y1 ? highValue - y1 : 0;
        if (hasLowValue) {
            if (apart <= RESOLUTION) return Estimate(true, (s1 + s.high.size) / 2 + 1, 1, true, false);
            if (apart <= NARROW_UNITS) return _line(s, s1, y1, target, true);
            estimate = _window(s, s1, y1, target, apart);
            if (estimate.found) return estimate;
        }
        if (highValue - target < RESOLUTION && (!hasLowValue || (y1 < target && target - y1 > NARROW_UNITS))) {
            return _gallop(input, s);
        }
        if (hasLowValue && (s.streak == 1 || s.streak == -1)) return _line(s, s1, y1, target, false);
        (bool found, uint256 size) = _secantTop(s, target);
        if (!found) (found, size) = _lossModelTop(input, s, target);
        if (found && size > s1 && size <= s.high.size) return Estimate(true, size, 1, false, true);
        return _line(s, s1, y1, target, false);
    }

    /// @notice A few units short of the target at a side that fits: the size that splits the sizes the first one too
    /// large may be (between the wei missing - 1 and missing units span, rounded up, at the bracket's average), when
    /// that lies inside the bracket.
    function _window(State memory s, uint256 s1, uint256 y1, uint256 target, uint256 apart) private pure returns (Estimate memory estimate) {
        if (y1 >= target) return estimate;
        uint256 missing = target - y1;
        uint256 width = s.high.size - s1;
        uint256 span = width / apart;
        if (span == 0) span = 1;
        if (missing > NARROW_UNITS || span > (width - 1) / missing) return estimate;
        uint256 first = Math.mulDiv(missing - 1, width, apart, Math.Rounding.Ceil);
        uint256 last = Math.mulDiv(missing, width, apart, Math.Rounding.Ceil);
        return Estimate(true, s1 + (first + last - 1) / 2 + 1, 1, false, true);
    }

    /// @notice Down from a side over budget within a rounding of the target, nothing near fitting: 1, 2, 4, ... units
    /// of the loss model's slope there while quotes keep landing above.
    function _gallop(Input memory input, State memory s) private pure returns (Estimate memory) {
        uint256 run = s.streak < 0 ? Math.min(uint256(-s.streak), 128) : 1;
        uint256 step = _shifted(_slopeUnit(input, s.high), run - 1);
        return Estimate(true, step < s.high.size ? s.high.size - step + 1 : 1, 1, false, true);
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

    /// @notice A trade's curve on one liquidity range, as the loss model reads it (see the service's Curve): u(s) = a
    /// -/+ kNum * s / kDen (down for a LONG), fill(s) = fillRef * uRef / u(s) at 10^-36; and the worst settlement
    /// price at 10^-36.
    struct Curve {
        bool isLong;
        uint256 a;
        uint256 kNum;
        uint256 kDen;
        uint256 fillRef;
        uint256 uRef;
        uint256 worst36;
    }

    /// @notice The curve through a quoted side (u from the current price's to its priceAfter over its size, the fill
    /// at its fillPrice); not ok where the quote gives none.
    function _quoteCurve(Input memory input, Side memory side) private pure returns (bool ok, Curve memory curve) {
        if (!side.known || !side.quoted) return (false, curve);
        (bool hasA, uint256 a) = (input.hasCurrentRoot, input.currentRoot);
        (bool hasB, uint256 b) = _inverseSqrtPrice(side.priceAfter);
        if (!hasA || !hasB || a == b || side.fillPrice > type(uint256).max / D18) return (false, curve);
        if (input.worstPrice > type(uint256).max / D18) return (false, curve);
        return (true, Curve(input.isLong, a, a > b ? a - b : b - a, side.size, side.fillPrice * D18, b, input.worstPrice * D18));
    }

    /// @notice The curve of the pool's own range at the block (u moves by SCALE / liquidity per wei, the fill starts at
    /// the current price with the pool's fee); not ok without the liquidity.
    function _poolCurve(Input memory input) private pure returns (bool ok, Curve memory curve) {
        (bool hasA, uint256 a) = (input.hasCurrentRoot, input.currentRoot);
        if (!hasA || input.liquidity == 0 || input.feeRate >= PIPS || input.worstPrice > type(uint256).max / D18) return (false, curve);
        (bool fits, uint256 fillRef) = input.isLong
            ? _mulDiv(input.currentPrice * D18, PIPS, PIPS - input.feeRate)
            : _mulDiv(input.currentPrice * D18, PIPS - input.feeRate, PIPS);
        if (!fits) return (false, curve);
        return (true, Curve(input.isLong, a, SCALE, input.liquidity, fillRef, a, input.worstPrice * D18));
    }

    /// @notice Where requiredCollateral first reaches `target` by the loss model on the latest quote's curve, shifted
    /// through the quote's own requirement: Newton's method from the quote.
    function _lossModelTop(Input memory input, State memory s, uint256 target) private pure returns (bool, uint256) {
        Side memory latest = _latest(s);
        (bool ok, Curve memory curve) = _quoteCurve(input, latest);
        if (!ok) return (false, 0);
        int256 value;
        uint256 slope;
        (ok, value, slope) = _modelAt(curve, latest.size);
        (bool inRange, int256 distance) = _signedDifference(target, latest.requiredCollateral);
        if (!ok || !inRange) return (false, 0);
        return _newton(curve, distance + value, latest.size, value, slope);
    }

    /// @notice The budget's first size too large by the loss model on the pool's range, before any quote.
    function _poolBudgetTop(Input memory input) private pure returns (bool, uint256) {
        (bool ok, Curve memory curve) = _poolCurve(input);
        uint256 target = input.collateralAvailable == type(uint256).max ? type(uint256).max : input.collateralAvailable + 1;
        if (!ok || target >= MODEL_BOUND) return (false, 0);
        int256 value;
        uint256 slope;
        (ok, value, slope) = _modelAt(curve, 0);
        if (!ok) return (false, 0);
        return _newton(curve, int256(target) - int256(REQUIREMENT_ROUNDING), 0, value, slope);
    }

    /// @notice The size at which the price reaches expectedPrice on the pool's range (a SHORT's base paying the fee on
    /// top); not ok without the liquidity.
    function _poolPriceTop(Input memory input) private pure returns (bool, uint256) {
        (bool hasA, uint256 a) = (input.hasCurrentRoot, input.currentRoot);
        (bool hasT, uint256 t) = _inverseSqrtPrice(input.expectedPrice);
        if (!hasA || !hasT || input.liquidity == 0 || input.feeRate >= PIPS) return (false, 0);
        (bool fits, uint256 moved) = _mulDiv(input.liquidity, a > t ? a - t : t - a, SCALE);
        if (!fits || input.isLong) return (fits, moved);
        return _mulDiv(moved, PIPS, PIPS - input.feeRate);
    }

    /// @notice Whether a quote found the price binding: the size known too large went past expectedPrice, or reverted.
    function _priceFoundBinding(Input memory input, State memory s) private pure returns (bool) {
        if (!s.high.known) return false;
        if (!s.high.quoted) return true;
        return input.isLong ? s.high.priceAfter > input.expectedPrice : s.high.priceAfter < input.expectedPrice;
    }

    /// @notice The wei one unit of requiredCollateral spans at a quoted side, by the loss model's slope there (at least 1).
    function _slopeUnit(Input memory input, Side memory side) private pure returns (uint256) {
        (bool ok, Curve memory curve) = _quoteCurve(input, side);
        if (!ok) return 1;
        uint256 slope;
        (ok,, slope) = _modelAt(curve, side.size);
        if (!ok || slope == 0) return 1;
        uint256 unit = D36 / slope;
        return unit > 0 ? unit : 1;
    }

    /// @notice MODEL_STEPS of Newton's method on the model from `start`, where it is worth `value` with `slope`: the
    /// first size at or past `goal` (one wei past the root).
    function _newton(Curve memory curve, int256 goal, uint256 start, int256 value, uint256 slope) private pure returns (bool, uint256) {
        uint256 size = start;
        bool ok;
        for (uint256 i; i < MODEL_STEPS; i++) {
            if (slope == 0) return (false, 0);
            int256 gap = goal - value;
            (bool fits, uint256 step) = _mulDiv(gap < 0 ? uint256(-gap) : uint256(gap), D36, slope);
            if (!fits) return (false, 0);
            if (gap < 0) {
                if (step >= size) return (false, 0);
                size -= step;
            } else {
                if (step > MAX_SIZE - size) return (false, 0);
                size += step;
            }
            if (size == 0) return (false, 0);
            // A step of a wei or none: the model has converged (its own rounding is coarser than that).
            if (step <= 1) break;
            (ok, value, slope) = _modelAt(curve, size);
            if (!ok) return (false, 0);
        }
        return (true, size < MAX_SIZE ? size + 1 : MAX_SIZE);
    }

    /// @notice The model's requirement at `size` (signed) and its slope (10^-36 per wei; 0 where not positive); not ok
    /// where a value leaves its bounds.
    function _modelAt(Curve memory c, uint256 size) private pure returns (bool ok, int256 value, uint256 slope) {
        (bool fits, uint256 shift) = _mulDiv(c.kNum, size, c.kDen);
        if (!fits || (c.isLong ? shift >= c.a : shift > type(uint256).max - c.a)) return (false, 0, 0);
        uint256 u = c.isLong ? c.a - shift : c.a + shift;
        uint256 fill;
        uint256 marginal;
        (fits, fill) = _mulDiv(c.fillRef, c.uRef, u);
        if (!fits) return (false, 0, 0);
        (fits, marginal) = _mulDiv(fill, c.a, u);
        if (!fits) return (false, 0, 0);
        bool gain = c.isLong ? fill < c.worst36 : c.worst36 < fill;
        uint256 magnitude;
        (fits, magnitude) = _mulDiv(size, fill > c.worst36 ? fill - c.worst36 : c.worst36 - fill, D36);
        if (!fits || magnitude >= MODEL_BOUND) return (false, 0, 0);
        value = gain ? -int256(magnitude) : int256(magnitude);
        if (c.isLong) slope = marginal > c.worst36 ? marginal - c.worst36 : 0;
        else slope = c.worst36 > marginal ? c.worst36 - marginal : 0;
        ok = true;
    }

    /// @dev x - y as an int256, when its magnitude is below MODEL_BOUND.
    function _signedDifference(uint256 x, uint256 y) private pure returns (bool, int256) {
        uint256 magnitude = x > y ? x - y : y - x;
        if (magnitude >= MODEL_BOUND) return (false, 0);
        return (true, x >= y ? int256(magnitude) : -int256(magnitude));
    }

    /// @dev floor(x * y / z), when it fits 256 bits (the service's mulDivDown, src/quote/priceMath.ts).
    function _mulDiv(uint256 x, uint256 y, uint256 z) private pure returns (bool, uint256) {
        (uint256 high,) = Math.mul512(x, y);
        if (high >= z) return (false, 0);
        return (true, Math.mulDiv(x, y, z));
    }

    /// @notice 10^54 / floor(sqrt(p * 10^36)), rounded down: affine in size over one liquidity range (the service's
    /// inverseSqrtPrice, src/quote/exactMath.ts, as is {_interpolate}).
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
