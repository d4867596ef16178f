// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

/// @title VirtualToken: one side of a market's Uniswap v3 pool
/// @notice The base or quote token of one market, like the real group's virtual tokens: only the market group
/// that deployed it mints, and it mints exactly what it owes the pool in the v3 mint and swap callbacks. The pool
/// reads balanceOf and pays out with transfer; nothing else is needed, so nothing else is here.
contract VirtualToken {
    /// @notice The market group that deployed the token, the only minter.
    address public immutable minter;
    uint256 public totalSupply;
    mapping(address account => uint256) public balanceOf;

    event Transfer(address indexed from, address indexed to, uint256 value);

    error NotMinter();
    error InsufficientBalance(uint256 balance, uint256 needed);

    constructor() {
        minter = msg.sender;
    }

    function decimals() external pure returns (uint8) {
        return 18;
    }

    function mint(address to, uint256 amount) external {
        if (msg.sender != minter) revert NotMinter();
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        uint256 balance = balanceOf[msg.sender];
        if (balance < amount) revert InsufficientBalance(balance, amount);
        unchecked {
            balanceOf[msg.sender] = balance - amount;
        }
        balanceOf[to] += amount;
        emit Transfer(msg.sender, to, amount);
        return true;
    }
}
