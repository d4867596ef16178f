// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IMarketGroup} from "./interfaces/IMarketGroup.sol";
import {ExactSearchRule} from "./ExactSearchRule.sol";

/// @title QuoteSearcher: the quoter's search in as few eth_calls as gas allows
/// @notice Never deployed. Run as a deployless call (eth_call with no `to`, creation code and constructor
/// arguments as data): the constructor reads the market and its price and runs the bounded binary search of
/// the quoter's semantics (section 4), or the exact search of section 4b ({ExactSearchRule}), against the market
/// group, then reverts with {SearchFacts}: every call's
/// success flag and return data, so the service decodes and decides exactly as it does when it makes the same
/// calls one by one. Decisions taken here only choose the next call; they read the same words the service
/// decodes.
/// @dev Gas never decides an answer (semantics section 7). The search stops, keeping what it has, while enough
/// gas remains to return its facts; the service then resumes it at the same block from the {Resume} point it
/// has reached. A candidate that reverted after using nearly all the gas it was given may have been starved
/// (a market group that simulates its swap through Uniswap's QuoterV2 turns an inner out-of-gas into an
/// ordinary revert), so it is not recorded: the next call quotes it first, with that call's whole gas.
/// Facts are returned as revert data, not as deployed code, which would cost 200 gas per byte.
/// Nothing here reverts otherwise on a misbehaving market group: every call is low level and every read of
/// return data is bounds-checked. Compiled for an EVM without PUSH0 or MCOPY, so that any chain runs it.
contract QuoteSearcher {
    /// @notice One call to the market group: whether it succeeded, and its return or revert data.
    struct Call {
        bool success;
        bytes data;
    }

    /// @notice One candidate of the search: the signed size quoted, the call's outcome, and the gas it used.
    struct Candidate {
        int256 size;
        bool success;
        bytes data;
        uint256 gasUsed;
    }

    /// @notice Where a search resumes: its direction, the bisection's bounds, and the candidates quoted so far.
    struct Resume {
        bool isLong;
        uint256 low;
        uint256 high;
        uint256 iteration;
    }

    /// @notice Where an exact search resumes: the price read when it started, and the rule's state.
    struct ExactResume {
        uint256 currentPrice;
        ExactSearchRule.State state;
    }

    /// @notice Everything the service needs to answer, or to choose its error.
    /// @dev `priceRead` is false when the market check stopped the quote; `collateralRead` (the group's
    /// `getMarketGroup`) is true when a search follows; `decimalsRead` when that answer names a collateral token
    /// (semantics section 10). `candidates` is empty when no search ran, or when gas ran short before the first
    /// candidate of this call could be recorded.
    struct Facts {
        uint256 blockNumber;
        Call market;
        bool priceRead;
        Call price;
        bool collateralRead;
        Call collateralGroup;
        bool decimalsRead;
        Call collateralDecimals;
        Candidate[] candidates;
    }

    /// @notice How the searcher answers, always: it never returns normally.
    error SearchFacts(Facts facts);

    uint256 private constant D18 = 1e18;
    /// @dev The largest size a quote takes (int256 max), the cap of the search range.
    uint256 private constant MAX_SIZE = uint256(type(int256).max);
    /// @dev Head words of `getMarket`'s return: one offset for the dynamic MarketData, then 8 words of
    /// MarketParams. MarketData's head holds 15 words; `settled` is its 11th (index 10). The build checks both
    /// against IMarketGroup's ABI (scripts/build-contracts.ts), since the searcher cannot take them from abi.decode.
    uint256 private constant MARKET_DATA_HEAD_WORDS = 15;
    uint256 private constant SETTLED_WORD = 10;
    /// @dev A successful quote returns three words.
    uint256 private constant QUOTE_RETURN_LENGTH = 96;

    /// @dev Gas kept back to encode and return the facts: a fixed part, a part per word of encoded facts, and
    /// the memory expansion of the encoded copy. Generous on purpose: too little would lose every fact.
    uint256 private constant RESERVE_FIXED = 40_000;
    uint256 private constant RESERVE_PER_WORD = 120;
    /// @dev Encoded bytes of one candidate besides its data: size, success, offset, gasUsed, length, and its
    /// offset in the array.
    uint256 private constant CANDIDATE_HEAD_BYTES = 192;
    /// @dev Return data expected of a candidate before it is known: a quote's three words, or a short revert.
    uint256 private constant CANDIDATE_DATA_GUESS = 256;
    /// @dev No candidate is tried with less gas than this: it could not be told from a starved one.
    uint256 private constant MIN_CANDIDATE_GAS = 60_000;
    /// @dev A reverted candidate that left less than 1/STARVED_FRACTION of its gas unused may have been
    /// starved. Each level of nested calls keeps 1/64 of the gas it forwards, so a caught out-of-gas a few
    /// levels down leaves a few 64ths; a real revert (no liquidity, a bound) uses far less than it is given.
    uint256 private constant STARVED_FRACTION = 4;

    /// @dev Error selectors that stop the search at once (semantics sections 4 and 9). `EpochSettled()` is the
    /// Sapience name of a settled market in the epoch era.
    bytes4 private constant MARKET_SETTLED = bytes4(keccak256("MarketSettled()"));
    bytes4 private constant EPOCH_SETTLED = bytes4(keccak256("EpochSettled()"));
    bytes4 private constant INVALID_MARKET = bytes4(keccak256("InvalidMarket()"));
    bytes4 private constant EXPIRED_MARKET = bytes4(keccak256("ExpiredMarket()"));
    bytes4 private constant EXPIRED_MARKET_NOT_SETTLED = bytes4(keccak256("ExpiredMarketNotSettled(uint256)"));
    bytes4 private constant MARKET_NOT_STARTED = bytes4(keccak256("MarketNotStarted()"));
    bytes4 private constant POOL_PRICE_OUT_OF_RANGE = bytes4(keccak256("PoolPriceOutOfRange(uint160,uint160,uint160)"));

    /// @param marketGroup The market group contract.
    /// @param marketId The market within the group.
    /// @param expectedPrice Target price after the trade, D18, > 0.
    /// @param collateralAvailable Budget, wei.
    /// @param maxIterations At most this many candidates in the whole search, resumed calls included.
    /// @param resuming False for a new quote (reads the market and the price, then searches from the start);
    /// true to continue a search from `resume` (the bisection) or `exactResume` without reading again.
    /// @param resume The direction, and for the bisection the point to continue from, when `resuming`.
    /// @param exact Whether to run the exact search (section 4b) rather than the bisection.
    /// @param exactResume The exact search's point to continue from, when `resuming`.
    constructor(
        address marketGroup,
        uint256 marketId,
        uint256 expectedPrice,
        uint256 collateralAvailable,
        uint256 maxIterations,
        bool resuming,
        Resume memory resume,
        bool exact,
        ExactResume memory exactResume
    ) {
        Facts memory facts;
        facts.blockNumber = block.number;
        bool searching = resuming;
        if (!resuming) {
            (searching, resume.isLong, exactResume.currentPrice) = _start(facts, marketGroup, marketId, expectedPrice);
            resume.high = searching ? _cap(collateralAvailable, exactResume.currentPrice) : 0;
        }
        Search memory s = Search({
            marketGroup: marketGroup,
            marketId: marketId,
            expectedPrice: expectedPrice,
            collateralAvailable: collateralAvailable,
            maxIterations: maxIterations,
            isLong: resume.isLong,
            low: resume.low,
            high: resume.high,
            iteration: resume.iteration,
            encodedBytes: _encodedBytes(facts)
        });
        if (searching && exact) {
            facts.candidates = _exactSearch(s, exactResume);
        } else if (searching && resume.high != 0) {
            facts.candidates = _search(s);
        }
        revert SearchFacts(facts);
    }

    /// @notice The reads of a new quote (market, then price): whether a search follows, its direction, the price.
    function _start(
        Facts memory facts,
        address marketGroup,
        uint256 marketId,
        uint256 expectedPrice
    ) private returns (bool searching, bool isLong, uint256 price) {
        facts.market = _call(marketGroup, abi.encodeCall(IMarketGroup.getMarket, (marketId)));
        if (!_marketIsOpen(facts.market, marketId)) return (false, false, 0);
        facts.priceRead = true;
        facts.price = _call(marketGroup, abi.encodeCall(IMarketGroup.getReferencePrice, (marketId)));
        bool hasPrice;
        (hasPrice, price) = _readWord(facts.price.data, 0);
        if (!facts.price.success || !hasPrice || price == 0 || price == expectedPrice) return (false, false, 0);
        _readCollateral(facts, marketGroup);
        return (true, expectedPrice > price, price);
    }

    /// @notice What one call of the search works with: the request, and the bisection's state from `Resume`.
    struct Search {
        address marketGroup;
        uint256 marketId;
        uint256 expectedPrice;
        uint256 collateralAvailable;
        uint256 maxIterations;
        bool isLong;
        uint256 low;
        uint256 high;
        uint256 iteration;
        /// @dev Encoded size of the facts so far, for the gas kept back to return them.
        uint256 encodedBytes;
    }

    /// @notice The group's collateral token and its decimals (semantics section 10): the token is the second word
    /// of a successful `getMarketGroup` answer, as the service reads it.
    function _readCollateral(Facts memory facts, address marketGroup) private {
        facts.collateralRead = true;
        facts.collateralGroup = _call(marketGroup, abi.encodeWithSignature("getMarketGroup()"));
        (bool hasAsset, uint256 asset) = _readWord(facts.collateralGroup.data, 1);
        if (!facts.collateralGroup.success || !hasAsset) return;
        facts.decimalsRead = true;
        facts.collateralDecimals = _call(address(uint160(asset)), abi.encodeWithSignature("decimals()"));
    }

    /// @notice The bisection of semantics section 4 from where `s` stands, one quote per candidate, while gas
    /// lasts.
    /// @dev Classification order: reverted, over budget, beyond expectedPrice, then short of priceLimit or
    /// feasible. Those last two raise the low bound; every other outcome lowers the high bound. Only the bounds
    /// matter here: the service classifies each candidate again from the returned data. So priceLimit, which
    /// only tells a feasible candidate from one short of it, is not needed on chain.
    function _search(Search memory s) private returns (Candidate[] memory candidates) {
        candidates = new Candidate[](s.maxIterations > s.iteration ? s.maxIterations - s.iteration : 0);
        uint256 count;
        for (; s.iteration < s.maxIterations && s.high - s.low > 1; s.iteration++) {
            uint256 mid = (s.low + s.high) / 2;
            (bool recorded, Candidate memory candidate) = _quote(s, s.isLong ? int256(mid) : -int256(mid));
            if (!recorded) break;
            candidates[count++] = candidate;
            s.encodedBytes += CANDIDATE_HEAD_BYTES + _padded(candidate.data.length);

            if (!candidate.success || candidate.data.length < QUOTE_RETURN_LENGTH) {
                if (!candidate.success && _stopsSearch(candidate.data)) break;
                s.high = mid;
                continue;
            }
            (uint256 requiredCollateral,, uint256 priceAfter) = abi.decode(candidate.data, (uint256, uint256, uint256));
            if (requiredCollateral > s.collateralAvailable) {
                s.high = mid;
            } else if (s.isLong ? priceAfter > s.expectedPrice : priceAfter < s.expectedPrice) {
                s.high = mid;
            } else {
                // Feasible, or too small to pass priceLimit: either way a larger size is worth trying.
                s.low = mid;
            }
        }
        assembly ("memory-safe") {
            mstore(candidates, count)
        }
    }

    /// @notice The exact search of section 4b from where `resume` stands, one quote per candidate, while gas
    /// lasts: each candidate chosen by {ExactSearchRule.next}, each outcome recorded as the service records it.
    /// @dev The same classification as {_search}; a revert's PoolPriceOutOfRange bound in the trade's direction
    /// (when the service can decode it: at least three words) tells the rule where the market's range ends.
    function _exactSearch(Search memory s, ExactResume memory resume) private returns (Candidate[] memory candidates) {
        ExactSearchRule.State memory st = resume.state;
        ExactSearchRule.Input memory input = ExactSearchRule.Input({
            isLong: s.isLong,
            cap: _cap(s.collateralAvailable, resume.currentPrice),
            currentPrice: resume.currentPrice,
            expectedPrice: s.expectedPrice,
            collateralAvailable: s.collateralAvailable
        });
        candidates = new Candidate[](s.maxIterations > st.quoted ? s.maxIterations - st.quoted : 0);
        uint256 count;
        while (st.quoted < s.maxIterations && !ExactSearchRule.closed(st)) {
            (uint256 size, bool guided) = ExactSearchRule.next(input, st);
            (bool recorded, Candidate memory candidate) = _quote(s, s.isLong ? int256(size) : -int256(size));
            if (!recorded) break;
            candidates[count++] = candidate;
            s.encodedBytes += CANDIDATE_HEAD_BYTES + _padded(candidate.data.length);
            // Only guided quotes count towards the streak: a split starts the estimates afresh.
            if (!guided) st.streak = 0;

            if (!candidate.success || candidate.data.length < QUOTE_RETURN_LENGTH) {
                if (!candidate.success && _stopsSearch(candidate.data)) break;
                ExactSearchRule.recordRevert(st, size, candidate.success ? 0 : _rangeEnd(candidate.data, s.isLong));
                continue;
            }
            (uint256 requiredCollateral,, uint256 priceAfter) = abi.decode(candidate.data, (uint256, uint256, uint256));
            if (requiredCollateral > s.collateralAvailable || (s.isLong ? priceAfter > s.expectedPrice : priceAfter < s.expectedPrice)) {
                ExactSearchRule.recordAbove(st, size, requiredCollateral, priceAfter);
            } else {
                ExactSearchRule.recordBelow(st, size, requiredCollateral, priceAfter);
            }
        }
        assembly ("memory-safe") {
            mstore(candidates, count)
        }
    }

    /// @notice The D18 price where a PoolPriceOutOfRange(poolPrice, minPrice, maxPrice) revert says the range
    /// ends in the trade's direction; 0 for another revert.
    function _rangeEnd(bytes memory revertData, bool isLong) private pure returns (uint256) {
        if (revertData.length < 4 + 96 || bytes4(revertData) != POOL_PRICE_OUT_OF_RANGE) return 0;
        uint256 bound;
        uint256 offset = isLong ? 68 : 36;
        assembly ("memory-safe") {
            bound := mload(add(add(revertData, 32), offset))
        }
        return ExactSearchRule.rangeEndOf(bound);
    }

    /// @notice Quotes one candidate with all the gas that can be spared; not recorded when that gas may have
    /// been too little (starved), or when too little is left to return its data with the other facts.
    function _quote(Search memory s, int256 size) private returns (bool recorded, Candidate memory candidate) {
        uint256 forwarded = _spareGas(s.encodedBytes + CANDIDATE_HEAD_BYTES + CANDIDATE_DATA_GUESS);
        if (forwarded < MIN_CANDIDATE_GAS) return (false, candidate);
        (bool success, uint256 used) =
            _measuredCall(s.marketGroup, abi.encodeCall(IMarketGroup.quoteCreateTraderPosition, (s.marketId, size)), forwarded);
        if (!success && used > forwarded - forwarded / STARVED_FRACTION) return (false, candidate);
        uint256 length;
        assembly ("memory-safe") {
            length := returndatasize()
        }
        if (gasleft() < _reserve(s.encodedBytes + CANDIDATE_HEAD_BYTES + 2 * _padded(length))) return (false, candidate);
        bytes memory returned = new bytes(length);
        assembly ("memory-safe") {
            returndatacopy(add(returned, 32), 0, length)
        }
        return (true, Candidate(size, success, returned, used));
    }

    /// @notice Gas a call can be given while `factsBytes` of facts can still be returned afterwards.
    /// @dev Kept below 63/64 of what is left, so the call receives exactly this (the 63/64 rule would cut it).
    function _spareGas(uint256 factsBytes) private view returns (uint256) {
        uint256 reserve = _reserve(factsBytes);
        uint256 available = gasleft();
        uint256 spare = available - available / 64;
        return spare > reserve ? spare - reserve : 0;
    }

    /// @notice A call with exactly `gas` gas, its return data left unread; the gas it used, call cost included.
    function _measuredCall(address target, bytes memory data, uint256 gas_) private returns (bool success, uint256 used) {
        uint256 before = gasleft();
        assembly ("memory-safe") {
            success := call(gas_, target, 0, add(data, 32), mload(data), 0, 0)
        }
        used = before - gasleft();
    }

    /// @notice Gas to keep for encoding `factsBytes` of facts and reverting with them.
    /// @dev Memory expansion is quadratic: the encoded copy lands above everything in memory now.
    function _reserve(uint256 factsBytes) private pure returns (uint256) {
        uint256 words = factsBytes / 32 + 1;
        uint256 memoryWords;
        assembly ("memory-safe") {
            memoryWords := div(add(mload(0x40), 31), 32)
        }
        uint256 end = memoryWords + words;
        return RESERVE_FIXED + words * RESERVE_PER_WORD + (end * end - memoryWords * memoryWords) / 512;
    }

    /// @notice Encoded size of the facts read so far, before any candidate.
    function _encodedBytes(Facts memory facts) private pure returns (uint256) {
        return 32 * 24 + _padded(facts.market.data.length) + _padded(facts.price.data.length)
            + _padded(facts.collateralGroup.data.length) + _padded(facts.collateralDecimals.data.length);
    }

    function _padded(uint256 length) private pure returns (uint256) {
        return (length + 31) / 32 * 32;
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

    /// @notice Whether a revert names a market that cannot be quoted at any size (decodable as the service
    /// decodes it: an error with an argument must carry it).
    function _stopsSearch(bytes memory revertData) private pure returns (bool) {
        if (revertData.length < 4) return false;
        bytes4 selector = bytes4(revertData);
        return selector == MARKET_SETTLED || selector == EPOCH_SETTLED || selector == INVALID_MARKET
            || selector == EXPIRED_MARKET || selector == MARKET_NOT_STARTED
            || (selector == EXPIRED_MARKET_NOT_SETTLED && revertData.length >= 36);
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
