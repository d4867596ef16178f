// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {ExactSearchRule} from "../ExactSearchRule.sol";
import {PriceEdge} from "../PriceEdge.sol";

/// @title ExactRuleHarness: the exact search's rule as the searcher runs it, callable from a test
/// @notice Test only, run as a deployless call: the test asks it and the service's TypeScript rule the same
/// questions (random states included) and requires the same answers to the wei; and so for the price edge's call
/// and the edge read from its answer.
contract ExactRuleHarness {
    function next(ExactSearchRule.Input memory input, ExactSearchRule.State memory state)
        external
        pure
        returns (bool readEdge, uint256 size, bool guided)
    {
        ExactSearchRule.prepare(input);
        return ExactSearchRule.next(input, state);
    }

    /// @notice One step recorded: kind 0 below, 1 above, 2 a revert (rangeEnd), 3 the edge (hasEdge from `quoted`).
    function record(
        ExactSearchRule.State memory state,
        uint8 kind,
        bool guided,
        uint256 size,
        ExactSearchRule.Side memory quote
    ) external pure returns (ExactSearchRule.State memory) {
        if (kind == 0) ExactSearchRule.recordBelow(state, guided, size, quote.requiredCollateral, quote.fillPrice, quote.priceAfter);
        else if (kind == 1) ExactSearchRule.recordAbove(state, guided, size, quote.requiredCollateral, quote.fillPrice, quote.priceAfter);
        else if (kind == 2) ExactSearchRule.recordRevert(state, guided, size, quote.rangeEnd);
        else ExactSearchRule.recordEdge(state, quote.quoted, size);
        return state;
    }

    function closed(ExactSearchRule.State memory state) external pure returns (bool) {
        return ExactSearchRule.closed(state);
    }

    function rangeEndOf(uint256 bound) external pure returns (uint256) {
        return ExactSearchRule.rangeEndOf(bound);
    }

    function planEdge(bytes memory market, bool isLong, uint256 expectedPrice)
        external
        pure
        returns (bool planned, address quoter, bytes memory data)
    {
        return PriceEdge.plan(market, isLong, expectedPrice);
    }

    function edgeOf(bool success, bytes memory answer) external pure returns (bool hasEdge, uint256 edge) {
        return PriceEdge.edgeOf(success, answer);
    }
}
