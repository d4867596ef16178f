// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {MarketGroup} from "../MarketGroup.sol";
import {IUniswapV3Factory} from "../interfaces/IUniswapV3.sol";

/// @title A market group that lost its price feed (tests only)
/// @notice Markets exist and answer getMarket, but getReferencePrice returns 0: the quoter's
/// "Current price not found" case, which the reference market group never reaches.
contract PricelessMarketGroup is MarketGroup {
    constructor(IUniswapV3Factory factory) MarketGroup(18, factory, address(0), 0, 0) {}

    function getReferencePrice(uint256) public pure override returns (uint256) {
        return 0;
    }
}
