// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IMarketGroup} from "./interfaces/IMarketGroup.sol";

/// @title QuoteSearcher: the quoter's whole search in one eth_call
/// @notice Never deployed. Run as a deployless call (eth_call with no `to`, creation code and constructor
/// arguments as data): the constructor reads the market and its price and runs the bounded binary search of
/// the quoter's semantics (section 4) against the market group, then returns the raw facts as its "runtime
/// code". The facts are every call's success flag and return data, so the service decodes and decides exactly
/// as it does when it makes the same calls one by one. Decisions taken here only choose the next call and
/// save gas; they read the same words the service decodes.
/// @dev The returned bytes are `abi.encode(Facts)`. Nothing here reverts on a misbehaving market group:
/// every call is low level and every read of return data is bounds-checked.
contract QuoteSearcher {
    /// @notice One call to the market group: whether it succeeded, and its return or revert data.
    struct Call {
        bool success;
        bytes data;
    }

    /// @notice One candidate of the search: the signed size quoted and the call's outcome.
    struct Candidate {
        int256 size;
        bool success;
        bytes data;
    }

    /// @notice Everything the service needs to answer, or to choose its error.
    /// @dev `priceRead` is false when the market check stopped the quote; `candidates` is empty when no
    /// search ran (no usable market or price, or expectedPrice equal to the price).
    struct Facts {
        uint256 blockNumber;
        Call market;
        bool priceRead;
        Call price;
        Candidate[] candidates;
    }

    uint256 private constant D18 = 1e18;
    /// @dev The largest size a quote takes (int256 max), the cap of the search range.
    uint256 private constant MAX_SIZE = uint256(type(int256).max);
    /// @dev Head words of `getMarket`'s return: one offset for the dynamic MarketData, then 8 words of
    /// MarketParams. MarketData's head holds 15 words; `settled` is its 11th (index 10).
    uint256 private constant MARKET_DATA_HEAD_WORDS = 15;
    uint256 private constant SETTLED_WORD = 10;
    /// @dev A successful quote returns three words.
    uint256 private constant QUOTE_RETURN_LENGTH = 96;

    /// @dev Error selectors that stop the search at once (semantics section 4). `EpochSettled()` is the
    /// Sapience name of a settled market in the epoch era.
    bytes4 private constant MARKET_SETTLED = bytes4(keccak256("MarketSettled()"));
    bytes4 private constant EPOCH_SETTLED = bytes4(keccak256("EpochSettled()"));
    bytes4 private constant INVALID_MARKET = bytes4(keccak256("InvalidMarket()"));
    bytes4 private constant EXPIRED_MARKET = bytes4(keccak256("ExpiredMarket()"));
    bytes4 private constant MARKET_NOT_STARTED = bytes4(keccak256("MarketNotStarted()"));

    /// @param marketGroup The market group contract.
    /// @param marketId The market within the group.
    /// @param expectedPrice Target price after the trade, D18, > 0.
    /// @param collateralAvailable Budget, wei.
    /// @param maxIterations At most this many candidates (1 to 10).
    constructor(
        address marketGroup,
        uint256 marketId,
        uint256 expectedPrice,
        uint256 collateralAvailable,
        uint256 maxIterations
    ) {
        Facts memory facts;
        facts.blockNumber = block.number;
        facts.market = _call(marketGroup, abi.encodeCall(IMarketGroup.getMarket, (marketId)));
        if (_marketIsOpen(facts.market, marketId)) {
            facts.priceRead = true;
            facts.price = _call(marketGroup, abi.encodeCall(IMarketGroup.getReferencePrice, (marketId)));
            (bool hasPrice, uint256 price) = _readWord(facts.price.data, 0);
            if (facts.price.success && hasPrice && price != 0 && price != expectedPrice) {
                facts.candidates = _search(
                    marketGroup,
                    marketId,
                    expectedPrice > price,
                    _cap(collateralAvailable, price),
                    expectedPrice,
                    collateralAvailable,
                    maxIterations
                );
            }
        }
        bytes memory encoded = abi.encode(facts);
        assembly ("memory-safe") {
            return(add(encoded, 32), mload(encoded))
        }
    }

    /// @notice The bisection of semantics section 4 over [0, cap], one quote per candidate.
    /// @dev Classification order: reverted, over budget, beyond expectedPrice, then short of priceLimit or
    /// feasible. Those last two raise the low bound; every other outcome lowers the high bound. Only the bounds
    /// matter here: the service classifies each candidate again from the returned data. So priceLimit, which
    /// only tells a feasible candidate from one short of it, is not needed on chain.
    function _search(
        address marketGroup,
        uint256 marketId,
        bool isLong,
        uint256 cap,
        uint256 expectedPrice,
        uint256 collateralAvailable,
        uint256 maxIterations
    ) private returns (Candidate[] memory candidates) {
        candidates = new Candidate[](maxIterations);
        uint256 count;
        uint256 low;
        uint256 high = cap;
        while (count < maxIterations && high - low > 1) {
            uint256 mid = (low + high) / 2;
            int256 size = isLong ? int256(mid) : -int256(mid);
            Call memory quote = _call(marketGroup, abi.encodeCall(IMarketGroup.quoteCreateTraderPosition, (marketId, size)));
            candidates[count++] = Candidate(size, quote.success, quote.data);

            if (!quote.success || quote.data.length < QUOTE_RETURN_LENGTH) {
                if (!quote.success && _stopsSearch(quote.data)) break;
                high = mid;
                continue;
            }
            (uint256 requiredCollateral,, uint256 priceAfter) = abi.decode(quote.data, (uint256, uint256, uint256));
            if (requiredCollateral > collateralAvailable) {
                high = mid;
            } else if (isLong ? priceAfter > expectedPrice : priceAfter < expectedPrice) {
                high = mid;
            } else {
                // Feasible, or too small to pass priceLimit: either way a larger size is worth trying.
                low = mid;
            }
        }
        assembly ("memory-safe") {
            mstore(candidates, count)
        }
    }

    /// @notice collateral * 1e18 / price, rounded down, capped at int256 max (semantics section 4).
    /// @dev The product is taken at 512 bits: when its high word reaches `price`, the quotient needs more than
    /// 256 bits and is above the cap anyway.
    function _cap(uint256 collateralAvailable, uint256 price) private pure returns (uint256) {
        (uint256 high,) = Math.mul512(collateralAvailable, D18);
        if (high >= price) return MAX_SIZE;
        return Math.min(Math.mulDiv(collateralAvailable, D18, price), MAX_SIZE);
    }

    /// @notice Whether a `getMarket` answer shows a created, unsettled market with the id asked for: the same
    /// words the service decodes (marketId, startTime, settled). Any malformed answer stops the quote.
    function _marketIsOpen(Call memory market, uint256 marketId) private pure returns (bool) {
        if (!market.success) return false;
        (bool hasOffset, uint256 offset) = _readWord(market.data, 0);
        if (!hasOffset || offset % 32 != 0 || offset > market.data.length) return false;
        uint256 first = offset / 32;
        if (market.data.length < (first + MARKET_DATA_HEAD_WORDS) * 32) return false;
        (, uint256 id) = _readWord(market.data, first);
        (, uint256 startTime) = _readWord(market.data, first + 1);
        (, uint256 settled) = _readWord(market.data, first + SETTLED_WORD);
        return id == marketId && startTime != 0 && settled == 0;
    }

    /// @notice Whether a revert names a market that cannot be quoted at any size.
    function _stopsSearch(bytes memory revertData) private pure returns (bool) {
        if (revertData.length < 4) return false;
        bytes4 selector = bytes4(revertData);
        return selector == MARKET_SETTLED || selector == EPOCH_SETTLED || selector == INVALID_MARKET
            || selector == EXPIRED_MARKET || selector == MARKET_NOT_STARTED;
    }

    /// @notice Word `index` of `data`, if `data` holds it.
    function _readWord(bytes memory data, uint256 index) private pure returns (bool, uint256 word) {
        if (data.length < (index + 1) * 32) return (false, 0);
        assembly ("memory-safe") {
            word := mload(add(add(data, 32), mul(index, 32)))
        }
        return (true, word);
    }

    /// @notice A low-level call that never reverts here, keeping the whole return or revert data.
    /// @dev A CALL, like the service's eth_call of a non-view function: the market group's own simulation
    /// (which reverts internally, Uniswap-quoter style) is free to write state within it.
    function _call(address target, bytes memory data) private returns (Call memory result) {
        (result.success, result.data) = target.call(data);
    }
}
