// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {LiquiditySearch} from "../LiquiditySearch.sol";

/// @title LiquidityRuleHarness: LiquiditySearch's rule run on a requirement written here, for the test that puts it
/// beside src/quote/liquidityRule.ts (test/contracts/liquiditySearchRule.test.ts)
/// @notice The requirement of L is slope * L / 2^64 + floor + (L * 7919 mod 3): near-linear with the jitter of the
/// mint's roundings. Never deployed: asked as a deployless call.
contract LiquidityRuleHarness is LiquiditySearch {
    /// @notice The candidates the rule quotes for `budget` from `first`, at most `most` of them, and its last bracket.
    function run(uint256 budget, uint256 first, uint256 slope, uint256 floor, uint256 most)
        external
        pure
        returns (uint256[] memory candidates, uint256 lo, uint256 hi)
    {
        candidates = new uint256[](most);
        Rule memory rule = _newRule();
        uint256 count;
        while (count < most) {
            (bool done, uint256 liquidity) = _nextLiquidity(rule, budget, first);
            if (done) break;
            candidates[count++] = liquidity;
            _learn(rule, liquidity, _need(liquidity, slope, floor), budget);
        }
        assembly ("memory-safe") {
            mstore(candidates, count)
        }
        return (candidates, rule.lo, rule.hi);
    }

    function _need(uint256 liquidity, uint256 slope, uint256 floor) private pure returns (uint256) {
        return slope * liquidity / 2 ** 64 + floor + (liquidity * 7919) % 3;
    }
}
