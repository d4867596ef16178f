// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {SignedMath} from "@openzeppelin/contracts/utils/math/SignedMath.sol";
import {IMarketGroup} from "./interfaces/IMarketGroup.sol";
import {IUniswapV3Factory, IUniswapV3Pool} from "./interfaces/IUniswapV3.sol";
import {PoolPrices} from "./libraries/PoolPrices.sol";
import {PositionLoss} from "./libraries/PositionLoss.sol";
import {CollateralToken} from "./CollateralToken.sol";
import {VirtualToken} from "./VirtualToken.sol";

/// @title MarketGroup: the reference market group, on real Uniswap v3 pools
/// @notice A market group for the quoter's development chain and tests. Each market trades on its own Uniswap v3
/// pool, created by the v3-core factory given at deployment, between two virtual tokens the group deploys: base
/// (token0) and quote (token1). The group alone provides the pool's liquidity, over one or more tick ranges, and
/// mints the virtual tokens it owes the pool in the v3 mint and swap callbacks.
///
/// A LONG of size s buys s base tokens from the pool (an exact-output swap: the quote tokens paid include the
/// pool's fee); a SHORT of s sells them (an exact-input swap: the fee is taken from the base tokens sold, the quote
/// tokens received are net of it). The fee is the pool's own fee tier. A quote simulates the swap as Uniswap's
/// QuoterV2 does: the swap runs, and the callback reverts with the amounts and the sqrt price after, which the quote
/// catches and decodes, so nothing changes. A trade (executeTrade) runs the same swap for real.
///
/// The numbers (semantics sections 8 to 10), from the pool's amounts q (quote tokens) and the sqrt prices before and
/// after the swap:
/// - price18DigitsAfter = floor(sqrtAfter^2 * E / 2^192), the pool's price after, rounded down in both directions
///   as the real group's; getReferencePrice is the pool's current price, rounded the same way.
/// - fillPrice = floor(q * E / s), the trade ratio rounded down (the real group's).
/// - requiredCollateral, in 18-decimal units whatever the collateral's decimals: the position's loss at the worst
///   settlement price (the minimum for a LONG, the maximum for a SHORT), valued over the pool's price move
///   (libraries/PositionLoss.sol), plus 2 wei (the real group adds 2 wei against rounding). Non-decreasing in |size|.
/// Reverts of a quote, in order: InvalidMarket(), MarketSettled(), MarketNotStarted(), ExpiredMarketNotSettled
/// (endTime), InvalidData("size is zero"), then PoolPriceOutOfRange(poolPrice, sqrtMin, sqrtMax) when the swap,
/// limited to one unit beyond the market's range (sqrtPriceLimitX96), fills only partly or ends outside it: poolPrice
/// is where it stopped; InvalidInternalTradeSize(0) when the pool gives no quote token for a SHORT (a few wei); and
/// TradePriceOutOfBounds(ratio, minPrice, maxPrice) when the trade ratio, rounded down and up, leaves the market's
/// price range (a LONG of a few wei pays a whole wei per wei), as the real group's.
contract MarketGroup is IMarketGroup, Ownable {
    using SafeCast for uint256;

    /// @notice A range of liquidity the owner asks for, in D18 prices: the group rounds it inward to ticks of
    /// the fee tier's spacing. liquidity is Uniswap's L.
    struct LiquidityRange {
        uint256 minPriceD18;
        uint256 maxPriceD18;
        uint128 liquidity;
    }

    /// @notice What the owner gives to create a market. Prices are D18; feeRate is a v3 fee tier in pips
    /// (3000 = 0.3%, 10000 = 1%). Every range must lie within [minPriceD18, maxPriceD18] and contain priceD18.
    struct MarketConfig {
        uint256 startTime;
        uint256 endTime;
        uint256 priceD18;
        uint256 minPriceD18;
        uint256 maxPriceD18;
        uint24 feeRate;
        LiquidityRange[] ranges;
        bytes claimStatementYesOrNumeric;
        bytes claimStatementNo;
    }

    struct Market {
        uint256 startTime;
        uint256 endTime;
        uint256 minPriceD18;
        uint256 maxPriceD18;
        IUniswapV3Pool pool;
        uint24 feeRate;
        bool settled;
        VirtualToken baseToken;
        int24 minTick;
        int24 maxTick;
        VirtualToken quoteToken;
        uint160 sqrtMinPriceX96;
        uint160 sqrtMaxPriceX96;
        uint256 settlementPriceD18;
        PositionLoss.Range[] ranges;
        bytes claimStatementYesOrNumeric;
        bytes claimStatementNo;
    }

    /// @dev The outcome of a swap, as the pool reports it: the signed amounts (positive: owed to the pool) and
    /// the sqrt price after.
    struct Swap {
        int256 amount0;
        int256 amount1;
        uint160 sqrtPriceBefore;
        uint160 sqrtPriceAfter;
    }

    /// @dev What a quote or a trade answers.
    struct Quote {
        uint256 requiredCollateral;
        uint256 fillPrice;
        uint256 price18DigitsAfter;
        uint256 quoteAmount;
        uint160 sqrtPriceX96After;
    }

    /// @notice How a simulated swap hands back its outcome, from the swap callback (QuoterV2 style).
    error SwapOutcome(int256 amount0, int256 amount1, uint160 sqrtPriceX96After);
    /// @notice A callback from anyone but the pool the group is paying.
    error UnexpectedCallback();

    uint256 public constant MIN_PRICE_D18 = 1e12;
    uint256 public constant MAX_PRICE_D18 = 1e24;
    /// @notice The largest liquidity of one range.
    uint256 public constant MAX_LIQUIDITY = 1 << 80;
    /// @notice The most liquidity ranges a market may have.
    uint256 public constant MAX_RANGES = 8;
    uint8 public constant MAX_COLLATERAL_DECIMALS = 18;
    /// @notice Added to every requiredCollateral, as the real group adds it.
    uint256 public constant COLLATERAL_ROUNDING = 2;

    /// @notice The Uniswap v3 factory that creates the markets' pools.
    IUniswapV3Factory public immutable uniswapFactory;
    /// @notice Uniswap's QuoterV2 over that factory, named in the markets' params as the real group names the one it
    /// quotes through (zero for none): the quoter asks it how far a price-limited swap fills. The group's own quotes
    /// simulate their swaps themselves.
    address public immutable uniswapQuoter;
    address public immutable collateralAsset;
    /// @notice 10^(18 - decimals): one token unit in 18-decimal units.
    uint256 private immutable _collateralScale;

    uint256 private _lastMarketId;
    mapping(uint256 marketId => Market) private _markets;
    /// @dev The pool the group is paying in a callback right now (a trade or a mint); none otherwise.
    address private _payingPool;

    event MarketCreated(uint256 indexed marketId);
    event MarketSettledAt(uint256 indexed marketId, uint256 settlementPriceD18);
    /// @notice `trader` opened a position of `size` (positive: LONG), paying or receiving `quoteAmount` quote tokens,
    /// and moved the pool to `sqrtPriceX96After`.
    event Trade(
        uint256 indexed marketId,
        address indexed trader,
        int256 size,
        uint256 requiredCollateral,
        uint256 fillPrice,
        uint256 price18DigitsAfter,
        uint160 sqrtPriceX96After,
        uint256 quoteAmount
    );

    /// @notice Deploys the group's collateral token with `collateralDecimals` decimals (its first creation);
    /// `factory` is the v3-core factory (it may be deployed after the group, before the first market), `quoter` a
    /// QuoterV2 over it (it may be deployed later; zero for none).
    constructor(uint8 collateralDecimals, IUniswapV3Factory factory, address quoter) Ownable(msg.sender) {
        if (collateralDecimals > MAX_COLLATERAL_DECIMALS) revert InvalidData("collateral decimals above 18");
        collateralAsset = address(new CollateralToken("Market group collateral", "COLLATERAL", collateralDecimals));
        _collateralScale = 10 ** (MAX_COLLATERAL_DECIMALS - collateralDecimals);
        uniswapFactory = factory;
        uniswapQuoter = quoter;
    }

    /// @notice Creates a market: its two virtual tokens, its pool (initialized at floor(sqrt(priceD18)) in Q96) and
    /// its liquidity. Only the owner. Reverts InvalidData(reason) on a config outside the bounds. As on the real
    /// group, the market's price range is where its liquidity is: from the lowest tick to the highest of its ranges
    /// (the config's bounds rounded inward), minPriceD18 and maxPriceD18 those ticks' prices rounded down.
    function createMarket(MarketConfig calldata config) external onlyOwner returns (uint256 marketId) {
        _validate(config);
        marketId = ++_lastMarketId;
        Market storage market = _markets[marketId];
        market.startTime = config.startTime;
        market.endTime = config.endTime;
        market.feeRate = config.feeRate;
        market.claimStatementYesOrNumeric = config.claimStatementYesOrNumeric;
        market.claimStatementNo = config.claimStatementNo;
        _createPool(market, PoolPrices.sqrtPriceX96FromPriceD18(config.priceD18, Math.Rounding.Floor));
        _addLiquidity(market, marketId, config.ranges);
        emit MarketCreated(marketId);
    }

    /// @notice Settles a market at any price >= 0. Only the owner.
    function settleMarket(uint256 marketId, uint256 settlementPriceD18) external onlyOwner {
        Market storage market = _existing(marketId);
        if (market.settled) revert MarketSettled();
        market.settled = true;
        market.settlementPriceD18 = settlementPriceD18;
        emit MarketSettledAt(marketId, settlementPriceD18);
    }

    /// @notice Opens a position of `size` (positive: LONG) with at most `maxCollateral` collateral in the token's
    /// own units, like the real createTraderPosition: swaps on the pool (moving its price, so the reference price),
    /// with the quote's checks and numbers. Anyone may trade; no collateral moves.
    /// @dev Reverts InsufficientCollateral(requiredCollateral, maxCollateral * 10^(18-d)) when the 18-decimal
    /// requirement exceeds the normalised limit (saturated at 2^256 - 1): ceil(requiredCollateral / 10^(18-d)) is
    /// the smallest limit that passes. Past endTime it reverts ExpiredMarket().
    function executeTrade(uint256 marketId, int256 size, uint256 maxCollateral)
        external
        returns (uint256 requiredCollateral, uint256 fillPrice, uint256 price18DigitsAfter)
    {
        Market storage market = _tradable(marketId, size, true);
        Quote memory q = _outcome(market, size, _swap(market, marketId, size));
        (bool fits, uint256 limit) = Math.tryMul(maxCollateral, _collateralScale);
        if (!fits) limit = type(uint256).max;
        if (q.requiredCollateral > limit) revert InsufficientCollateral(q.requiredCollateral, limit);
        emit Trade(marketId, msg.sender, size, q.requiredCollateral, q.fillPrice, q.price18DigitsAfter, q.sqrtPriceX96After, q.quoteAmount);
        return (q.requiredCollateral, q.fillPrice, q.price18DigitsAfter);
    }

    /// @inheritdoc IMarketGroup
    /// @dev Changes no state: the swap is simulated and reverted (QuoterV2 style).
    function quoteCreateTraderPosition(uint256 marketId, int256 size)
        external
        returns (uint256 requiredCollateral, uint256 fillPrice, uint256 price18DigitsAfter)
    {
        Market storage market = _tradable(marketId, size, false);
        Quote memory q = _outcome(market, size, _simulate(market, marketId, size));
        return (q.requiredCollateral, q.fillPrice, q.price18DigitsAfter);
    }

    /// @inheritdoc IMarketGroup
    function getMarketGroup() external view returns (address, address, address, MarketParams memory marketParams) {
        marketParams.uniswapQuoter = uniswapQuoter;
        return (owner(), collateralAsset, address(0), marketParams);
    }

    /// @inheritdoc IMarketGroup
    /// @dev pool is the market's v3 pool, baseToken (token0) and quoteToken its virtual tokens, the ticks the
    /// lowest and highest bounds of its liquidity (multiples of the fee tier's spacing, inside the price range);
    /// of the params only feeRate (the pool's fee tier) and uniswapQuoter. An id never created answers both structs all
    /// zero.
    function getMarket(uint256 id) external view returns (MarketData memory data, MarketParams memory params) {
        Market storage market = _markets[id];
        if (market.startTime == 0) return (data, params);
        data.marketId = id;
        data.startTime = market.startTime;
        data.endTime = market.endTime;
        data.pool = address(market.pool);
        data.quoteToken = address(market.quoteToken);
        data.baseToken = address(market.baseToken);
        data.minPriceD18 = market.minPriceD18;
        data.maxPriceD18 = market.maxPriceD18;
        data.baseAssetMinPriceTick = market.minTick;
        data.baseAssetMaxPriceTick = market.maxTick;
        data.settled = market.settled;
        data.settlementPriceD18 = market.settlementPriceD18;
        data.claimStatementYesOrNumeric = market.claimStatementYesOrNumeric;
        data.claimStatementNo = market.claimStatementNo;
        params.feeRate = market.feeRate;
        params.uniswapQuoter = uniswapQuoter;
    }

    /// @notice The liquidity ranges of a market, as placed in its pool.
    function getLiquidityRanges(uint256 marketId) external view returns (PositionLoss.Range[] memory) {
        return _existing(marketId).ranges;
    }

    /// @inheritdoc IMarketGroup
    /// @dev The pool's price, floor(sqrtPriceX96^2 * E / 2^192); the settlement price once settled.
    function getReferencePrice(uint256 marketId) public view virtual returns (uint256 price18Digits) {
        Market storage market = _existing(marketId);
        if (market.settled) return market.settlementPriceD18;
        return PoolPrices.priceD18FromSqrtPriceX96(_sqrtPrice(market.pool));
    }

    /// @inheritdoc IMarketGroup
    function getSqrtPriceX96(uint256 marketId) external view returns (uint160 sqrtPriceX96) {
        return _sqrtPrice(_existing(marketId).pool);
    }

    /// @notice Called by a market's pool for the tokens owed when the group adds liquidity: the group mints them.
    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata data) external {
        Market storage market = _markets[abi.decode(data, (uint256))];
        if (msg.sender != _payingPool || msg.sender != address(market.pool)) revert UnexpectedCallback();
        if (amount0Owed > 0) market.baseToken.mint(msg.sender, amount0Owed);
        if (amount1Owed > 0) market.quoteToken.mint(msg.sender, amount1Owed);
    }

    /// @notice Called by a market's pool during a swap. A simulation reverts with the outcome; a trade mints what
    /// the group owes the pool (the positive amount).
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external {
        (uint256 marketId, bool simulation) = abi.decode(data, (uint256, bool));
        Market storage market = _markets[marketId];
        if (msg.sender != address(market.pool)) revert UnexpectedCallback();
        if (simulation) revert SwapOutcome(amount0Delta, amount1Delta, _sqrtPrice(market.pool));
        if (msg.sender != _payingPool) revert UnexpectedCallback();
        if (amount0Delta > 0) market.baseToken.mint(msg.sender, uint256(amount0Delta));
        if (amount1Delta > 0) market.quoteToken.mint(msg.sender, uint256(amount1Delta));
    }

    /// @dev The checks before any swap: the market exists, is not settled, has started and has not ended, and
    /// the size is not zero.
    function _tradable(uint256 marketId, int256 size, bool forTrade) private view returns (Market storage market) {
        market = _existing(marketId);
        if (market.settled) revert MarketSettled();
        if (block.timestamp < market.startTime) revert MarketNotStarted();
        if (block.timestamp > market.endTime) {
            if (forTrade) revert ExpiredMarket();
            revert ExpiredMarketNotSettled(market.endTime);
        }
        if (size == 0) revert InvalidData("size is zero");
    }

    /// @dev The swap of `size` as the pool would run it, reverted: the outcome is caught from the callback's revert.
    /// Any other revert is passed on, an empty one (an out-of-gas inside) as Error("Unexpected error"), as QuoterV2.
    function _simulate(Market storage market, uint256 marketId, int256 size) private returns (Swap memory swap) {
        (bool zeroForOne, int256 amount, uint160 limit) = _swapParams(market, size);
        swap.sqrtPriceBefore = _sqrtPrice(market.pool);
        try market.pool.swap(address(this), zeroForOne, amount, limit, abi.encode(marketId, true)) {
            revert("Unexpected error");
        } catch (bytes memory reason) {
            if (reason.length != 100 || bytes4(reason) != SwapOutcome.selector) {
                if (reason.length == 0) revert("Unexpected error");
                assembly ("memory-safe") {
                    revert(add(reason, 32), mload(reason))
                }
            }
            (int256 amount0, int256 amount1, uint160 sqrtAfter) = _decodeOutcome(reason);
            (swap.amount0, swap.amount1, swap.sqrtPriceAfter) = (amount0, amount1, sqrtAfter);
        }
    }

    /// @dev The swap of `size`, for real: the group pays the pool in the callback and keeps what it receives.
    function _swap(Market storage market, uint256 marketId, int256 size) private returns (Swap memory swap) {
        (bool zeroForOne, int256 amount, uint160 limit) = _swapParams(market, size);
        swap.sqrtPriceBefore = _sqrtPrice(market.pool);
        _payingPool = address(market.pool);
        (swap.amount0, swap.amount1) = market.pool.swap(address(this), zeroForOne, amount, limit, abi.encode(marketId, false));
        _payingPool = address(0);
        swap.sqrtPriceAfter = _sqrtPrice(market.pool);
    }

    /// @dev A LONG is an exact output of base (token0) for quote: amountSpecified -s, zeroForOne false, the price
    /// limited to one unit above the range. A SHORT is an exact input of base: amountSpecified s (capped at 2^255-1:
    /// a larger size never fills anyway), zeroForOne true, limited to one unit below the range.
    function _swapParams(Market storage market, int256 size) private view returns (bool zeroForOne, int256 amount, uint160 limit) {
        if (size > 0) return (false, -size, market.sqrtMaxPriceX96 + 1);
        amount = size == type(int256).min ? type(int256).max : -size;
        return (true, amount, market.sqrtMinPriceX96 - 1);
    }

    function _decodeOutcome(bytes memory reason) private pure returns (int256 amount0, int256 amount1, uint160 sqrtAfter) {
        assembly ("memory-safe") {
            amount0 := mload(add(reason, 36))
            amount1 := mload(add(reason, 68))
            sqrtAfter := mload(add(reason, 100))
        }
    }

    /// @dev The numbers of a swap of `size` (see the contract's notice), or its revert.
    function _outcome(Market storage market, int256 size, Swap memory swap) private view returns (Quote memory q) {
        uint256 s = SignedMath.abs(size);
        bool long = size > 0;
        // Filled in full: exactly s base tokens out (LONG: amount0 = -s) or in (SHORT: amount0 = s).
        bool filled = size != type(int256).min && swap.amount0 == -size;
        if (!filled || swap.sqrtPriceAfter < market.sqrtMinPriceX96 || swap.sqrtPriceAfter > market.sqrtMaxPriceX96) {
            revert PoolPriceOutOfRange(swap.sqrtPriceAfter, market.sqrtMinPriceX96, market.sqrtMaxPriceX96);
        }
        q.quoteAmount = SignedMath.abs(swap.amount1);
        if (q.quoteAmount == 0) revert InvalidInternalTradeSize(0);
        q.fillPrice = Math.mulDiv(q.quoteAmount, 1e18, s);
        if (q.fillPrice < market.minPriceD18) revert TradePriceOutOfBounds(q.fillPrice, market.minPriceD18, market.maxPriceD18);
        uint256 ratioUp = Math.mulDiv(q.quoteAmount, 1e18, s, Math.Rounding.Ceil);
        if (ratioUp > market.maxPriceD18) revert TradePriceOutOfBounds(ratioUp, market.minPriceD18, market.maxPriceD18);
        q.sqrtPriceX96After = swap.sqrtPriceAfter;
        q.price18DigitsAfter = PoolPrices.priceD18FromSqrtPriceX96(swap.sqrtPriceAfter);
        uint256 loss = long
            ? PositionLoss.longLoss(market.ranges, swap.sqrtPriceBefore, swap.sqrtPriceAfter, market.minPriceD18, market.feeRate)
            : PositionLoss.shortLoss(market.ranges, swap.sqrtPriceBefore, swap.sqrtPriceAfter, market.maxPriceD18, market.feeRate);
        q.requiredCollateral = loss + COLLATERAL_ROUNDING;
    }

    /// @dev The market's tokens (base the lower address, so token0), and its pool, created and initialized.
    function _createPool(Market storage market, uint160 sqrtPriceX96) private {
        VirtualToken first = new VirtualToken();
        VirtualToken second = new VirtualToken();
        (market.baseToken, market.quoteToken) = address(first) < address(second) ? (first, second) : (second, first);
        market.pool =
            IUniswapV3Pool(uniswapFactory.createPool(address(market.baseToken), address(market.quoteToken), market.feeRate));
        market.pool.initialize(sqrtPriceX96);
    }

    /// @dev Each range rounded inward to the pool's tick spacing, checked, and minted into the pool.
    function _addLiquidity(Market storage market, uint256 marketId, LiquidityRange[] calldata ranges) private {
        int24 spacing = market.pool.tickSpacing();
        uint256[18] memory powers = PoolPrices.tickPowers();
        uint160 sqrtPrice = _sqrtPrice(market.pool);
        (market.minTick, market.maxTick) = (type(int24).max, type(int24).min);
        _payingPool = address(market.pool);
        for (uint256 i; i < ranges.length; ++i) {
            LiquidityRange calldata wanted = ranges[i];
            PositionLoss.Range memory range;
            range.tickLower = PoolPrices.tickAtOrAbove(
                PoolPrices.sqrtPriceX96FromPriceD18(wanted.minPriceD18, Math.Rounding.Ceil), spacing, powers
            );
            range.tickUpper = PoolPrices.tickAtOrBelow(
                PoolPrices.sqrtPriceX96FromPriceD18(wanted.maxPriceD18, Math.Rounding.Floor), spacing, powers
            );
            range.sqrtLowerX96 = PoolPrices.sqrtPriceAtTick(range.tickLower, powers);
            range.sqrtUpperX96 = PoolPrices.sqrtPriceAtTick(range.tickUpper, powers);
            if (range.sqrtLowerX96 >= sqrtPrice || range.sqrtUpperX96 <= sqrtPrice) {
                revert InvalidData("range does not contain the price once rounded to ticks");
            }
            range.liquidity = uint256(wanted.liquidity).toUint96();
            market.ranges.push(range);
            market.pool.mint(address(this), range.tickLower, range.tickUpper, wanted.liquidity, abi.encode(marketId));
            if (range.tickLower < market.minTick) market.minTick = range.tickLower;
            if (range.tickUpper > market.maxTick) market.maxTick = range.tickUpper;
        }
        _payingPool = address(0);
        market.sqrtMinPriceX96 = PoolPrices.sqrtPriceAtTick(market.minTick, powers);
        market.sqrtMaxPriceX96 = PoolPrices.sqrtPriceAtTick(market.maxTick, powers);
        market.minPriceD18 = PoolPrices.priceD18FromSqrtPriceX96(market.sqrtMinPriceX96);
        market.maxPriceD18 = PoolPrices.priceD18FromSqrtPriceX96(market.sqrtMaxPriceX96);
    }

    function _sqrtPrice(IUniswapV3Pool pool) private view returns (uint160 sqrtPriceX96) {
        (sqrtPriceX96,,,,,,) = pool.slot0();
    }

    function _existing(uint256 marketId) private view returns (Market storage market) {
        market = _markets[marketId];
        if (market.startTime == 0) revert InvalidMarket();
    }

    function _validate(MarketConfig calldata config) private view {
        if (config.startTime == 0) revert InvalidData("start time is zero");
        if (config.startTime >= config.endTime) revert InvalidData("start time not before end time");
        if (config.minPriceD18 < MIN_PRICE_D18) revert InvalidData("min price below 1e12");
        if (config.maxPriceD18 > MAX_PRICE_D18) revert InvalidData("max price above 1e24");
        if (config.priceD18 <= config.minPriceD18 || config.priceD18 >= config.maxPriceD18) {
            revert InvalidData("price not strictly between min and max price");
        }
        if (uniswapFactory.feeAmountTickSpacing(config.feeRate) == 0) revert InvalidData("fee rate not a v3 fee tier");
        if (config.ranges.length == 0 || config.ranges.length > MAX_RANGES) revert InvalidData("not 1 to 8 liquidity ranges");
        for (uint256 i; i < config.ranges.length; ++i) {
            LiquidityRange calldata range = config.ranges[i];
            if (range.liquidity == 0) revert InvalidData("liquidity is zero");
            if (range.liquidity > MAX_LIQUIDITY) revert InvalidData("liquidity above 2^80");
            if (range.minPriceD18 < config.minPriceD18 || range.maxPriceD18 > config.maxPriceD18) {
                revert InvalidData("range outside the price range");
            }
        }
    }
}
