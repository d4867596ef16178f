// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {BatchSearch} from "./BatchSearch.sol";
import {DepthLadderRule} from "./DepthLadderRule.sol";
import {IMarketGroup} from "./interfaces/IMarketGroup.sol";

/// @title DepthLadderSearcher: a depth ladder spaced from the market's price, planned and searched in one eth_call
/// @notice Never deployed; run as a deployless call like {BatchQuoteSearcher}. Reads the market's reference price
/// at this block, plans the levels' prices from it by {DepthLadderRule} (the service's rule), then searches them as
/// {BatchSearch} does and reverts with {LadderFacts}. The service plans the same prices from the same price read and
/// uses the facts only where both plans agree; the levels left for lack of gas go in a batch's next call.
contract DepthLadderSearcher is BatchSearch {
    /// @notice How the ladder answers, always: the block, the price read, the prices planned from it, and the facts
    /// of the levels started, in the order of the prices.
    error LadderFacts(uint256 blockNumber, Call price, uint256[] prices, Facts[] facts);

    /// @param farthest The farthest level's quote (its expectedPrice is `to`); every level is this quote at its price.
    /// @param levels How many levels are spaced from the price to `to`.
    constructor(Item memory farthest, uint256 levels) {
        Call memory price = _call(farthest.marketGroup, abi.encodeCall(IMarketGroup.getReferencePrice, (farthest.marketId)));
        (bool hasPrice, uint256 current) = _priceOf(price);
        uint256[] memory prices = DepthLadderRule.prices(hasPrice, current, farthest.expectedPrice, levels);
        Item[] memory items = new Item[](prices.length);
        for (uint256 i; i < prices.length; i++) {
            items[i] = Item(farthest.marketGroup, farthest.marketId, prices[i], farthest.collateralAvailable, farthest.maxIterations, farthest.exact);
        }
        // Before the facts' offset words: four head words, the price's call (flag, offset, length, data), the prices
        // (length, words) and the facts' length word.
        uint256 encodedBytes = 32 * 4 + 32 * 3 + _padded(price.data.length) + 32 * (1 + prices.length) + 32;
        revert LadderFacts(block.number, price, prices, _searchItems(items, encodedBytes));
    }
}
