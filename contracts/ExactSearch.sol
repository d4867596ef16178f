// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {ExactSearchRule} from "./ExactSearchRule.sol";
import {PriceEdge} from "./PriceEdge.sol";
import {SearcherBase} from "./SearcherBase.sol";

/// @title ExactSearch: the exact search of semantics section 4b, one quote per candidate
/// @notice Shared by {ExactQuoteSearcher} (one quote per call) and {BatchQuoteSearcher} (many). Each candidate is
/// chosen by {ExactSearchRule}, the service's rule word for word, so the service replays exactly the candidates
/// quoted here.
abstract contract ExactSearch is SearcherBase {
    /// @notice Where an exact search resumes: its direction, the price read when it started, the rule's state, and
    /// the price edge (read by the call that started it, or by the service when that call could not afford it).
    struct ExactResume {
        bool isLong;
        uint256 currentPrice;
        ExactSearchRule.State state;
        bool hasEdge;
        uint256 edge;
    }

    /// @dev Encoded bytes of the edge's answer guessed before the call: QuoterV2's four words, or a revert's string.
    uint256 private constant EDGE_DATA_GUESS = 256;

    bytes4 private constant POOL_PRICE_OUT_OF_RANGE = bytes4(keccak256("PoolPriceOutOfRange(uint160,uint160,uint160)"));

    /// @notice One exact quote into `facts`: the reads (unless `resuming`), then the search from `resume` while gas
    /// lasts, `memo` holding the quotes already made in this call. `before` is the encoded size of what precedes
    /// these facts in the answer; returns it with these facts added.
    function _exactQuote(Facts memory facts, Request memory q, bool resuming, ExactResume memory resume, uint256 before, Memo memory memo)
        internal
        returns (uint256 encodedBytes)
    {
        bool searching = resuming;
        if (!resuming) (searching, resume.isLong, resume.currentPrice) = _start(facts, q.marketGroup, q.marketId, q.expectedPrice);
        Search memory s = _newSearch(q, resume.isLong, before + _encodedBytes(facts), memo);
        // A new search reads the price edge first; one that could not afford it leaves it, and its search, to the
        // service (which reads it alone and resumes).
        if (searching && !resuming) searching = _readEdge(facts, s, resume);
        if (searching) facts.candidates = _exactSearch(s, resume);
        return s.encodedBytes;
    }

    /// @notice Asks the market's QuoterV2 for the price edge ({PriceEdge}), when the market names one, with all the
    /// gas that can be spared; false when that gas may have been too little (starved: QuoterV2 turns an inner
    /// out-of-gas into a revert) or too little is left to return its answer.
    function _readEdge(Facts memory facts, Search memory s, ExactResume memory resume) private returns (bool) {
        (bool planned, address quoter, bytes memory data) = PriceEdge.plan(facts.market.data, s.isLong, s.expectedPrice);
        if (!planned) return true;
        uint256 forwarded = _spareGas(s.encodedBytes + EDGE_DATA_GUESS);
        if (forwarded < MIN_CANDIDATE_GAS) return false;
        (bool success, uint256 used) = _measuredCall(quoter, data, forwarded);
        if (!success && used > forwarded - forwarded / STARVED_FRACTION) return false;
        uint256 length;
        assembly ("memory-safe") {
            length := returndatasize()
        }
        if (gasleft() < _reserve(s.encodedBytes + 2 * _padded(length))) return false;
        bytes memory answer = new bytes(length);
        assembly ("memory-safe") {
            returndatacopy(add(answer, 32), 0, length)
        }
        (facts.edgeRead, facts.edge) = (true, Call(success, answer));
        s.encodedBytes += _padded(length);
        (resume.hasEdge, resume.edge) = PriceEdge.edgeOf(success, answer);
        return true;
    }

    /// @notice The exact search from where `resume` stands, one quote per candidate, while gas lasts, each outcome
    /// recorded as the service records it. A revert's PoolPriceOutOfRange bound in the trade's direction tells the
    /// rule where the market's range ends.
    function _exactSearch(Search memory s, ExactResume memory resume) private returns (Candidate[] memory candidates) {
        ExactSearchRule.State memory st = resume.state;
        ExactSearchRule.Input memory input = ExactSearchRule.Input({
            isLong: s.isLong,
            cap: _cap(s.collateralAvailable, resume.currentPrice),
            currentPrice: resume.currentPrice,
            expectedPrice: s.expectedPrice,
            collateralAvailable: s.collateralAvailable,
            hasEdge: resume.hasEdge,
            edge: resume.edge
        });
        candidates = new Candidate[](s.maxIterations > st.quoted ? s.maxIterations - st.quoted : 0);
        uint256 count;
        while (st.quoted < s.maxIterations && !ExactSearchRule.closed(st)) {
            (uint256 size, bool guided) = ExactSearchRule.next(input, st);
            (bool recorded, Candidate memory candidate) = _quote(s, s.isLong ? int256(size) : -int256(size));
            if (!recorded) break;
            _record(s, candidates, count++, candidate);
            if (!candidate.success && _stopsSearch(candidate.data)) break;
            // Only guided quotes count towards the streak: a split starts the estimates afresh.
            if (!guided) st.streak = 0;
            _recordOutcome(s, st, size, candidate);
        }
        _truncate(candidates, count);
    }

    /// @notice Moves the side of the bracket that the candidate of `size` falls on.
    function _recordOutcome(Search memory s, ExactSearchRule.State memory st, uint256 size, Candidate memory candidate)
        private
        pure
    {
        (bool quoted, bool tooLarge, uint256 requiredCollateral, uint256 priceAfter) = _outcome(s, candidate);
        if (!quoted) ExactSearchRule.recordRevert(st, size, candidate.success ? 0 : _rangeEnd(candidate.data, s.isLong));
        else if (tooLarge) ExactSearchRule.recordAbove(st, size, requiredCollateral, priceAfter);
        else ExactSearchRule.recordBelow(st, size, requiredCollateral, priceAfter);
    }

    /// @notice The D18 price where a PoolPriceOutOfRange(poolPrice, minPrice, maxPrice) revert says the range
    /// ends in the trade's direction, when the service can decode it (at least three words); 0 for another revert.
    function _rangeEnd(bytes memory revertData, bool isLong) private pure returns (uint256) {
        if (revertData.length < 4 + 96 || bytes4(revertData) != POOL_PRICE_OUT_OF_RANGE) return 0;
        uint256 bound;
        uint256 offset = isLong ? 68 : 36;
        assembly ("memory-safe") {
            bound := mload(add(add(revertData, 32), offset))
        }
        return ExactSearchRule.rangeEndOf(bound);
    }
}
