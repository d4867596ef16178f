// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

/// @title The market group interface the quoter reads and trades through
/// @notice The functions of the Sapience market group interface (market-era naming) that the quoter calls or
/// builds transactions for (semantics sections 1, 9, 12, 13 and 14), with their structs, and the custom errors a
/// market group reverts with. The signatures are the real protocol's, so that a call encodes and a revert decodes
/// alike on the stand-in and on a real group.
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

    /// @notice What a position is: 0 never created, 1 liquidity, 2 trade (the real group's order).
    enum PositionKind {
        Unknown,
        Liquidity,
        Trade
    }

    /// @notice A position, as the real group's Position struct: the collateral it holds and its virtual tokens,
    /// held or borrowed (18 decimals). Its size is vBaseAmount - borrowedVBase.
    struct Position {
        uint256 id;
        PositionKind kind;
        uint256 marketId;
        uint256 depositedCollateralAmount;
        uint256 borrowedVQuote;
        uint256 borrowedVBase;
        uint256 vQuoteAmount;
        uint256 vBaseAmount;
        uint256 uniswapPositionId;
        bool isSettled;
    }

    /// @notice What createTraderPosition takes: a size in base tokens (positive: LONG), the most collateral it may
    /// take in the token's own units (0: no limit), and the last block timestamp it may run at.
    struct TraderPositionCreateParams {
        uint256 marketId;
        int256 size;
        uint256 maxCollateral;
        uint256 deadline;
    }

    /// @notice What modifyTraderPosition takes: the position's new size (0 closes it), the most the collateral may
    /// move in the token's own units, signed as the move (positive: the trader deposits; 0: no limit), and the last
    /// block timestamp it may run at.
    struct TraderPositionModifyParams {
        uint256 positionId;
        int256 size;
        int256 deltaCollateralLimit;
        uint256 deadline;
    }

    /// @notice What createLiquidityPosition takes: the base (token0) and quote (token1) tokens the sender wants to
    /// put in the range [lowerTick, upperTick] (the pool takes what the liquidity they pay for costs), the collateral
    /// it deposits in the token's own units, the least of each token the mint must take (slippage), and the last
    /// block timestamp it may run at.
    struct LiquidityMintParams {
        uint256 marketId;
        uint256 amountBaseToken;
        uint256 amountQuoteToken;
        uint256 collateralAmount;
        int24 lowerTick;
        int24 upperTick;
        uint256 minAmountBaseToken;
        uint256 minAmountQuoteToken;
        uint256 deadline;
    }

    /// @notice A size of zero, or a market configuration outside the supported bounds.
    error InvalidData(string reason);
    /// @notice The market id was never created.
    error InvalidMarket();
    /// @notice The market is settled: it no longer trades.
    error MarketSettled();
    /// @notice The block timestamp is before the market's start time (the stand-in's own check).
    error MarketNotStarted();
    /// @notice A trade on a market whose end time has passed; a new liquidity position on a market settled or at or
    /// past its end time.
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
    /// @notice A liquidity position needs `amountRequired` collateral (18 decimals) but is given only
    /// `collateralAvailable` (its collateralAmount normalised to 18 decimals). A trader's limits revert
    /// CollateralLimitReached instead.
    error InsufficientCollateral(uint256 amountRequired, uint256 collateralAvailable);

    /// @notice The block's timestamp `blockTime` is past the trade's `deadline`.
    error TransactionExpired(uint256 deadline, uint256 blockTime);
    /// @notice A trade that does not change the position's size.
    error DeltaTradeIsZero();
    /// @notice A trade whose size (a new size, or its change) is not zero but below the group's minTradeSize.
    error PositionSizeBelowMin();
    /// @notice The trade's collateral, `collateralRequired` (18 decimals; signed: a deposit is positive), is past
    /// the trader's limit `maxCollateral`, normalised to 18 decimals.
    error CollateralLimitReached(int256 collateralRequired, int256 maxCollateral);
    /// @notice `sender` is not the owner of position `tokenId`.
    error NotAccountOwner(uint256 tokenId, address sender);
    /// @notice A trader's operation on a position that is not a trader position.
    error InvalidPositionKind();
    /// @notice A contract that does not accept the position's token (onERC721Received).
    error InvalidTransferRecipient(address recipient);
    /// @notice Position `tokenId` was never created.
    error TokenDoesNotExist(uint256 tokenId);
    /// @notice A liquidity range's tick `requestedTick` is past the market's bound `boundedTick`
    /// (baseAssetMinPriceTick for the lower tick, baseAssetMaxPriceTick for the upper).
    error InvalidRange(int24 requestedTick, int24 boundedTick);

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

    /// @notice Opens a position of `params.size` on `params.marketId`, an ERC-721 token minted to the sender;
    /// the collateral it needs is taken from the sender (ERC-20 transferFrom).
    function createTraderPosition(TraderPositionCreateParams calldata params) external returns (uint256 positionId);

    /// @notice Changes the sender's position to the new size `params.size`, moving collateral in or out.
    function modifyTraderPosition(TraderPositionModifyParams calldata params) external;

    /// @notice What modifyTraderPosition(positionId, size) would move and do, for the position's owner: the
    /// collateral's move (18 decimals, positive: the trader deposits), the position's PnL if closed at the trade's
    /// prices, the trade's fill price and the price after it.
    /// @dev Not `view`: callers simulate it (eth_call) from the owner.
    function quoteModifyTraderPosition(uint256 positionId, int256 size)
        external
        returns (int256 expectedCollateralDelta, int256 closePnL, uint256 fillPrice, uint256 price18DigitsAfter);

    /// @notice The position `positionId`; a zero struct for a position never created.
    function getPosition(uint256 positionId) external view returns (Position memory);

    /// @notice The position's size: vBaseAmount - borrowedVBase (positive: LONG).
    function getPositionSize(uint256 positionId) external view returns (int256);

    /// @notice Adds liquidity to the market's pool in [lowerTick, upperTick], as a liquidity position minted to the
    /// sender (an ERC-721 token, id = total supply + 1) that owes the pool's tokens it paid for and holds
    /// `collateralAmount` of collateral, taken from the sender (ERC-20 transferFrom) once the position is found to
    /// need no more (InsufficientCollateral otherwise). Returns the position's id, the collateral it needs and holds
    /// (18 decimals), its pool position's id, its liquidity and the tokens the pool took.
    function createLiquidityPosition(LiquidityMintParams calldata params)
        external
        returns (
            uint256 id,
            uint256 requiredCollateralAmount,
            uint256 totalDepositedCollateralAmount,
            uint256 uniswapNftId,
            uint128 liquidity,
            uint256 addedAmount0,
            uint256 addedAmount1
        );

    /// @notice The group's own quote of a liquidity position: the position of the range [sqrtPriceAX96,
    /// sqrtPriceBX96] that one token of each side pays for at `sqrtPriceX96`, scaled by the ratio of
    /// `depositedCollateralAmount` (18 decimals) to that position's requirement. Its tokens and liquidity.
    function quoteLiquidityPositionTokens(uint256 marketId, uint256 depositedCollateralAmount, uint160 sqrtPriceX96,
        uint160 sqrtPriceAX96, uint160 sqrtPriceBX96) external view returns (uint256 amount0, uint256 amount1, uint128 liquidity);

    /// @notice The base and quote tokens `liquidity` holds in the range [sqrtPriceAX96, sqrtPriceBX96] at sqrt
    /// price `sqrtPriceX96`, rounded down.
    function getTokensFromLiquidity(uint128 liquidity, uint160 sqrtPriceX96, uint160 sqrtPriceAX96, uint160 sqrtPriceBX96)
        external
        view
        returns (uint256 amount0, uint256 amount1);
}
