// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {BatchSearch} from "./BatchSearch.sol";

/// @title BatchQuoteSearcher: many quotes at one block in as few eth_calls as gas allows
/// @notice Never deployed; run as a deployless call like {QuoteSearcher}. Runs the items as {BatchSearch} does,
/// then reverts with {BatchSearchFacts}: the facts of every item it started, in order.
contract BatchQuoteSearcher is BatchSearch {
    /// @notice How the batch answers, always: the facts of the items started, in the order given.
    error BatchSearchFacts(Facts[] facts);

    /// @param items The quotes, all at this block.
    constructor(Item[] memory items) {
        // The answer's offset and length words come before the facts.
        revert BatchSearchFacts(_searchItems(items, 64));
    }
}
