// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

/// @title The parts of Uniswap v3 core's factory and pool that the market group calls
/// @notice Declared here from the published ABI (npm package @uniswap/v3-core 1.0.1), not imported: the group
/// talks to the deployed v3-core bytecode and compiles none of its sources.
interface IUniswapV3Factory {
    function createPool(address tokenA, address tokenB, uint24 fee) external returns (address pool);
    function getPool(address tokenA, address tokenB, uint24 fee) external view returns (address pool);
    /// @notice The tick spacing of an enabled fee tier; 0 for a fee that is not one.
    function feeAmountTickSpacing(uint24 fee) external view returns (int24);
}

interface IUniswapV3Pool {
    function initialize(uint160 sqrtPriceX96) external;
    function slot0()
        external
        view
        returns (
            uint160 sqrtPriceX96,
            int24 tick,
            uint16 observationIndex,
            uint16 observationCardinality,
            uint16 observationCardinalityNext,
            uint8 feeProtocol,
            bool unlocked
        );
    function tickSpacing() external view returns (int24);
    /// @notice Adds liquidity; the pool calls back uniswapV3MintCallback for the tokens owed.
    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data)
        external
        returns (uint256 amount0, uint256 amount1);
    /// @notice Swaps; a positive amountSpecified is an exact input, a negative one an exact output. The pool calls
    /// back uniswapV3SwapCallback for the input owed, after its state (slot0) holds the price after the swap.
    function swap(address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, bytes calldata data)
        external
        returns (int256 amount0, int256 amount1);
}
