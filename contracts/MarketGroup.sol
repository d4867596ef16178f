// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {SignedMath} from "@openzeppelin/contracts/utils/math/SignedMath.sol";
import {IMarketConfiguration} from "./interfaces/IMarketConfiguration.sol";
import {IMarketGroup} from "./interfaces/IMarketGroup.sol";
import {IUniswapV3Factory} from "./interfaces/IUniswapV3.sol";
import {LiquidityMath} from "./libraries/LiquidityMath.sol";
import {PoolPrices} from "./libraries/PoolPrices.sol";
import {PositionLoss} from "./libraries/PositionLoss.sol";
import {CollateralToken} from "./CollateralToken.sol";
import {LiquidityModule} from "./LiquidityModule.sol";
import {MarketConfigurationModule} from "./MarketConfigurationModule.sol";
import {MarketGroupStorage} from "./MarketGroupStorage.sol";

/// @title MarketGroup: the reference market group, on real Uniswap v3 pools
/// @notice A market group for the quoter's development chain and tests, with the real group's trading surface
/// (semantics section 9). Each market trades on its own Uniswap v3 pool, created by the v3-core factory given at
/// deployment, between two virtual tokens the group deploys: base (token0) and quote (token1). The group alone
/// provides the pool's liquidity, over one or more tick ranges, and mints the virtual tokens it owes the pool in the
/// v3 mint and swap callbacks. Its markets are created and settled by its configuration module
/// (MarketConfigurationModule.sol), and liquidity positions created by its liquidity module (LiquidityModule.sol):
/// it delegatecalls both. A liquidity position's liquidity joins the market's ranges.
///
/// A LONG of size s buys s base tokens from the pool (an exact-output swap: the quote tokens paid include the
/// pool's fee); a SHORT of s sells them (an exact-input swap: the fee is taken from the base tokens sold, the quote
/// tokens received are net of it). The fee is the pool's own fee tier. A quote simulates the swap as Uniswap's
/// QuoterV2 does: the swap runs, and the callback reverts with the amounts and the sqrt price after, which the quote
/// catches and decodes, so nothing changes. A trade (createTraderPosition, modifyTraderPosition) runs the same swap
/// for real.
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
///
/// Positions (docs/semantics.md section 8 states the same in words). A trader position of size S (positive: LONG)
/// holds its virtual tokens as the real group's Position struct: a LONG holds S base tokens (vBaseAmount) and owes
/// quote tokens (borrowedVQuote), a SHORT owes S base tokens (borrowedVBase) and holds quote tokens (vQuoteAmount),
/// the quote side being whichever sign it has. Its loss at the worst settlement price, W, is what those tokens lose
/// at m (the market's minimum price) for a LONG, at M (its maximum) for a SHORT, the base side valued rounded
/// against the trader: W = -(quote held - quote owed + floor(S * m / E)) for a LONG, ceil(|S| * M / E) - (quote held
/// - quote owed) for a SHORT. A trade of t = |change| whose loss formula (the one of a new position of that change,
/// requiredCollateral - 2) is L leaves the loss
/// - W + L when it adds to the position (or opens it: W = 0);
/// - W + L - floor(min(t, |S|) * (M - m) / E) when it is against the position, at most W when it reduces or closes
///   it (t <= |S|): the part that closes the position is credited at the width of the range, which the loss formula
///   charged it; a reduce never needs collateral, whatever the loss formula's rounding up;
/// and the collateral moves by expectedCollateralDelta = W' + 2 - deposited when the position stays open, W' -
/// deposited when it closes (positive: the trader deposits). An open position then holds W' + 2 of collateral
/// (W' taken as 0 when negative: the profit is paid out) and virtual tokens whose loss is W'; a closed one holds
/// nothing. closePnL, the position's PnL if closed at the trade's average price: floor(|S| * L / t) - W for a trade
/// that adds, floor(|S| * (M - m) / E) - ceil(|S| * L / t) - W against (at least -W), 0 for a new position; a close
/// pays deposited + closePnL. So a new position's collateral is its quote's requiredCollateral; adding needs no less
/// the more is added; reducing never needs collateral; past the close, a flip needs no less the further it goes.
contract MarketGroup is IMarketGroup, IMarketConfiguration, MarketGroupStorage {
    using SafeCast for uint256;
    using SafeERC20 for IERC20;

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

    /// @dev What a trade does to a position (see the contract's notice): the trade's numbers, the size it leaves,
    /// the loss W' of the virtual tokens it leaves (0 when closed), and the collateral's move and the closePnL,
    /// both signed, in 18 decimals.
    struct Change {
        Quote trade;
        int256 sizeDelta;
        int256 sizeAfter;
        uint256 lossAfter;
        int256 collateralDelta;
        int256 closePnL;
    }

    /// @notice How a simulated swap hands back its outcome, from the swap callback (QuoterV2 style).
    error SwapOutcome(int256 amount0, int256 amount1, uint160 sqrtPriceX96After);
    /// @notice A callback from anyone but the pool the group is paying.
    error UnexpectedCallback();

    uint8 public constant MAX_COLLATERAL_DECIMALS = 18;
    /// @notice Added to every requiredCollateral, as the real group adds it.
    uint256 public constant COLLATERAL_ROUNDING = 2;

    /// @notice Uniswap's QuoterV2 over that factory, named in the markets' params as the real group names the one it
    /// quotes through (zero for none): the quoter asks it how far a price-limited swap fills. The group's own quotes
    /// simulate their swaps themselves.
    address public immutable uniswapQuoter;
    address public immutable collateralAsset;
    /// @notice The module the owner's functions (IMarketConfiguration) run in, by delegatecall.
    address public immutable configurationModule;
    /// @notice The module createLiquidityPosition runs in, by delegatecall.
    address public immutable liquidityModule;
    /// @notice 10^(18 - decimals): one token unit in 18-decimal units.
    uint256 private immutable _collateralScale;
    /// @dev The smallest |size| a trade may open or leave, and the smallest |change| it may make (18 decimals). As on
    /// the real group, quotes do not check it and no view returns it.
    uint256 private immutable _minTradeSize;

    /// @notice Deploys the group's collateral token with `collateralDecimals` decimals (its first creation), of which
    /// `initialCollateralSupply` token units go to the deployer (the owner): the demo's traders are paid from it, as
    /// nothing else mints. Then its configuration module (its second creation) and its liquidity module (its third). `factory` is the v3-core factory (it
    /// may be deployed after the group, before the first market), `quoter` a QuoterV2 over it (it may be deployed
    /// later; zero for none), `minTradeSize` the smallest trade (18 decimals).
    constructor(
        uint8 collateralDecimals,
        IUniswapV3Factory factory,
        address quoter,
        uint256 minTradeSize,
        uint256 initialCollateralSupply
    ) MarketGroupStorage(factory) {
        if (collateralDecimals > MAX_COLLATERAL_DECIMALS) revert InvalidData("collateral decimals above 18");
        address collateral = address(
            new CollateralToken("Market group collateral", "COLLATERAL", collateralDecimals, msg.sender, initialCollateralSupply)
        );
        uint256 scale = 10 ** (MAX_COLLATERAL_DECIMALS - collateralDecimals);
        collateralAsset = collateral;
        configurationModule = address(new MarketConfigurationModule(factory));
        liquidityModule = address(new LiquidityModule(factory, collateral, scale));
        _collateralScale = scale;
        uniswapQuoter = quoter;
        _minTradeSize = minTradeSize;
    }

    /// @inheritdoc IMarketConfiguration
    function createMarket(MarketConfig calldata) external returns (uint256 /* marketId */) {
        _delegate(configurationModule);
    }

    /// @inheritdoc IMarketConfiguration
    function settleMarket(uint256, uint256) external {
        _delegate(configurationModule);
    }

    /// @inheritdoc IMarketGroup
    /// @dev Runs in the liquidity module (LiquidityModule.sol), whose notice gives its reverts.
    function createLiquidityPosition(LiquidityMintParams calldata)
        external
        returns (uint256, uint256, uint256, uint256, uint128, uint256, uint256)
    {
        _delegate(liquidityModule);
    }

    /// @inheritdoc IMarketGroup
    /// @dev As the real group's: the unit position is the liquidity of 1e18 of each token, its requirement
    /// LiquidityMath.requiredCollateral of its own amounts as loans; the ratio floor(budget * E / requirement)
    /// scales its amounts and liquidity, each rounded down (the liquidity truncated to 128 bits). Rounded twice, the
    /// amounts may need a little more than the budget or leave some unused. The market is not checked: an id never
    /// created has prices 0. A requirement of 0 reverts with no data.
    function quoteLiquidityPositionTokens(
        uint256 marketId,
        uint256 depositedCollateralAmount,
        uint160 sqrtPriceX96,
        uint160 sqrtPriceAX96,
        uint160 sqrtPriceBX96
    ) external view returns (uint256 amount0, uint256 amount1, uint128 liquidity) {
        Market storage market = _markets[marketId];
        uint128 unit = LiquidityMath.liquidityForAmounts(sqrtPriceX96, sqrtPriceAX96, sqrtPriceBX96, 1e18, 1e18);
        (uint256 unit0, uint256 unit1) = LiquidityMath.amountsForLiquidity(sqrtPriceX96, sqrtPriceAX96, sqrtPriceBX96, unit);
        uint256 required = LiquidityMath.requiredCollateral(
            unit, unit0, unit1, sqrtPriceAX96, sqrtPriceBX96, market.minPriceD18, market.maxPriceD18
        );
        if (required == 0) revert();
        uint256 ratio = Math.mulDiv(depositedCollateralAmount, 1e18, required);
        amount0 = Math.mulDiv(unit0, ratio, 1e18);
        amount1 = Math.mulDiv(unit1, ratio, 1e18);
        liquidity = uint128((uint256(unit) * ratio) / 1e18);
    }

    /// @inheritdoc IMarketGroup
    function getTokensFromLiquidity(uint128 liquidity, uint160 sqrtPriceX96, uint160 sqrtPriceAX96, uint160 sqrtPriceBX96)
        external
        pure
        returns (uint256 amount0, uint256 amount1)
    {
        return LiquidityMath.amountsForLiquidity(sqrtPriceX96, sqrtPriceAX96, sqrtPriceBX96, liquidity);
    }

    /// @inheritdoc IMarketGroup
    /// @dev Reverts, in order: TransactionExpired, DeltaTradeIsZero, PositionSizeBelowMin, the market's checks (as a
    /// quote's, but ExpiredMarket() past its end), the swap's (as a quote's), CollateralLimitReached(requiredCollateral,
    /// maxCollateral * 10^(18-d)) when the 18-decimal requirement exceeds the normalised limit (maxCollateral 0: no
    /// limit; ceil(requiredCollateral / 10^(18-d)) is the smallest limit that passes), the token's transferFrom, and
    /// InvalidTransferRecipient(sender) when the sender is a contract that does not accept the token.
    function createTraderPosition(TraderPositionCreateParams calldata params) external returns (uint256 positionId) {
        _checkDeadline(params.deadline);
        if (params.size == 0) revert DeltaTradeIsZero();
        _checkTradeSize(params.size);
        Market storage market = _tradable(params.marketId, params.size, true);
        Position storage position;
        (positionId, position) = _newPosition(PositionKind.Trade, params.marketId);
        Change memory change = _change(market, position, params.size, false);
        // A new position's collateralDelta is its requiredCollateral: positive.
        uint256 required = uint256(change.collateralDelta);
        (bool fits, uint256 limit) = Math.tryMul(params.maxCollateral, _collateralScale);
        if (params.maxCollateral != 0 && fits && required > limit) {
            revert CollateralLimitReached(required.toInt256(), limit.toInt256());
        }
        _record(market, position, change);
        _mintPosition(msg.sender, positionId);
    }

    /// @inheritdoc IMarketGroup
    /// @dev Reverts, in order: TransactionExpired, NotAccountOwner (a position never created has no owner),
    /// InvalidPositionKind, DeltaTradeIsZero, PositionSizeBelowMin (the new size unless 0, then the change), the
    /// market's and the swap's checks as createTraderPosition's, CollateralLimitReached(collateralDelta, limit *
    /// 10^(18-d)) when the limit is not 0 and the signed 18-decimal move exceeds it (a deposit larger than allowed, or a
    /// withdrawal smaller than asked for, as the real group's checkDeltaCollateralLimit), then the token's transfer.
    function modifyTraderPosition(TraderPositionModifyParams calldata params) external {
        _checkDeadline(params.deadline);
        Position storage position = _traderPosition(params.positionId);
        int256 sizeDelta = params.size - _sizeOf(position);
        if (sizeDelta == 0) revert DeltaTradeIsZero();
        _checkTradeSize(params.size);
        _checkTradeSize(sizeDelta);
        Market storage market = _tradable(position.marketId, sizeDelta, true);
        Change memory change = _change(market, position, params.size, false);
        int256 limit = _normalisedLimit(params.deltaCollateralLimit);
        if (limit != 0 && change.collateralDelta > limit) revert CollateralLimitReached(change.collateralDelta, limit);
        _record(market, position, change);
    }

    /// @inheritdoc IMarketGroup
    /// @dev Changes no state: the swap is simulated and reverted, as quoteCreateTraderPosition's. Reverts as the
    /// modify would, but that minTradeSize is not checked (as on the real group), a change of 0 reverts
    /// InvalidData("size is zero") as a quote's size of 0, and an expired market reverts ExpiredMarketNotSettled.
    function quoteModifyTraderPosition(uint256 positionId, int256 size)
        external
        returns (int256 expectedCollateralDelta, int256 closePnL, uint256 fillPrice, uint256 price18DigitsAfter)
    {
        Position storage position = _traderPosition(positionId);
        Market storage market = _tradable(position.marketId, size - _sizeOf(position), false);
        Change memory change = _change(market, position, size, true);
        return (change.collateralDelta, change.closePnL, change.trade.fillPrice, change.trade.price18DigitsAfter);
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
    function getPosition(uint256 positionId) external view returns (Position memory) {
        return _positions[positionId];
    }

    /// @inheritdoc IMarketGroup
    function getPositionSize(uint256 positionId) external view returns (int256) {
        return _sizeOf(_positions[positionId]);
    }

    /// @notice The positions minted so far (none is ever burned): the last position's id.
    function totalSupply() external view returns (uint256) {
        return _positionCount;
    }

    /// @notice The owner of position `tokenId`; TokenDoesNotExist(tokenId) for a position never created, as the
    /// real group's.
    function ownerOf(uint256 tokenId) public view override returns (address holder) {
        holder = _ownerOf(tokenId);
        if (holder == address(0)) revert TokenDoesNotExist(tokenId);
    }

    /// @notice ERC-721's safe transfer, refused with InvalidTransferRecipient(to), as the real group's, when `to` is a
    /// contract that does not accept the token.
    function safeTransferFrom(address from, address to, uint256 tokenId, bytes memory data) public override {
        transferFrom(from, to, tokenId);
        if (!_accepts(from, to, tokenId, data)) revert InvalidTransferRecipient(to);
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

    /// @dev What trading `position` to `sizeAfter` does (see the contract's notice), the swap run for real or
    /// simulated.
    function _change(Market storage market, Position storage position, int256 sizeAfter, bool simulation)
        private
        returns (Change memory change)
    {
        int256 sizeBefore = _sizeOf(position);
        change.sizeAfter = sizeAfter;
        change.sizeDelta = sizeAfter - sizeBefore;
        Swap memory swap = simulation
            ? _simulate(market, position.marketId, change.sizeDelta)
            : _swap(market, position.marketId, change.sizeDelta);
        change.trade = _outcome(market, change.sizeDelta, swap);
        int256 tradeLoss = (change.trade.requiredCollateral - COLLATERAL_ROUNDING).toInt256();
        int256 lossBefore = _worstLoss(market, position);
        int256 lossAfter = lossBefore + tradeLoss;
        uint256 held = SignedMath.abs(sizeBefore);
        uint256 traded = SignedMath.abs(change.sizeDelta);
        if (sizeBefore != 0 && (sizeBefore > 0) == (change.sizeDelta > 0)) {
            change.closePnL = Math.mulDiv(held, uint256(tradeLoss), traded).toInt256() - lossBefore;
        } else if (sizeBefore != 0) {
            uint256 width = market.maxPriceD18 - market.minPriceD18;
            lossAfter -= Math.mulDiv(Math.min(held, traded), width, 1e18).toInt256();
            change.closePnL = Math.mulDiv(held, width, 1e18).toInt256()
                - Math.mulDiv(held, uint256(tradeLoss), traded, Math.Rounding.Ceil).toInt256() - lossBefore;
            // Trade prices lie within [m, M]: closing never loses more than the loss at the worst price, and reducing
            // never adds to it. Only the loss formula's rounding up could say otherwise.
            if (change.closePnL < -lossBefore) change.closePnL = -lossBefore;
            if (traded <= held && lossAfter > lossBefore) lossAfter = lossBefore;
        }
        int256 deposited = position.depositedCollateralAmount.toInt256();
        if (sizeAfter == 0) {
            change.collateralDelta = lossAfter - deposited;
        } else {
            change.lossAfter = lossAfter > 0 ? uint256(lossAfter) : 0;
            change.collateralDelta = lossAfter + int256(COLLATERAL_ROUNDING) - deposited;
        }
    }

    /// @dev Applies `change` to `position`: its virtual tokens re-based so that their loss is change.lossAfter, its
    /// collateral, the collateral moved (in: transferFrom, rounded up to token units; out: transfer, rounded down).
    function _record(Market storage market, Position storage position, Change memory change) private {
        int256 size = change.sizeAfter;
        uint256 base = SignedMath.abs(size);
        int256 quote;
        if (size > 0) quote = -(change.lossAfter + Math.mulDiv(base, market.minPriceD18, 1e18)).toInt256();
        if (size < 0) quote = Math.mulDiv(base, market.maxPriceD18, 1e18, Math.Rounding.Ceil).toInt256() - change.lossAfter.toInt256();
        position.vBaseAmount = size > 0 ? base : 0;
        position.borrowedVBase = size < 0 ? base : 0;
        position.vQuoteAmount = quote > 0 ? uint256(quote) : 0;
        position.borrowedVQuote = quote < 0 ? uint256(-quote) : 0;
        position.depositedCollateralAmount = size == 0 ? 0 : change.lossAfter + COLLATERAL_ROUNDING;
        int256 delta = change.collateralDelta;
        if (delta > 0) {
            IERC20(collateralAsset).safeTransferFrom(msg.sender, address(this), Math.ceilDiv(uint256(delta), _collateralScale));
        } else if (delta < 0) {
            IERC20(collateralAsset).safeTransfer(msg.sender, uint256(-delta) / _collateralScale);
        }
        emit Trade(
            position.id,
            position.marketId,
            msg.sender,
            change.sizeDelta,
            delta,
            change.trade.fillPrice,
            change.trade.price18DigitsAfter,
            change.trade.sqrtPriceX96After,
            change.trade.quoteAmount
        );
    }

    /// @dev W, the loss of the position's virtual tokens at the worst settlement price (see the contract's notice).
    function _worstLoss(Market storage market, Position storage position) private view returns (int256) {
        int256 quote = position.vQuoteAmount.toInt256() - position.borrowedVQuote.toInt256();
        if (position.vBaseAmount > 0) return -quote - Math.mulDiv(position.vBaseAmount, market.minPriceD18, 1e18).toInt256();
        if (position.borrowedVBase > 0) {
            return Math.mulDiv(position.borrowedVBase, market.maxPriceD18, 1e18, Math.Rounding.Ceil).toInt256() - quote;
        }
        return -quote;
    }

    function _sizeOf(Position storage position) private view returns (int256) {
        return position.vBaseAmount.toInt256() - position.borrowedVBase.toInt256();
    }

    /// @dev The sender's trader position: NotAccountOwner(positionId, sender) unless the sender owns it (a position
    /// never created has no owner), InvalidPositionKind() unless it is a trader position.
    function _traderPosition(uint256 positionId) private view returns (Position storage position) {
        if (_ownerOf(positionId) != msg.sender) revert NotAccountOwner(positionId, msg.sender);
        position = _positions[positionId];
        if (position.kind != PositionKind.Trade) revert InvalidPositionKind();
    }

    function _checkDeadline(uint256 deadline) private view {
        if (block.timestamp > deadline) revert TransactionExpired(deadline, block.timestamp);
    }

    /// @dev PositionSizeBelowMin() when `size` is not zero and |size| is below minTradeSize.
    function _checkTradeSize(int256 size) private view {
        if (size != 0 && SignedMath.abs(size) < _minTradeSize) revert PositionSizeBelowMin();
    }

    /// @dev A signed limit in token units, normalised to 18 decimals (saturated at int256's bounds).
    function _normalisedLimit(int256 limit) private view returns (int256) {
        (bool fits, uint256 normalised) = Math.tryMul(SignedMath.abs(limit), _collateralScale);
        if (!fits || normalised > uint256(type(int256).max)) return limit > 0 ? type(int256).max : type(int256).min;
        return limit > 0 ? int256(normalised) : -int256(normalised);
    }

    /// @dev Runs the call as it came in `module`, on the group's storage, and answers or reverts with what it
    /// answered.
    function _delegate(address module) private {
        assembly ("memory-safe") {
            let data := mload(0x40)
            calldatacopy(data, 0, calldatasize())
            let ok := delegatecall(gas(), module, data, calldatasize(), 0, 0)
            returndatacopy(data, 0, returndatasize())
            if iszero(ok) { revert(data, returndatasize()) }
            return(data, returndatasize())
        }
    }
}
