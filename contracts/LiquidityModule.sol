// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IMarketGroup} from "./interfaces/IMarketGroup.sol";
import {IUniswapV3Factory} from "./interfaces/IUniswapV3.sol";
import {LiquidityMath} from "./libraries/LiquidityMath.sol";
import {PoolPrices} from "./libraries/PoolPrices.sol";
import {PoolTicks} from "./libraries/PoolTicks.sol";
import {PositionLoss} from "./libraries/PositionLoss.sol";
import {MarketGroupStorage} from "./MarketGroupStorage.sol";

/// @title LiquidityModule: liquidity positions on the reference market group
/// @notice createLiquidityPosition, as the real group's (semantics sections 9 and 14), run by the group
/// (contracts/MarketGroup.sol) by delegatecall on its storage, like its configuration module, so that the group's own
/// code stays under EIP-170. The real group mints through Uniswap's position manager; this one mints in the pool
/// itself, with the liquidity the manager would: v3's getLiquidityForAmounts of the desired amounts at the pool's
/// price, between the pool's own tick prices (libraries/PoolTicks.sol). The pool's position is the group's; the
/// sender gets the group's position token, which owes the tokens the pool took.
///
/// The new liquidity joins the market's liquidity ranges (one per pair of ticks), through which traders' losses are
/// valued (libraries/PositionLoss.sol), so that a trade's requiredCollateral keeps counting every token of the pool.
contract LiquidityModule is MarketGroupStorage {
    using SafeCast for uint256;
    using SafeERC20 for IERC20;

    /// @notice What createLiquidityPosition answers, as the real group's seven values (a struct of static fields
    /// encodes as they do): the position's id, the collateral it needs and holds (18 decimals), its pool position's
    /// id (the position's own: no position manager numbers it), its liquidity and the tokens the pool took.
    struct Created {
        uint256 id;
        uint256 requiredCollateralAmount;
        uint256 totalDepositedCollateralAmount;
        uint256 uniswapNftId;
        uint128 liquidity;
        uint256 addedAmount0;
        uint256 addedAmount1;
    }

    /// @dev The group's collateral token and one token unit in 18-decimal units: the group's own immutables, which a
    /// module does not share (they are code), so the group passes them to this module's constructor.
    address private immutable _collateralAsset;
    uint256 private immutable _collateralScale;

    constructor(IUniswapV3Factory factory, address collateral, uint256 collateralScale) MarketGroupStorage(factory) {
        _collateralAsset = collateral;
        _collateralScale = collateralScale;
    }

    /// @notice See IMarketGroup.createLiquidityPosition, whose answer `created` is. Reverts, in the real group's
    /// order: TransactionExpired; InvalidTransferRecipient(sender) for a contract that refuses the token; InvalidMarket(); ExpiredMarket() when
    /// settled or at or past its end; InvalidRange(lowerTick, min) then InvalidRange(upperTick, max) past the
    /// market's bounds; the pool's own reverts (no data for a tick off its spacing or no liquidity; "TLU" for an empty
    /// range); Error("Price slippage check") when the pool takes less than a minimum; InsufficientCollateral(required,
    /// collateralAmount * 10^(18-d)); then the token's transferFrom of collateralAmount.
    function createLiquidityPosition(IMarketGroup.LiquidityMintParams calldata params)
        external
        returns (Created memory created)
    {
        if (block.timestamp > params.deadline) revert IMarketGroup.TransactionExpired(params.deadline, block.timestamp);
        IMarketGroup.Position storage position;
        (created.id, position) = _newPosition(IMarketGroup.PositionKind.Liquidity, params.marketId);
        _mintPosition(msg.sender, created.id);
        Market storage market = _openRange(params);
        _mint(market, params, created);
        created.requiredCollateralAmount = _requirement(market, params, created);
        created.totalDepositedCollateralAmount = params.collateralAmount * _collateralScale;
        if (created.requiredCollateralAmount > created.totalDepositedCollateralAmount) {
            revert IMarketGroup.InsufficientCollateral(created.requiredCollateralAmount, created.totalDepositedCollateralAmount);
        }
        created.uniswapNftId = created.id;
        position.uniswapPositionId = created.id;
        position.borrowedVBase = created.addedAmount0;
        position.borrowedVQuote = created.addedAmount1;
        position.depositedCollateralAmount = created.totalDepositedCollateralAmount;
        _joinRanges(market, params.lowerTick, params.upperTick, created.liquidity);
        IERC20(_collateralAsset).safeTransferFrom(msg.sender, address(this), params.collateralAmount);
    }

    /// @dev The market, if it takes new liquidity in the params' range: not settled nor at or past its end, the ticks
    /// within its bounds.
    function _openRange(IMarketGroup.LiquidityMintParams calldata params) private view returns (Market storage market) {
        market = _existing(params.marketId);
        if (market.settled || block.timestamp >= market.endTime) revert IMarketGroup.ExpiredMarket();
        if (params.lowerTick < market.minTick) revert IMarketGroup.InvalidRange(params.lowerTick, market.minTick);
        if (params.upperTick > market.maxTick) revert IMarketGroup.InvalidRange(params.upperTick, market.maxTick);
    }

    /// @dev The collateral the minted position needs, its loans the tokens the pool took.
    function _requirement(Market storage market, IMarketGroup.LiquidityMintParams calldata params, Created memory minted)
        private
        view
        returns (uint256)
    {
        return LiquidityMath.requiredCollateral(
            minted.liquidity,
            minted.addedAmount0,
            minted.addedAmount1,
            PoolTicks.sqrtRatioAtTick(params.lowerTick),
            PoolTicks.sqrtRatioAtTick(params.upperTick),
            market.minPriceD18,
            market.maxPriceD18
        );
    }

    /// @dev Mints in the pool the liquidity the desired amounts pay for at its price (its mint callback pays the
    /// tokens), checked against the minimums as the position manager checks them.
    function _mint(Market storage market, IMarketGroup.LiquidityMintParams calldata params, Created memory minted) private {
        minted.liquidity = LiquidityMath.liquidityForAmounts(
            _sqrtPrice(market.pool),
            PoolTicks.sqrtRatioAtTick(params.lowerTick),
            PoolTicks.sqrtRatioAtTick(params.upperTick),
            params.amountBaseToken,
            params.amountQuoteToken
        );
        _payingPool = address(market.pool);
        (minted.addedAmount0, minted.addedAmount1) =
            market.pool.mint(address(this), params.lowerTick, params.upperTick, minted.liquidity, abi.encode(params.marketId));
        _payingPool = address(0);
        require(
            minted.addedAmount0 >= params.minAmountBaseToken && minted.addedAmount1 >= params.minAmountQuoteToken,
            "Price slippage check"
        );
    }

    /// @dev Adds `liquidity` to the market's range of these ticks, or a new range (the loss model's prices: exact
    /// tick prices, as createMarket places its ranges).
    function _joinRanges(Market storage market, int24 lowerTick, int24 upperTick, uint128 liquidity) private {
        PositionLoss.Range[] storage ranges = market.ranges;
        for (uint256 i; i < ranges.length; ++i) {
            if (ranges[i].tickLower == lowerTick && ranges[i].tickUpper == upperTick) {
                ranges[i].liquidity = (uint256(ranges[i].liquidity) + liquidity).toUint96();
                return;
            }
        }
        uint256[18] memory powers = PoolPrices.tickPowers();
        ranges.push(
            PositionLoss.Range({
                sqrtLowerX96: PoolPrices.sqrtPriceAtTick(lowerTick, powers),
                liquidity: uint256(liquidity).toUint96(),
                sqrtUpperX96: PoolPrices.sqrtPriceAtTick(upperTick, powers),
                tickLower: lowerTick,
                tickUpper: upperTick
            })
        );
    }
}
