// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {ExactSearchRule} from "../ExactSearchRule.sol";

/// @title ExactRuleHarness: the exact search's rule as the searcher runs it, callable from a test
/// @notice Test only, run as a deployless call: the test asks it and the service's TypeScript rule the same
/// questions (random states included) and requires the same answers to the wei.
contract ExactRuleHarness {
    function next(ExactSearchRule.Input memory input, ExactSearchRule.State memory state)
        external
        pure
        returns (uint256 size, bool guided)
    {
        return ExactSearchRule.next(input, state);
    }

    function closed(ExactSearchRule.State memory state) external pure returns (bool) {
        return ExactSearchRule.closed(state);
    }

    function rangeEndOf(uint256 bound) external pure returns (uint256) {
        return ExactSearchRule.rangeEndOf(bound);
    }
}
