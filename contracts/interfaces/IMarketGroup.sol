// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

/// @title The market group interface the quoter reads
/// @notice The functions of the Sapience market group interface (market-era naming) that the quoter calls,
/// with their structs, and the custom errors a market group reverts with. The errors' signatures are the real
/// protocol's, so that a revert decodes alike from the stand-in and from a real group.
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
    /// @notice The block timestamp is before the market's start time (the stand-in's own check).
    error MarketNotStarted();
    /// @notice A trade on a market whose end time has passed.
    error ExpiredMarket();
    /// @notice A quote on a market whose end time `marketEndTime` has passed and that was never settled.
    error ExpiredMarketNotSettled(uint256 marketEndTime);
    /// @notice The trade would move the pool's sqrt price (Q96) to `poolPrice`, outside [minPrice, maxPrice],
    /// the sqrt prices (Q96) of the market's price range.
    error PoolPriceOutOfRange(uint160 poolPrice, uint160 minPrice, uint160 maxPrice);
    /// @notice The trade ratio (quote tokens per base token, D18), rounded down or up, is outside the market's
    /// price range: a trade of a few wei, whose rounding dominates.
    error TradePriceOutOfBounds(uint256 tradeRatioD18, uint256 minTradeRatioD18, uint256 maxTradeRatioD18);
    /// @notice The pool exchanged no quote token for the trade (a SHORT of a few wei).
    error InvalidInternalTradeSize(uint256 tradeSize);
    /// @notice The trade needs `amountRequired` collateral (18 decimals) but the trader's limit, normalised to
    /// 18 decimals, is `collateralAvailable`.
    error InsufficientCollateral(uint256 amountRequired, uint256 collateralAvailable);

    /// @notice The market group's owner, collateral token, fee collector NFT and parameters.
    function getMarketGroup()
        external
        view
        returns (address owner, address collateralAsset, address feeCollectorNFT, MarketParams memory marketParams);

    /// @notice The market `id` and the group's parameters; all fields zero (startTime 0) for an id never created.
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
