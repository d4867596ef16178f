// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {PoolPrices} from "../libraries/PoolPrices.sol";
import {PriceEdge} from "../PriceEdge.sol";

/// @title PriceMathHarness: the Solidity's pool-price conversions, many in one call, for a test
/// @notice Test only, run as a deployless call: test/contracts/priceMath.test.ts asks it and src/quote/priceMath.ts
/// the same random prices and sqrt prices and requires the same answers under the TypeScript's names.
contract PriceMathHarness {
    /// @notice PoolPrices.priceD18FromSqrtPriceX96 of each sqrt price.
    function pricesOf(uint160[] calldata sqrtPrices) external pure returns (uint256[] memory prices) {
        prices = new uint256[](sqrtPrices.length);
        for (uint256 i; i < sqrtPrices.length; ++i) prices[i] = PoolPrices.priceD18FromSqrtPriceX96(sqrtPrices[i]);
    }

    /// @notice PoolPrices.sqrtPriceX96FromPriceD18 of each price (below 2^64 * 1e18), rounded up or down.
    function sqrtPricesOf(uint256[] calldata prices, bool up) external pure returns (uint160[] memory sqrtPrices) {
        Math.Rounding rounding = up ? Math.Rounding.Ceil : Math.Rounding.Floor;
        sqrtPrices = new uint160[](prices.length);
        for (uint256 i; i < prices.length; ++i) sqrtPrices[i] = PoolPrices.sqrtPriceX96FromPriceD18(prices[i], rounding);
    }

    /// @notice The price edge's limit for each target price (below 2^64 * 1e18): a LONG's, else a SHORT's.
    function edgeLimits(uint256[] calldata prices, bool isLong) external pure returns (uint160[] memory limits) {
        limits = new uint160[](prices.length);
        for (uint256 i; i < prices.length; ++i) {
            limits[i] = isLong ? PriceEdge.highestAtOrBelow(prices[i]) : PriceEdge.lowestAtOrAbove(prices[i]);
        }
    }
}
