// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

/// @title How the reference market group is configured: its markets and their liquidity
/// @notice The owner's side of the reference market group (contracts/MarketGroup.sol), which MarketGroup routes to
/// its configuration module (contracts/MarketConfigurationModule.sol). Not part of the real group's interface: the
/// real group configures its markets otherwise; the quoter never calls these.
interface IMarketConfiguration {
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

    /// @notice Creates a market: its two virtual tokens, its pool (initialized at floor(sqrt(priceD18)) in Q96) and
    /// its liquidity. Only the owner. Reverts InvalidData(reason) on a config outside the bounds.
    function createMarket(MarketConfig calldata config) external returns (uint256 marketId);

    /// @notice Settles a market at any price >= 0. Only the owner.
    function settleMarket(uint256 marketId, uint256 settlementPriceD18) external;
}
