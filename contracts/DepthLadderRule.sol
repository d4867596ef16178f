// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title DepthLadderRule: the prices of a depth ladder spaced from the market's price to `to`
/// @notice The same integer rule as the service's `ladderPrices` (src/quote/depthRequest.ts), so that
/// {DepthLadderSearcher} searches exactly the levels the service then answers.
library DepthLadderRule {
    /// @notice The prices of `levels` levels from `current` (excluded) to `to` (included): `to` alone when the market
    /// has no price (its quote there says why), none when `current` is `to`, else level i of n at
    /// current + (to - current) * i / n, the division rounded toward `current` (down above it, up below it), so the
    /// last level is `to` exactly and none passes it.
    /// @dev The product is taken at 512 bits (mulDiv): both prices may be any uint256.
    function prices(bool hasPrice, uint256 current, uint256 to, uint256 levels) internal pure returns (uint256[] memory planned) {
        if (!hasPrice) {
            planned = new uint256[](1);
            planned[0] = to;
            return planned;
        }
        if (current == to) return new uint256[](0);
        bool above = to > current;
        uint256 distance = above ? to - current : current - to;
        planned = new uint256[](levels);
        for (uint256 i; i < levels; i++) {
            uint256 step = Math.mulDiv(distance, i + 1, levels);
            planned[i] = above ? current + step : current - step;
        }
    }
}
