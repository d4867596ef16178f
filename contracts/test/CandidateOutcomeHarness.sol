// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {HeldPositionSearch} from "../HeldPositionSearch.sol";

/// @title CandidateOutcomeHarness: how the searchers classify one candidate's quote, callable from a test
/// @notice Test only, run as a deployless call: the test gives it and the service's classification the same raw
/// quotes (a call's success flag and its return or revert data) and requires the same answer, so that the service's
/// reason for an answer (limitedBy) is drawn from the outcomes the searchers searched by. A held position's too: its
/// quote's shifted delta against the shifted budget, its offset from the market's answer, its range's top.
contract CandidateOutcomeHarness is HeldPositionSearch {
    function outcome(bool isLong, uint256 expectedPrice, uint256 collateralAvailable, bool success, bytes memory data)
        external
        pure
        returns (bool quoted, bool tooLarge, uint256 requiredCollateral, uint256 priceAfter)
    {
        Memo memory none;
        Search memory s = Search(Request(address(0), 0, expectedPrice, collateralAvailable, 0, 0, 0, 0), isLong, 0, none);
        return _outcome(s, Candidate(0, success, data, 0));
    }

    function positionOutcome(bool isLong, uint256 expectedPrice, uint256 collateralAvailable, uint256 offset, bool success, bytes memory data)
        external
        pure
        returns (bool quoted, bool tooLarge, uint256 requiredCollateral, uint256 priceAfter)
    {
        Memo memory none;
        Search memory s = Search(Request(address(0), 0, expectedPrice, collateralAvailable, 0, 1, 0, offset), isLong, 0, none);
        return _outcome(s, Candidate(0, success, data, 0));
    }

    function positionOffset(bytes memory market, int256 current, bool isLong) external pure returns (uint256) {
        Request memory q = Request(address(0), 0, 0, 0, 0, 1, current, COLLATERAL_ROUNDING);
        _hold(q, market, isLong);
        return q.offset;
    }

    function rangeTop(uint256 collateralAvailable, uint256 price, int256 current, bool isLong) external pure returns (uint256) {
        return _rangeTop(Request(address(0), 0, 0, collateralAvailable, 0, 1, current, COLLATERAL_ROUNDING), price, isLong);
    }
}
