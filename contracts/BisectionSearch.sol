// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {SearcherBase} from "./SearcherBase.sol";

/// @title BisectionSearch: the bounded binary search of semantics section 4, one quote per candidate
/// @notice Shared by {QuoteSearcher} (one quote per call) and {BatchQuoteSearcher} (many).
abstract contract BisectionSearch is SearcherBase {
    /// @notice Where a search resumes: its direction, the bisection's bounds, and the candidates quoted so far.
    struct BisectionResume {
        bool isLong;
        uint256 low;
        uint256 high;
        uint256 iteration;
    }

    /// @notice One bisection quote into `facts`: the reads (unless `resuming`), then the search from `resume`
    /// while gas lasts, `memo` holding the quotes already made in this call. `before` is the encoded size of what
    /// precedes these facts in the answer; returns it with these facts added.
    function _bisectionQuote(Facts memory facts, Request memory q, bool resuming, BisectionResume memory resume, uint256 before, Memo memory memo)
        internal
        returns (uint256 encodedBytes)
    {
        if (!resuming) {
            (bool searching, bool isLong, uint256 price) = _start(facts, q.marketGroup, q.marketId, q.expectedPrice);
            if (searching) _hold(q, facts.market.data, isLong);
            resume = BisectionResume(isLong, 0, searching ? _rangeTop(q, price, isLong) : 0, 0);
        }
        Search memory s = _newSearch(q, resume.isLong, before + _encodedBytes(facts), memo);
        if (resume.high != 0) facts.candidates = _bisect(s, resume);
        return s.encodedBytes;
    }

    /// @notice The bisection of semantics section 4 from where `r` stands, one quote per candidate, while gas
    /// lasts. Short of priceLimit or feasible raise the low bound; every other outcome lowers the high bound.
    function _bisect(Search memory s, BisectionResume memory r) private returns (Candidate[] memory candidates) {
        candidates = new Candidate[](s.q.maxIterations > r.iteration ? s.q.maxIterations - r.iteration : 0);
        uint256 count;
        for (; r.iteration < s.q.maxIterations && r.high - r.low > 1; r.iteration++) {
            uint256 mid = (r.low + r.high) / 2;
            (bool recorded, Candidate memory candidate) = _quote(s, s.isLong ? int256(mid) : -int256(mid));
            if (!recorded) break;
            _record(s, candidates, count++, candidate);
            if (!candidate.success && _stopsSearch(candidate.data)) break;
            (, bool tooLarge,,) = _outcome(s, candidate);
            if (tooLarge) r.high = mid;
            else r.low = mid;
        }
        _truncate(candidates, count);
    }
}
