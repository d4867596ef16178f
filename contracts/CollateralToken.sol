// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title CollateralToken: a market group's collateral asset
/// @notice A plain ERC-20 whose decimals() is fixed at construction, so that a market group can stand in
/// for groups collateralised by 18-decimal tokens (wstETH, sUSDS) or by tokens with fewer decimals (USDC: 6,
/// WBTC: 8). The market group deploys it. Its whole supply is minted once, at construction, to the holder the group
/// names (its owner): traders on the development chain are paid from it; nothing mints later.
contract CollateralToken is ERC20 {
    uint8 private immutable _decimals;

    constructor(string memory name_, string memory symbol_, uint8 decimals_, address holder, uint256 supply)
        ERC20(name_, symbol_)
    {
        _decimals = decimals_;
        if (supply > 0) _mint(holder, supply);
    }

    /// @notice The number of decimals of one token unit, set at construction.
    function decimals() public view override returns (uint8) {
        return _decimals;
    }
}
