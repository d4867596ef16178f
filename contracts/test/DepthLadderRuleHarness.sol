// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {DepthLadderRule} from "../DepthLadderRule.sol";
import {SearcherBase} from "../SearcherBase.sol";

/// @title DepthLadderRuleHarness: how the ladder searcher plans its levels, callable from a test
/// @notice Test only, run as a deployless call: the test asks it and the service's TypeScript the same questions
/// (the price a `getReferencePrice` answer gives, the prices planned from it) and requires the same answers.
contract DepthLadderRuleHarness is SearcherBase {
    function priceOf(Call memory answer) external pure returns (bool hasPrice, uint256 price) {
        return _priceOf(answer);
    }

    function prices(bool hasPrice, uint256 current, uint256 to, uint256 levels) external pure returns (uint256[] memory) {
        return DepthLadderRule.prices(hasPrice, current, to, levels);
    }
}
