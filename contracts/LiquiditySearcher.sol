// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {LiquiditySearch} from "./LiquiditySearch.sol";
import {SearcherBase} from "./SearcherBase.sol";
import {IMarketGroup} from "./interfaces/IMarketGroup.sol";
import {PoolTicks} from "./libraries/PoolTicks.sol";
import {POOL_WORD, wordAt} from "./libraries/MarketWords.sol";

/// @title LiquiditySearcher: the quoter's search of a new liquidity position in one eth_call (semantics section 14)
/// @notice Never deployed: run as a deployless call, its constructor reads the market, its price and collateral, the
/// pool's sqrt price and tick spacing, aligns the range, asks the group's own quote (and simulates its mint), then
/// quotes candidates chosen by {LiquiditySearch} while gas lasts: each liquidity's tokens (getTokensFromLiquidity) and
/// their mint simulated with no collateral, which reverts InsufficientCollateral(required, 0). It reverts with
/// {LiquiditySearchFacts}: every call's outcome, so that the service decides as it does making the calls one by one,
/// and continues by plain calls where this one stopped.
contract LiquiditySearcher is SearcherBase, LiquiditySearch {
    /// @notice One LP quote: the group, the market, the budget (18 decimals), and the range's ticks as the prices
    /// asked give them (before alignment to the pool's spacing); a side not asked is the market's bound.
    struct Ask {
        address marketGroup;
        uint256 marketId;
        uint256 collateralAvailable;
        bool hasLower;
        int24 lowerTick;
        bool hasUpper;
        int24 upperTick;
    }

    /// @notice A candidate: its liquidity, its tokens' read, its mint's simulation and the gas that used.
    struct LiquidityCandidate {
        uint256 liquidity;
        Call tokens;
        Call mint;
        uint256 gasUsed;
    }

    /// @notice The facts: the market's reads (SearcherBase's, without candidates), the pool's sqrt price and spacing
    /// (`rangeRead`), the group's quote and its mint (`quoted`: the range was valid), and the candidates.
    struct LiquidityFacts {
        Facts base;
        bool rangeRead;
        Call sqrtPrice;
        Call spacing;
        bool quoted;
        Call groupQuote;
        Call groupMint;
        LiquidityCandidate[] candidates;
    }

    error LiquiditySearchFacts(LiquidityFacts facts);

    /// @dev The range once aligned, with the prices its mints take.
    struct Range {
        int24 lower;
        int24 upper;
        uint160 sqrtPrice;
        uint160 sqrtLower;
        uint160 sqrtUpper;
    }

    /// @dev MarketData's baseAssetMinPriceTick and baseAssetMaxPriceTick, from its head.
    uint256 private constant MIN_TICK_WORD = 8;
    uint256 private constant MAX_TICK_WORD = 9;
    /// @dev Gas a candidate needs at least (its tokens' read and its mint's simulation).
    uint256 private constant MIN_LIQUIDITY_CANDIDATE_GAS = 400_000;
    /// @dev Encoded bytes of a candidate besides its data, and its data guessed before it is known.
    uint256 private constant LIQUIDITY_CANDIDATE_BYTES = 448;
    uint256 private constant MOST_CANDIDATES = 64;

    constructor(Ask memory ask) {
        LiquidityFacts memory facts;
        facts.base.blockNumber = block.number;
        (bool open, Range memory range) = _read(facts, ask);
        if (open) _search(facts, ask, range);
        revert LiquiditySearchFacts(facts);
    }

    /// @notice The reads before the search; `open` when the market trades and the aligned range lies within its bounds.
    function _read(LiquidityFacts memory facts, Ask memory ask) private returns (bool open, Range memory range) {
        (bool searching,,) = _start(facts.base, ask.marketGroup, ask.marketId, 0);
        if (!searching) return (false, range);
        bytes memory market = facts.base.market.data;
        (, uint256 first) = wordAt(market, 0);
        (, uint256 pool) = wordAt(market, first / 32 + POOL_WORD);
        facts.rangeRead = true;
        facts.sqrtPrice = _call(ask.marketGroup, abi.encodeCall(IMarketGroup.getSqrtPriceX96, (ask.marketId)));
        facts.spacing = _call(address(uint160(pool)), abi.encodeWithSignature("tickSpacing()"));
        (bool hasSqrt, uint256 sqrtPrice) = wordAt(facts.sqrtPrice.data, 0);
        (bool hasSpacing, uint256 spacing) = wordAt(facts.spacing.data, 0);
        if (!facts.sqrtPrice.success || !hasSqrt || sqrtPrice == 0 || sqrtPrice >> 160 != 0) return (false, range);
        if (!facts.spacing.success || !hasSpacing || spacing == 0 || spacing > uint256(int256(PoolTicks.MAX_TICK))) return (false, range);
        (, uint256 minWord) = wordAt(market, first / 32 + MIN_TICK_WORD);
        (, uint256 maxWord) = wordAt(market, first / 32 + MAX_TICK_WORD);
        int256 minTick = int256(minWord);
        int256 maxTick = int256(maxWord);
        int256 step = int256(spacing);
        int256 lower = ask.hasLower ? _floorTo(ask.lowerTick, step) : minTick;
        int256 upper = ask.hasUpper ? -_floorTo(-int256(ask.upperTick), step) : maxTick;
        if (lower < minTick || upper > maxTick || lower >= upper) return (false, range);
        range = Range(int24(lower), int24(upper), uint160(sqrtPrice), PoolTicks.sqrtRatioAtTick(int24(lower)), PoolTicks.sqrtRatioAtTick(int24(upper)));
        return (true, range);
    }

    /// @notice The group's quote and its mint, then the candidates while gas lasts.
    function _search(LiquidityFacts memory facts, Ask memory ask, Range memory range) private {
        facts.quoted = true;
        facts.groupQuote = _call(
            ask.marketGroup,
            abi.encodeCall(IMarketGroup.quoteLiquidityPositionTokens, (ask.marketId, ask.collateralAvailable, range.sqrtPrice, range.sqrtLower, range.sqrtUpper))
        );
        uint256 first;
        if (facts.groupQuote.success && facts.groupQuote.data.length >= 96) {
            (uint256 amount0, uint256 amount1, uint256 liquidity) = abi.decode(facts.groupQuote.data, (uint256, uint256, uint256));
            facts.groupMint = _call(ask.marketGroup, _mintCall(ask, range, amount0, amount1));
            first = liquidity;
        }
        facts.candidates = _candidates(ask, range, first, 2048 + 2 * (facts.base.market.data.length + facts.groupQuote.data.length + facts.groupMint.data.length));
    }

    /// @notice The candidates the rule chooses, each recorded while gas lasts to quote it and return the facts; a
    /// candidate that is not a requirement (its read or its mint failed otherwise) ends the search.
    function _candidates(Ask memory ask, Range memory range, uint256 first, uint256 encodedBytes)
        private
        returns (LiquidityCandidate[] memory candidates)
    {
        candidates = new LiquidityCandidate[](MOST_CANDIDATES);
        Rule memory rule = _newRule();
        uint256 count;
        while (count < MOST_CANDIDATES) {
            (bool done, uint256 liquidity) = _nextLiquidity(rule, ask.collateralAvailable, first);
            if (done) break;
            (bool recorded, LiquidityCandidate memory candidate) = _quoteLiquidity(ask, range, liquidity, encodedBytes);
            if (!recorded) break;
            candidates[count++] = candidate;
            encodedBytes += LIQUIDITY_CANDIDATE_BYTES;
            (bool isRequirement, uint256 required) = _requirement(candidate);
            if (!isRequirement) break;
            _learn(rule, liquidity, required, ask.collateralAvailable);
        }
        assembly ("memory-safe") {
            mstore(candidates, count)
        }
    }

    /// @notice One candidate's tokens and mint; not recorded when too little gas is left for it, or its mint may
    /// have been starved.
    function _quoteLiquidity(Ask memory ask, Range memory range, uint256 liquidity, uint256 encodedBytes)
        private
        returns (bool recorded, LiquidityCandidate memory candidate)
    {
        if (_spareGas(encodedBytes + LIQUIDITY_CANDIDATE_BYTES) < MIN_LIQUIDITY_CANDIDATE_GAS) return (false, candidate);
        candidate.liquidity = liquidity;
        candidate.tokens = _call(
            ask.marketGroup,
            abi.encodeCall(IMarketGroup.getTokensFromLiquidity, (uint128(liquidity), range.sqrtPrice, range.sqrtLower, range.sqrtUpper))
        );
        if (!candidate.tokens.success || candidate.tokens.data.length < 64) return (true, candidate);
        (uint256 amount0, uint256 amount1) = abi.decode(candidate.tokens.data, (uint256, uint256));
        uint256 forwarded = _spareGas(encodedBytes + LIQUIDITY_CANDIDATE_BYTES);
        if (forwarded < MIN_CANDIDATE_GAS) return (false, candidate);
        bool success;
        (success, candidate.gasUsed) = _measuredCall(ask.marketGroup, _mintCall(ask, range, amount0, amount1), forwarded);
        if (!success && candidate.gasUsed > forwarded - forwarded / STARVED_FRACTION) return (false, candidate);
        candidate.mint.success = success;
        candidate.mint.data = _returned();
        return (true, candidate);
    }

    /// @notice createLiquidityPosition of these tokens in the range with no collateral, no minimums, no deadline.
    function _mintCall(Ask memory ask, Range memory range, uint256 amount0, uint256 amount1) private pure returns (bytes memory) {
        IMarketGroup.LiquidityMintParams memory params =
            IMarketGroup.LiquidityMintParams(ask.marketId, amount0, amount1, 0, range.lower, range.upper, 0, 0, type(uint256).max);
        return abi.encodeCall(IMarketGroup.createLiquidityPosition, (params));
    }

    /// @notice The requirement a candidate's mint names: InsufficientCollateral's first argument, or 0 for a mint that
    /// needed none; none for any other outcome (the service reads the same).
    function _requirement(LiquidityCandidate memory candidate) private pure returns (bool, uint256 required) {
        if (!candidate.tokens.success || candidate.tokens.data.length < 64) return (false, 0);
        if (candidate.mint.success) return (true, 0);
        bytes memory data = candidate.mint.data;
        if (data.length < 68 || bytes4(data) != IMarketGroup.InsufficientCollateral.selector) return (false, 0);
        assembly ("memory-safe") {
            required := mload(add(data, 36))
        }
        return (true, required);
    }

    /// @notice The last call's return or revert data.
    function _returned() private pure returns (bytes memory returned) {
        uint256 length;
        assembly ("memory-safe") {
            length := returndatasize()
        }
        returned = new bytes(length);
        assembly ("memory-safe") {
            returndatacopy(add(returned, 32), 0, length)
        }
    }

    /// @notice The largest multiple of `step` at or below `tick`.
    function _floorTo(int256 tick, int256 step) private pure returns (int256) {
        int256 rest = tick % step;
        return rest < 0 ? tick - rest - step : tick - rest;
    }
}
