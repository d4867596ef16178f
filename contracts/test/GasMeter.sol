// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

/// @title GasMeter: the gas a deployless call uses, even one that reverts (measurements only)
/// @notice Never deployed: run as a deployless call whose argument is another deployless call's data
/// (creation code and arguments). It creates that code and reverts with {Measured}: the gas the creation
/// used and what it answered. eth_estimateGas cannot measure the quoter's searcher, which always reverts.
contract GasMeter {
    /// @param gasUsed Gas the creation used, the CREATE opcode's own cost included.
    /// @param reverted Whether the creation reverted. @param data Its revert data (or empty).
    error Measured(uint256 gasUsed, bool reverted, bytes data);

    constructor(bytes memory creationCode) {
        uint256 before = gasleft();
        address created;
        assembly ("memory-safe") {
            created := create(0, add(creationCode, 32), mload(creationCode))
        }
        uint256 used = before - gasleft();
        uint256 length;
        assembly ("memory-safe") {
            length := returndatasize()
        }
        bytes memory data = new bytes(length);
        assembly ("memory-safe") {
            returndatacopy(add(data, 32), 0, length)
        }
        revert Measured(used, created == address(0), data);
    }
}
