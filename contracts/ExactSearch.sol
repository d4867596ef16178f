// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {ExactSearchRule} from "./ExactSearchRule.sol";
import {PriceEdge} from "./PriceEdge.sol";
import {SearcherBase} from "./SearcherBase.sol";
import {FEE_WORD, MAX_PRICE_WORD, MIN_PRICE_WORD, POOL_WORD, wordAt} from "./libraries/MarketWords.sol";

/// @title ExactSearch: the exact search of semantics section 4b, one quote per candidate
/// @notice Shared by {ExactQuoteSearcher} (one quote per call) and {BatchQuoteSearcher} (many). Each step is chosen
/// by {ExactSearchRule}, the service's rule function for function, so the service replays exactly the candidates
/// quoted here, and the price edge where the rule asks for it.
abstract contract ExactSearch is SearcherBase {
    /// @notice Where an exact search resumes: its direction, the price read when it started, the market's worst
    /// settlement price for the direction (the loss model's), the pool's fee tier and liquidity in range (the first
    /// guesses'), the rule's state (the price edge's included), and the QuoterV2 call that measures the edge (planned
    /// from the market's answer; no data: none).
    struct ExactResume {
        bool isLong;
        uint256 currentPrice;
        uint256 worstPrice;
        uint256 feeRate;
        uint256 liquidity;
        ExactSearchRule.State state;
        address edgeQuoter;
        bytes edgeData;
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
        if (!resuming) {
            (searching, resume.isLong, resume.currentPrice) = _start(facts, q.marketGroup, q.marketId, q.expectedPrice);
            if (searching) {
                _hold(q, facts.market.data, resume.isLong);
                _plan(facts, q.expectedPrice, resume);
            }
        }
        Search memory s = _newSearch(q, resume.isLong, before + _encodedBytes(facts), memo);
        if (searching) facts.candidates = _exactSearch(facts, s, resume);
        return s.encodedBytes;
    }

    /// @notice What a new search reads of the market's answer (its worst settlement price for the direction, its fee
    /// tier, the price edge's QuoterV2 call ({PriceEdge.plan}; none for a market without one)), and its pool's
    /// liquidity in range, read now (0 where the call fails or answers something else than a uint128).
    function _plan(Facts memory facts, uint256 expectedPrice, ExactResume memory resume) private {
        bytes memory market = facts.market.data;
        (, uint256 first) = wordAt(market, 0);
        first /= 32;
        (, resume.worstPrice) = wordAt(market, first + (resume.isLong ? MIN_PRICE_WORD : MAX_PRICE_WORD));
        (, resume.feeRate) = wordAt(market, FEE_WORD);
        (, uint256 pool) = wordAt(market, first + POOL_WORD);
        facts.liquidityRead = true;
        facts.liquidity = _call(address(uint160(pool)), abi.encodeWithSignature("liquidity()"));
        (bool hasWord, uint256 liquidity) = wordAt(facts.liquidity.data, 0);
        if (facts.liquidity.success && hasWord && liquidity >> 128 == 0) resume.liquidity = liquidity;
        (bool planned, address quoter, bytes memory data) = PriceEdge.plan(market, resume.isLong, expectedPrice);
        if (planned) (resume.edgeQuoter, resume.edgeData) = (quoter, data);
    }

    /// @notice The exact search from where `resume` stands, while gas lasts: the price edge when the rule asks for it,
    /// then one quote per candidate, each outcome recorded as the service records it. A revert's PoolPriceOutOfRange
    /// bound in the trade's direction tells the rule where the market's range ends.
    function _exactSearch(Facts memory facts, Search memory s, ExactResume memory resume) private returns (Candidate[] memory candidates) {
        ExactSearchRule.State memory st = resume.state;
        ExactSearchRule.Input memory input = ExactSearchRule.Input({
            isLong: s.isLong,
            cap: _rangeTop(s.q, resume.currentPrice, s.isLong),
            currentPrice: resume.currentPrice,
            expectedPrice: s.q.expectedPrice,
            collateralAvailable: _budget(s),
            worstPrice: resume.worstPrice,
            feeRate: resume.feeRate,
            liquidity: resume.liquidity,
            edgeFirst: false,
            hasPoolBudget: false,
            poolBudget: 0,
            hasCurrentRoot: false,
            currentRoot: 0
        });
        ExactSearchRule.prepare(input);
        candidates = new Candidate[](s.q.maxIterations > st.quoted ? s.q.maxIterations - st.quoted : 0);
        uint256 count;
        while (st.quoted < s.q.maxIterations && !ExactSearchRule.closed(st)) {
            (bool readEdge, uint256 size, bool guided) = ExactSearchRule.next(input, st);
            if (readEdge) {
                if (!_readEdge(facts, s, st, resume)) break;
                continue;
            }
            (bool recorded, Candidate memory candidate) = _quote(s, s.isLong ? int256(size) : -int256(size));
            if (!recorded) break;
            _record(s, candidates, count++, candidate);
            if (!candidate.success && _stopsSearch(candidate.data)) break;
            _recordOutcome(s, st, guided, size, candidate);
        }
        _truncate(candidates, count);
    }

    /// @notice Asks the market's QuoterV2 for the price edge ({PriceEdge}) with all the gas that can be spared, and
    /// records it (none, without a call, for a market that has no QuoterV2); false when that gas may have been too
    /// little (starved: QuoterV2 turns an inner out-of-gas into a revert) or too little is left to return its answer:
    /// the search then stops here, and the call that resumes it asks again.
    function _readEdge(Facts memory facts, Search memory s, ExactSearchRule.State memory st, ExactResume memory resume)
        private
        returns (bool)
    {
        if (resume.edgeData.length == 0) {
            ExactSearchRule.recordEdge(st, false, 0);
            return true;
        }
        uint256 forwarded = _spareGas(s.encodedBytes + EDGE_DATA_GUESS);
        if (forwarded < MIN_CANDIDATE_GAS) return false;
        (bool success, uint256 used) = _measuredCall(resume.edgeQuoter, resume.edgeData, forwarded);
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
        (bool hasEdge, uint256 edge) = PriceEdge.edgeOf(success, answer);
        ExactSearchRule.recordEdge(st, hasEdge, edge);
        return true;
    }

    /// @notice Moves the side of the bracket that the candidate of `size` falls on.
    function _recordOutcome(Search memory s, ExactSearchRule.State memory st, bool guided, uint256 size, Candidate memory candidate)
        private
        pure
    {
        (bool quoted, bool tooLarge, uint256 requiredCollateral, uint256 priceAfter) = _outcome(s, candidate);
        if (!quoted) {
            ExactSearchRule.recordRevert(st, guided, size, candidate.success ? 0 : _rangeEnd(candidate.data, s.isLong));
            return;
        }
        uint256 fillPrice = _fillPrice(s, candidate.data);
        if (tooLarge) ExactSearchRule.recordAbove(st, guided, size, requiredCollateral, fillPrice, priceAfter);
        else ExactSearchRule.recordBelow(st, guided, size, requiredCollateral, fillPrice, priceAfter);
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
