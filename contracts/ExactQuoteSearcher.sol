// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {ExactSearch} from "./ExactSearch.sol";

/// @title ExactQuoteSearcher: the quoter's exact search (semantics section 4b) in as few eth_calls as gas allows
/// @notice Never deployed; run as a deployless call like {QuoteSearcher}, with the same reads and the same facts.
contract ExactQuoteSearcher is ExactSearch {
    /// @param marketGroup The market group contract.
    /// @param marketId The market within the group.
    /// @param expectedPrice Target price after the trade, D18, > 0.
    /// @param collateralAvailable Budget, wei.
    /// @param maxCandidates At most this many candidates in the whole search, resumed calls included.
    /// @param resuming False for a new quote (reads the market and the price, then searches from the start);
    /// true to continue a search from `resume` without reading again.
    /// @param resume The point to continue from when `resuming`.
    constructor(
        address marketGroup,
        uint256 marketId,
        uint256 expectedPrice,
        uint256 collateralAvailable,
        uint256 maxCandidates,
        bool resuming,
        ExactResume memory resume
    ) {
        Facts memory facts;
        Memo memory none;
        facts.blockNumber = block.number;
        _exactQuote(facts, Request(marketGroup, marketId, expectedPrice, collateralAvailable, maxCandidates, 0, 0, 0), resuming, resume, 0, none);
        revert SearchFacts(facts);
    }
}
