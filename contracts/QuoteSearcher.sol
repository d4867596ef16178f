// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {SearcherBase} from "./SearcherBase.sol";

/// @title QuoteSearcher: the quoter's bisection in as few eth_calls as gas allows
/// @notice Never deployed. Run as a deployless call (eth_call with no `to`, creation code and constructor
/// arguments as data): the constructor reads the market and its price and runs the bounded binary search of
/// the quoter's semantics (section 4) against the market group, then reverts with {SearchFacts}: every call's
/// success flag and return data, so the service decodes and decides exactly as it does when it makes the same
/// calls one by one. Decisions taken here only choose the next call; they read the same words the service
/// decodes.
contract QuoteSearcher is SearcherBase {
    /// @notice Where a search resumes: its direction, the bisection's bounds, and the candidates quoted so far.
    struct Resume {
        bool isLong;
        uint256 low;
        uint256 high;
        uint256 iteration;
    }

    /// @param marketGroup The market group contract.
    /// @param marketId The market within the group.
    /// @param expectedPrice Target price after the trade, D18, > 0.
    /// @param collateralAvailable Budget, wei.
    /// @param maxIterations At most this many candidates in the whole search, resumed calls included.
    /// @param resuming False for a new quote (reads the market and the price, then searches from [0, cap]);
    /// true to continue a search from `resume` without reading again.
    /// @param resume The point to continue from when `resuming`.
    constructor(
        address marketGroup,
        uint256 marketId,
        uint256 expectedPrice,
        uint256 collateralAvailable,
        uint256 maxIterations,
        bool resuming,
        Resume memory resume
    ) {
        Facts memory facts;
        facts.blockNumber = block.number;
        if (!resuming) {
            (bool searching, bool isLong, uint256 price) = _start(facts, marketGroup, marketId, expectedPrice);
            resume = Resume(isLong, 0, searching ? _cap(collateralAvailable, price) : 0, 0);
        }
        if (resume.high != 0) {
            Search memory s =
                Search(marketGroup, marketId, expectedPrice, collateralAvailable, maxIterations, resume.isLong, _encodedBytes(facts));
            facts.candidates = _search(s, resume);
        }
        revert SearchFacts(facts);
    }

    /// @notice The bisection of semantics section 4 from where `r` stands, one quote per candidate, while gas
    /// lasts. Short of priceLimit or feasible raise the low bound; every other outcome lowers the high bound.
    function _search(Search memory s, Resume memory r) private returns (Candidate[] memory candidates) {
        candidates = new Candidate[](s.maxIterations > r.iteration ? s.maxIterations - r.iteration : 0);
        uint256 count;
        for (; r.iteration < s.maxIterations && r.high - r.low > 1; r.iteration++) {
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
