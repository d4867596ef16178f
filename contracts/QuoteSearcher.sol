// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {BisectionSearch} from "./BisectionSearch.sol";

/// @title QuoteSearcher: the quoter's bisection in as few eth_calls as gas allows
/// @notice Never deployed. Run as a deployless call (eth_call with no `to`, creation code and constructor
/// arguments as data): the constructor reads the market and its price and runs the bounded binary search of
/// the quoter's semantics (section 4) against the market group, then reverts with {SearchFacts}: every call's
/// success flag and return data, so the service decodes and decides exactly as it does when it makes the same
/// calls one by one. Decisions taken here only choose the next call; they read the same words the service
/// decodes.
contract QuoteSearcher is BisectionSearch {
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
        BisectionResume memory resume
    ) {
        Facts memory facts;
        Memo memory none;
        facts.blockNumber = block.number;
        _bisectionQuote(facts, Request(marketGroup, marketId, expectedPrice, collateralAvailable, maxIterations, 0, 0, 0), resuming, resume, 0, none);
        revert SearchFacts(facts);
    }
}
