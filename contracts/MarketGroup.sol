// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SignedMath} from "@openzeppelin/contracts/utils/math/SignedMath.sol";
import {IMarketGroup} from "./interfaces/IMarketGroup.sol";
import {PoolMath} from "./libraries/PoolMath.sol";
import {CollateralToken} from "./CollateralToken.sol";

/// @title MarketGroup: the reference market group
/// @notice A self-contained market group for the quoter's development chain and tests. Each market is a
/// virtual-token pool: base token = token0 (x), quote token = token1 (y), liquidity L over one price range
/// [minPrice, maxPrice], current sqrt price X = sqrt(P) * 2^96, fee rate f in pips (F = 1e6). No token
/// moves: trades only move the pool price, and collateral is only computed.
///
/// Collateral: the group deploys its own collateral token (CollateralToken) with d <= 18 decimals, given at
/// construction. As on the real group, every collateral amount the group reports (requiredCollateral) is in
/// 18-decimal units whatever d is, while the trade function takes its collateral limit in the token's own
/// units and normalises it (x 10^(18-d)) before comparing.
///
/// Economics (Q = 2^96, E = 1e18, s = |size|, D = L*Q - s*X for a LONG, L*Q + s*X for a SHORT):
/// - A LONG (size = +s) buys s base tokens: 1/sqrt(P') = 1/sqrt(P) - s/L. A SHORT (size = -s) sells them:
///   1/sqrt(P') = 1/sqrt(P) + s/L.
/// - New pool state: sqrtNext = ceil(L*Q*X / D) in both directions (Uniswap's amount0 rounding).
/// - Quote tokens exchanged, exact: dy = s*L*X^2 / (Q*D).
/// - price18DigitsAfter = sqrtNext^2 * E / 2^192: up for a LONG, down for a SHORT.
/// - fillPrice = dy / s in D18 = L*X^2*E / (Q*D): up for a LONG, down for a SHORT.
/// - requiredCollateral, the loss at the worst settlement, rounded up and never below 0:
///   LONG dy*(1 + f/F) - s*minPrice/E; SHORT s*maxPrice/E - dy*(1 - f/F).
/// Each value is rounded once, against the trader. requiredCollateral in particular is one rounding of the
/// exact value rather than a difference of rounded values, so it is non-decreasing in |size| even between
/// neighbouring wei sizes, as is the distance of price18DigitsAfter from the reference price.
///
/// Range: a trade reverts PoolPriceOutOfRange(poolPrice, sqrtMin, sqrtMax) exactly when sqrtNext would leave
/// [sqrtMin, sqrtMax] (or a LONG would need all the pool's base tokens), where sqrtMin = ceil(sqrt(minPrice))
/// and sqrtMax = floor(sqrt(maxPrice)) in Q96, so the range never widens by rounding. poolPrice is the sqrt
/// price the trade would reach, ceil(L*Q*X / D) as above, saturated: 2^160 - 1 for a LONG the pool cannot
/// fill (D <= 0) or whose sqrt price would pass 2^160 - 1; 0 for a SHORT so large that D would not fit 256
/// bits (its sqrt price would be below 2^26, far under any range).
///
/// Time: quotes past endTime revert ExpiredMarketNotSettled(endTime) on a market never settled, as the real
/// group's quotes do; trades past endTime revert ExpiredMarket(). A settled market reverts MarketSettled()
/// first. createMarket accepts an end time in the past (the demo's expired market is created that way).
///
/// Bit budget, from the bounds createMarket enforces (1e12 <= minPrice < price < maxPrice <= 1e24,
/// 0 < L <= 2^80, f <= 100_000): X in [2^86, 2^106]; L*Q <= 2^176; an accepted LONG has s*X < L*Q;
/// an accepted SHORT has s <= L*Q/(sqrtMin - 1) < 2^90.1, so s*X < 2^196 and D < 2^197; L*Q*X <= 2^282
/// and s*X*(F+f)*L*X*E <= 2^462 are 512-bit products inside mulDiv; s*X*(F+f) <= 2^217, L*X*E <= 2^246,
/// D*F <= 2^217; dy <= L*sqrtMax/Q <= 2^90 so dy*E*(F+f)/F*Q < 2^246; fillPrice*Q <= 2^176;
/// s*maxPrice <= 2^170.
contract MarketGroup is IMarketGroup, Ownable {
    /// @notice What the owner gives to create a market. Prices are D18; feeRate is in pips (1e6 = 100%).
    struct MarketConfig {
        uint256 startTime;
        uint256 endTime;
        uint256 priceD18;
        uint256 minPriceD18;
        uint256 maxPriceD18;
        uint128 liquidity;
        uint24 feeRate;
        bytes claimStatementYesOrNumeric;
        bytes claimStatementNo;
    }

    struct Market {
        uint256 startTime;
        uint256 endTime;
        uint256 minPriceD18;
        uint256 maxPriceD18;
        uint128 liquidity;
        uint24 feeRate;
        bool settled;
        uint160 sqrtPriceX96;
        uint160 sqrtMinPriceX96;
        uint160 sqrtMaxPriceX96;
        uint256 referencePriceD18;
        uint256 settlementPriceD18;
        bytes claimStatementYesOrNumeric;
        bytes claimStatementNo;
    }

    /// @dev The outcome of a trade. sqrtPriceX96After is the new pool state; when outOfRange, it is the
    /// (saturated) sqrt price the trade would have reached and the other fields are 0.
    struct Quote {
        uint256 requiredCollateral;
        uint256 fillPrice;
        uint256 price18DigitsAfter;
        uint160 sqrtPriceX96After;
        bool outOfRange;
    }

    /// @notice The lowest minPriceD18 a market may have (a price of 1e-6).
    uint256 public constant MIN_PRICE_D18 = 1e12;
    /// @notice The highest maxPriceD18 a market may have (a price of 1e6).
    uint256 public constant MAX_PRICE_D18 = 1e24;
    /// @notice The largest liquidity a market may have.
    uint256 public constant MAX_LIQUIDITY = 1 << 80;
    /// @notice The largest fee rate, in pips (10%).
    uint256 public constant MAX_FEE_RATE = 100_000;
    /// @notice The most decimals a collateral token may have (the real group refuses more).
    uint8 public constant MAX_COLLATERAL_DECIMALS = 18;

    /// @notice The group's collateral token, deployed by the constructor.
    address public immutable collateralAsset;
    /// @notice 10^(18 - decimals): one token unit in 18-decimal units.
    uint256 private immutable _collateralScale;

    uint256 private _lastMarketId;
    mapping(uint256 marketId => Market) private _markets;

    /// @notice A market was created; ids start at 1 and increase by one.
    event MarketCreated(uint256 indexed marketId);
    /// @notice A market was settled at `settlementPriceD18`.
    event MarketSettledAt(uint256 indexed marketId, uint256 settlementPriceD18);
    /// @notice `trader` opened a position of `size` (positive: LONG) and moved the pool to `sqrtPriceX96After`.
    event Trade(
        uint256 indexed marketId,
        address indexed trader,
        int256 size,
        uint256 requiredCollateral,
        uint256 fillPrice,
        uint256 price18DigitsAfter,
        uint160 sqrtPriceX96After
    );

    /// @notice Deploys the group's collateral token with `collateralDecimals` decimals; the sender owns the group.
    /// @dev Reverts InvalidData("collateral decimals above 18") for more than 18 decimals. The token is the
    /// group's first creation, at the address derived from (this group, nonce 1).
    constructor(uint8 collateralDecimals) Ownable(msg.sender) {
        if (collateralDecimals > MAX_COLLATERAL_DECIMALS) revert InvalidData("collateral decimals above 18");
        collateralAsset = address(new CollateralToken("Market group collateral", "COLLATERAL", collateralDecimals));
        _collateralScale = 10 ** (MAX_COLLATERAL_DECIMALS - collateralDecimals);
    }

    /// @notice Creates a market priced at config.priceD18. Only the owner.
    /// @dev Reverts InvalidData(reason) unless 0 < startTime < endTime, 1e12 <= minPrice < price < maxPrice
    /// <= 1e24, 0 < liquidity <= 2^80 and feeRate <= 100_000. The pool starts at sqrt price
    /// floor(sqrt(price * 2^192 / E)); the reference price starts at config.priceD18.
    function createMarket(MarketConfig calldata config) external onlyOwner returns (uint256 marketId) {
        _validate(config);
        marketId = ++_lastMarketId;
        Market storage market = _markets[marketId];
        market.startTime = config.startTime;
        market.endTime = config.endTime;
        market.minPriceD18 = config.minPriceD18;
        market.maxPriceD18 = config.maxPriceD18;
        market.liquidity = config.liquidity;
        market.feeRate = config.feeRate;
        market.sqrtPriceX96 = uint160(PoolMath.sqrtPriceX96FromPriceD18(config.priceD18, Math.Rounding.Floor));
        market.sqrtMinPriceX96 = uint160(PoolMath.sqrtPriceX96FromPriceD18(config.minPriceD18, Math.Rounding.Ceil));
        market.sqrtMaxPriceX96 = uint160(PoolMath.sqrtPriceX96FromPriceD18(config.maxPriceD18, Math.Rounding.Floor));
        market.referencePriceD18 = config.priceD18;
        market.claimStatementYesOrNumeric = config.claimStatementYesOrNumeric;
        market.claimStatementNo = config.claimStatementNo;
        emit MarketCreated(marketId);
    }

    /// @notice Settles a market at any price >= 0. Only the owner. Reverts InvalidMarket() for an id never
    /// created and MarketSettled() for a market already settled.
    function settleMarket(uint256 marketId, uint256 settlementPriceD18) external onlyOwner {
        Market storage market = _existing(marketId);
        if (market.settled) revert MarketSettled();
        market.settled = true;
        market.settlementPriceD18 = settlementPriceD18;
        emit MarketSettledAt(marketId, settlementPriceD18);
    }

    /// @notice Opens a position of `size` (positive: LONG, negative: SHORT) with at most `maxCollateral`
    /// collateral, in the collateral token's own units, like the real group's createTraderPosition: the same
    /// checks and numbers as quoteCreateTraderPosition, then moves the pool to the new sqrt price and the
    /// reference price to price18DigitsAfter. Anyone may trade; no token moves.
    /// @dev The limit is normalised exactly, maxCollateral * 10^(18-d) (saturated at 2^256 - 1 instead of
    /// overflowing), and the trade reverts InsufficientCollateral(requiredCollateral, normalised limit) when
    /// the 18-decimal requiredCollateral exceeds it. So ceil(requiredCollateral / 10^(18-d)) is the smallest
    /// limit that passes. Past endTime it reverts ExpiredMarket(); the other reverts are the quote's.
    function executeTrade(uint256 marketId, int256 size, uint256 maxCollateral)
        external
        returns (uint256 requiredCollateral, uint256 fillPrice, uint256 price18DigitsAfter)
    {
        Quote memory q = _quote(marketId, size, true);
        uint256 limit = _normalisedCollateral(maxCollateral);
        if (q.requiredCollateral > limit) revert InsufficientCollateral(q.requiredCollateral, limit);
        Market storage market = _markets[marketId];
        market.sqrtPriceX96 = q.sqrtPriceX96After;
        market.referencePriceD18 = q.price18DigitsAfter;
        emit Trade(
            marketId, msg.sender, size, q.requiredCollateral, q.fillPrice, q.price18DigitsAfter, q.sqrtPriceX96After
        );
        return (q.requiredCollateral, q.fillPrice, q.price18DigitsAfter);
    }

    /// @inheritdoc IMarketGroup
    /// @dev The owner, the collateral token this group deployed, no fee collector (address(0)), and zero
    /// parameters: the stand-in's fee rate is per market (getMarket's params).
    function getMarketGroup()
        external
        view
        returns (address, address, address, MarketParams memory marketParams)
    {
        return (owner(), collateralAsset, address(0), marketParams);
    }

    /// @inheritdoc IMarketGroup
    /// @dev pool is this contract; quoteToken and baseToken are address(0) (virtual tokens); the tick fields
    /// are 0 and not used (the range is given by minPriceD18 and maxPriceD18); assertionId is 0. Of the
    /// params only feeRate is set. An id never created answers both structs all zero (marketId and startTime
    /// 0 included) instead of reverting, as the real group does.
    function getMarket(uint256 id) external view returns (MarketData memory data, MarketParams memory params) {
        Market storage market = _markets[id];
        if (market.startTime == 0) return (data, params);
        data.marketId = id;
        data.startTime = market.startTime;
        data.endTime = market.endTime;
        data.pool = address(this);
        data.minPriceD18 = market.minPriceD18;
        data.maxPriceD18 = market.maxPriceD18;
        data.settled = market.settled;
        data.settlementPriceD18 = market.settlementPriceD18;
        data.claimStatementYesOrNumeric = market.claimStatementYesOrNumeric;
        data.claimStatementNo = market.claimStatementNo;
        params.feeRate = market.feeRate;
    }

    /// @inheritdoc IMarketGroup
    /// @dev The creation price, then the price18DigitsAfter of the last trade; the settlement price once
    /// settled. Reverts InvalidMarket() for an id never created.
    function getReferencePrice(uint256 marketId) public view virtual returns (uint256 price18Digits) {
        Market storage market = _existing(marketId);
        return market.settled ? market.settlementPriceD18 : market.referencePriceD18;
    }

    /// @inheritdoc IMarketGroup
    /// @dev Reverts InvalidMarket() for an id never created.
    function getSqrtPriceX96(uint256 marketId) external view returns (uint160 sqrtPriceX96) {
        return _existing(marketId).sqrtPriceX96;
    }

    /// @inheritdoc IMarketGroup
    /// @dev Reverts, in this order: InvalidMarket(), MarketSettled(), MarketNotStarted(),
    /// ExpiredMarketNotSettled(endTime), InvalidData("size is zero"), PoolPriceOutOfRange(poolPrice, sqrtMin,
    /// sqrtMax). Changes no state. requiredCollateral is in 18-decimal units whatever the token's decimals.
    function quoteCreateTraderPosition(uint256 marketId, int256 size)
        external
        returns (uint256 requiredCollateral, uint256 fillPrice, uint256 price18DigitsAfter)
    {
        Quote memory q = _quote(marketId, size, false);
        return (q.requiredCollateral, q.fillPrice, q.price18DigitsAfter);
    }

    /// @dev The checks and numbers shared by quotes and trades; only the revert past endTime differs.
    function _quote(uint256 marketId, int256 size, bool forTrade) private view returns (Quote memory q) {
        Market storage market = _existing(marketId);
        if (market.settled) revert MarketSettled();
        if (block.timestamp < market.startTime) revert MarketNotStarted();
        if (block.timestamp > market.endTime) {
            if (forTrade) revert ExpiredMarket();
            revert ExpiredMarketNotSettled(market.endTime);
        }
        if (size == 0) revert InvalidData("size is zero");
        q = size > 0 ? _long(market, SignedMath.abs(size)) : _short(market, SignedMath.abs(size));
        if (q.outOfRange) revert PoolPriceOutOfRange(q.sqrtPriceX96After, market.sqrtMinPriceX96, market.sqrtMaxPriceX96);
    }

    /// @dev maxCollateral (token units) in 18-decimal units: maxCollateral * 10^(18-d), exact, or 2^256 - 1
    /// when the product would not fit 256 bits.
    function _normalisedCollateral(uint256 maxCollateral) private view returns (uint256) {
        (bool fits, uint256 normalised) = Math.tryMul(maxCollateral, _collateralScale);
        return fits ? normalised : type(uint256).max;
    }

    /// @dev A LONG of s, every value rounded against the trader (up). An out-of-range quote when the new sqrt
    /// price would be above sqrtMax or the pool cannot fill s at all (checked before any overflow can occur),
    /// carrying the sqrt price the trade would reach, saturated at 2^160 - 1.
    function _long(Market storage market, uint256 s) private view returns (Quote memory q) {
        uint256 liquidity = market.liquidity;
        uint256 x = market.sqrtPriceX96;
        if (s > PoolMath.maxLongSize(liquidity, x)) return _outOfRange(type(uint160).max);
        uint256 d = PoolMath.longDenominator(liquidity, x, s);
        if (d < PoolMath.minLongDenominator(liquidity, x, market.sqrtMaxPriceX96)) {
            // The same equivalence as minLongDenominator's, with 2^160 - 1 as the bound: below this D the
            // next sqrt price would pass 2^160 - 1 (and possibly 256 bits), so it is not computed.
            bool beyond = d < PoolMath.minLongDenominator(liquidity, x, type(uint160).max);
            return _outOfRange(beyond ? type(uint160).max : uint160(PoolMath.nextSqrtPriceX96(liquidity, x, d)));
        }
        q.sqrtPriceX96After = uint160(PoolMath.nextSqrtPriceX96(liquidity, x, d));
        q.price18DigitsAfter = PoolMath.priceD18FromSqrtPriceX96(q.sqrtPriceX96After, Math.Rounding.Ceil);
        q.fillPrice = PoolMath.fillPriceD18(liquidity, x, d, Math.Rounding.Ceil);
        uint256 costD18 =
            PoolMath.quoteWithFeeD18(s, liquidity, x, d, PoolMath.FEE_UNIT + market.feeRate, Math.Rounding.Ceil);
        q.requiredCollateral = PoolMath.longCollateral(costD18, s, market.minPriceD18);
    }

    /// @dev A SHORT of s, rounded against the trader (prices down, collateral up). An out-of-range quote
    /// when the new sqrt price would be below sqrtMin, carrying that sqrt price (rounded up, like any next sqrt
    /// price), or 0 when D = L*Q + s*X would not fit 256 bits. Sizes above maxShortSize are all out of range;
    /// the bound keeps the in-range arithmetic within its bit budget.
    function _short(Market storage market, uint256 s) private view returns (Quote memory q) {
        uint256 liquidity = market.liquidity;
        uint256 x = market.sqrtPriceX96;
        if (s > PoolMath.maxShortSize(liquidity, market.sqrtMinPriceX96)) {
            if (s > (type(uint256).max - liquidity * PoolMath.Q96) / x) return _outOfRange(0);
            return _outOfRange(uint160(PoolMath.nextSqrtPriceX96(liquidity, x, PoolMath.shortDenominator(liquidity, x, s))));
        }
        uint256 d = PoolMath.shortDenominator(liquidity, x, s);
        uint256 sqrtNext = PoolMath.nextSqrtPriceX96(liquidity, x, d);
        if (sqrtNext < market.sqrtMinPriceX96) return _outOfRange(uint160(sqrtNext));
        q.sqrtPriceX96After = uint160(sqrtNext);
        q.price18DigitsAfter = PoolMath.priceD18FromSqrtPriceX96(sqrtNext, Math.Rounding.Floor);
        q.fillPrice = PoolMath.fillPriceD18(liquidity, x, d, Math.Rounding.Floor);
        uint256 proceedsD18 =
            PoolMath.quoteWithFeeD18(s, liquidity, x, d, PoolMath.FEE_UNIT - market.feeRate, Math.Rounding.Floor);
        q.requiredCollateral = PoolMath.shortCollateral(proceedsD18, s, market.maxPriceD18);
    }

    function _outOfRange(uint160 sqrtPriceX96Reached) private pure returns (Quote memory q) {
        q.outOfRange = true;
        q.sqrtPriceX96After = sqrtPriceX96Reached;
    }

    function _existing(uint256 marketId) private view returns (Market storage market) {
        market = _markets[marketId];
        if (market.startTime == 0) revert InvalidMarket();
    }

    function _validate(MarketConfig calldata config) private pure {
        if (config.startTime == 0) revert InvalidData("start time is zero");
        if (config.startTime >= config.endTime) revert InvalidData("start time not before end time");
        if (config.minPriceD18 < MIN_PRICE_D18) revert InvalidData("min price below 1e12");
        if (config.maxPriceD18 > MAX_PRICE_D18) revert InvalidData("max price above 1e24");
        if (config.priceD18 <= config.minPriceD18 || config.priceD18 >= config.maxPriceD18) {
            revert InvalidData("price not strictly between min and max price");
        }
        if (config.liquidity == 0) revert InvalidData("liquidity is zero");
        if (config.liquidity > MAX_LIQUIDITY) revert InvalidData("liquidity above 2^80");
        if (config.feeRate > MAX_FEE_RATE) revert InvalidData("fee rate above 100000");
    }
}
