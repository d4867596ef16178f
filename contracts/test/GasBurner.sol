// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

/// @title Burns the gas it is given (tests only)
/// @notice Hashes a word over and over until little gas is left: a call as heavy as its gas limit allows, with no
/// state and no memory growth, to show that the node's own memory does not grow with the gas a call burns.
contract GasBurner {
    /// @return rounds the hashes computed
    /// @return left the gas left when it stopped
    function burn() external view returns (uint256 rounds, uint256 left) {
        bytes32 word;
        assembly {
            for {} gt(gas(), 10000) {} {
                mstore(0, word)
                word := keccak256(0, 32)
                rounds := add(rounds, 1)
            }
        }
        left = gasleft();
        // Keeps the loop's result live, so that no optimiser may drop it.
        if (word == bytes32(0) && rounds > 0) revert();
    }
}
