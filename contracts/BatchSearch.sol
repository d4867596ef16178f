// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {BisectionSearch} from "./BisectionSearch.sol";
import {ExactSearch} from "./ExactSearch.sol";

/// @title BatchSearch: many quotes at one block, one after the other, while gas lasts
/// @notice Shared by {BatchQuoteSearcher} (the quotes it is given) and {DepthLadderSearcher} (the levels it plans).
/// Runs each item's quote (a bisection or an exact search, with the same reads and facts as the one-quote
/// searchers) in the order given. An item is started only while gas remains for its reads and a first candidate;
/// the items after it are left for another call. A size already quoted for an item of the same market is not
/// quoted again: its recorded answer is the same at this block. A started item whose search stopped short of its
/// end (gas) is resumed by the one-quote searcher, at the same block, like any other.
abstract contract BatchSearch is BisectionSearch, ExactSearch {
    /// @notice One quote of the batch: `exact` chooses the exact search (then `maxIterations` is its most candidates).
    struct Item {
        address marketGroup;
        uint256 marketId;
        uint256 expectedPrice;
        uint256 collateralAvailable;
        uint256 maxIterations;
        bool exact;
    }

    /// @dev Gas to spare, beyond the reserve, before an item is started: its four reads of honest contracts and
    /// more than a first candidate. A read is given all the gas there is (as in the one-quote searchers).
    uint256 private constant ITEM_START_GAS = 500_000;
    /// @dev Encoded bytes of an item's facts guessed before its reads: the heads and a market's answer of 32 words.
    uint256 private constant ITEM_GUESS_BYTES = 32 * 24 + 32 * 32;
    /// @dev Candidates of one market remembered for the items after it (a depth ladder's levels share their first
    /// candidates): the service sends the items of one market one after the other.
    uint256 private constant MEMO_CAPACITY = 16;

    /// @notice The facts of the items started, in order. `encodedBytes` is the encoded size of the answer before
    /// the facts' offset words (its heads, what precedes the facts, the facts' length word).
    function _searchItems(Item[] memory items, uint256 encodedBytes) internal returns (Facts[] memory all) {
        all = new Facts[](items.length);
        uint256 started;
        Memo memory memo = Memo(address(0), 0, 0, new int256[](MEMO_CAPACITY), new Candidate[](MEMO_CAPACITY));
        for (; started < items.length; started++) {
            if (_spareGas(encodedBytes + 32 + ITEM_GUESS_BYTES) < ITEM_START_GAS) break;
            Item memory item = items[started];
            Facts memory facts = all[started];
            facts.blockNumber = block.number;
            Request memory q = Request(item.marketGroup, item.marketId, item.expectedPrice, item.collateralAvailable, item.maxIterations, 0, 0, 0);
            if (item.exact) {
                ExactResume memory none;
                encodedBytes = _exactQuote(facts, q, false, none, encodedBytes + 32, memo);
            } else {
                BisectionResume memory none;
                encodedBytes = _bisectionQuote(facts, q, false, none, encodedBytes + 32, memo);
            }
        }
        assembly ("memory-safe") {
            mstore(all, started)
        }
    }
}
