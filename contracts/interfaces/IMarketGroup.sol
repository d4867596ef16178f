// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

/// @title The market group interface the quoter reads
/// @notice The four functions of the Sapience market group interface (market-era naming) that the quoter
/// calls, with their structs, and the custom errors a market group reverts with.
interface IMarketGroup {
    /// @notice A market's static description and settlement state.
    struct MarketData {
        uint256 marketId;
        uint256 startTime;
        uint256 endTime;
        address pool;
        address quoteToken;
        address baseToken;
        uint256 minPriceD18;
        uint256 maxPriceD18;
        int24 baseAssetMinPriceTick;
        int24 baseAssetMaxPriceTick;
        bool settled;
        uint256 settlementPriceD18;
        bytes32 assertionId;
        bytes claimStatementYesOrNumeric;
        bytes claimStatementNo;
    }

    /// @notice The market group's parameters.
    struct MarketParams {
        uint24 feeRate;
        uint64 assertionLiveness;
        uint256 bondAmount;
        address bondCurrency;
        address uniswapPositionManager;
        address uniswapSwapRouter;
        address uniswapQuoter;
        address optimisticOracleV3;
    }

    /// @notice A size of zero, or a market configuration outside the supported bounds.
    error InvalidData(string reason);
    /// @notice The market id was never created.
    error InvalidMarket();
    /// @notice The market is settled: it no longer trades.
    error MarketSettled();
    /// @notice The block timestamp is before the market's start time.
    error MarketNotStarted();
    /// @notice The block timestamp is after the market's end time.
    error ExpiredMarket();
    /// @notice The trade would move the pool price outside the market's price range.
    error PoolPriceOutOfRange(uint256 marketId, int256 size);

    /// @notice The market `id` and the group's parameters. Reverts `InvalidMarket()` for an id never created.
    function getMarket(uint256 id) external view returns (MarketData memory, MarketParams memory);

    /// @notice The market's current price (D18), or its settlement price once settled.
    function getReferencePrice(uint256 marketId) external view returns (uint256 price18Digits);

    /// @notice The pool's current sqrt price, sqrt(price) * 2^96.
    function getSqrtPriceX96(uint256 marketId) external view returns (uint160 sqrtPriceX96);

    /// @notice What opening a position of `size` base tokens (positive: LONG, negative: SHORT) would need and do.
    /// @dev Not `view`: callers simulate it (eth_call).
    function quoteCreateTraderPosition(uint256 marketId, int256 size)
        external
        returns (uint256 requiredCollateral, uint256 fillPrice, uint256 price18DigitsAfter);
}
