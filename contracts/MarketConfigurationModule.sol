// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IMarketConfiguration} from "./interfaces/IMarketConfiguration.sol";
import {IMarketGroup} from "./interfaces/IMarketGroup.sol";
import {IUniswapV3Factory, IUniswapV3Pool} from "./interfaces/IUniswapV3.sol";
import {PoolPrices} from "./libraries/PoolPrices.sol";
import {PositionLoss} from "./libraries/PositionLoss.sol";
import {MarketGroupStorage} from "./MarketGroupStorage.sol";
import {VirtualToken} from "./VirtualToken.sol";

/// @title MarketConfigurationModule: the owner's side of the reference market group
/// @notice Creates and settles the group's markets and places their initial liquidity, the group's own. The group
/// (contracts/MarketGroup.sol) creates this module when it is deployed and delegatecalls it: the code runs on the
/// group's storage, as the group (its address, its nonce for the tokens it deploys, its events), and `msg.sender` is
/// the group's caller. It lives apart so that the group's own code stays under EIP-170's 24,576 bytes; the real
/// group is a router of modules too. Called directly, it acts on its own empty storage, whose owner is the group.
contract MarketConfigurationModule is IMarketConfiguration, MarketGroupStorage {
    using SafeCast for uint256;

    uint256 public constant MIN_PRICE_D18 = 1e12;
    uint256 public constant MAX_PRICE_D18 = 1e24;
    /// @notice The largest liquidity of one range.
    uint256 public constant MAX_LIQUIDITY = 1 << 80;
    /// @notice The most liquidity ranges a market may have.
    uint256 public constant MAX_RANGES = 8;

    constructor(IUniswapV3Factory factory) MarketGroupStorage(factory) {}

    /// @inheritdoc IMarketConfiguration
    /// @dev As on the real group, the market's price range is where its liquidity is: from the lowest tick to the
    /// highest of its ranges (the config's bounds rounded inward), minPriceD18 and maxPriceD18 those ticks' prices
    /// rounded down.
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

    /// @inheritdoc IMarketConfiguration
    function settleMarket(uint256 marketId, uint256 settlementPriceD18) external onlyOwner {
        Market storage market = _existing(marketId);
        if (market.settled) revert IMarketGroup.MarketSettled();
        market.settled = true;
        market.settlementPriceD18 = settlementPriceD18;
        emit MarketSettledAt(marketId, settlementPriceD18);
    }

    /// @dev The market's tokens (base the lower address, so token0), and its pool, created and initialized.
    function _createPool(Market storage market, uint160 sqrtPriceX96) private {
        VirtualToken first = new VirtualToken();
        VirtualToken second = new VirtualToken();
        (market.baseToken, market.quoteToken) = address(first) < address(second) ? (first, second) : (second, first);
        market.pool = IUniswapV3Pool(uniswapFactory.createPool(address(market.baseToken), address(market.quoteToken), market.feeRate));
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
                revert IMarketGroup.InvalidData("range does not contain the price once rounded to ticks");
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

    function _validate(MarketConfig calldata config) private view {
        if (config.startTime == 0) revert IMarketGroup.InvalidData("start time is zero");
        if (config.startTime >= config.endTime) revert IMarketGroup.InvalidData("start time not before end time");
        if (config.minPriceD18 < MIN_PRICE_D18) revert IMarketGroup.InvalidData("min price below 1e12");
        if (config.maxPriceD18 > MAX_PRICE_D18) revert IMarketGroup.InvalidData("max price above 1e24");
        if (config.priceD18 <= config.minPriceD18 || config.priceD18 >= config.maxPriceD18) {
            revert IMarketGroup.InvalidData("price not strictly between min and max price");
        }
        if (uniswapFactory.feeAmountTickSpacing(config.feeRate) == 0) revert IMarketGroup.InvalidData("fee rate not a v3 fee tier");
        if (config.ranges.length == 0 || config.ranges.length > MAX_RANGES) revert IMarketGroup.InvalidData("not 1 to 8 liquidity ranges");
        for (uint256 i; i < config.ranges.length; ++i) {
            LiquidityRange calldata range = config.ranges[i];
            if (range.liquidity == 0) revert IMarketGroup.InvalidData("liquidity is zero");
            if (range.liquidity > MAX_LIQUIDITY) revert IMarketGroup.InvalidData("liquidity above 2^80");
            if (range.minPriceD18 < config.minPriceD18 || range.maxPriceD18 > config.maxPriceD18) {
                revert IMarketGroup.InvalidData("range outside the price range");
            }
        }
    }
}
