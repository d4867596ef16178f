// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {SearcherBase} from "../SearcherBase.sol";

/// @title CandidateOutcomeHarness: how the searchers classify one candidate's quote, callable from a test
/// @notice Test only, run as a deployless call: the test gives it and the service's classification the same raw
/// quotes (a call's success flag and its return or revert data) and requires the same answer, so that the service's
/// reason for an answer (limitedBy) is drawn from the outcomes the searchers searched by.
contract CandidateOutcomeHarness is SearcherBase {
    function outcome(bool isLong, uint256 expectedPrice, uint256 collateralAvailable, bool success, bytes memory data)
        external
        pure
        returns (bool quoted, bool tooLarge, uint256 requiredCollateral, uint256 priceAfter)
    {
        Memo memory none;
        Search memory s = Search(address(0), 0, expectedPrice, collateralAvailable, 0, isLong, 0, none, _none());
        return _outcome(s, Candidate(0, success, data, 0));
    }
}
