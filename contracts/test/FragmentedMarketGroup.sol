// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {IMarketGroup} from "../interfaces/IMarketGroup.sol";

/// @title A market group whose quotes cost gas like a real one over fragmented liquidity (tests only)
/// @notice Stands in front of a reference market group and answers its reads as they are. Its quotes cost
/// what the real Sapience group's cost where liquidity is spread over many ticks: the real group simulates
/// the swap through Uniswap's QuoterV2, which crosses one initialized tick after another (cold storage reads)
/// and reverts to hand back its result, so every quote pays for its ticks again. Like QuoterV2, it turns an
/// out-of-gas inside the simulation into `Error("Unexpected error")`: the same revert as an exhausted pool.
contract FragmentedMarketGroup {
    /// @notice How the simulation hands back its result (QuoterV2 style: by reverting, so nothing it touched
    /// stays warm).
    error SimulatedQuote(uint256 requiredCollateral, uint256 fillPrice, uint256 price18DigitsAfter);

    IMarketGroup public immutable inner;
    /// @notice Size (wei) that crosses one more tick.
    uint256 public immutable sizePerTick;
    /// @notice Ticks crossed by every quote, and the most any quote crosses (all the initialized ticks).
    uint256 public immutable baseTicks;
    uint256 public immutable maxTicks;

    /// @dev Where the tick storage read by a simulation starts: far from any slot this contract writes.
    uint256 private constant TICKS_SLOT = uint256(keccak256("FragmentedMarketGroup.ticks"));

    constructor(IMarketGroup inner_, uint256 sizePerTick_, uint256 baseTicks_, uint256 maxTicks_) {
        inner = inner_;
        sizePerTick = sizePerTick_;
        baseTicks = baseTicks_;
        maxTicks = maxTicks_;
    }

    function getMarket(uint256 id)
        external
        view
        returns (IMarketGroup.MarketData memory, IMarketGroup.MarketParams memory)
    {
        return inner.getMarket(id);
    }

    function getReferencePrice(uint256 marketId) external view returns (uint256) {
        return inner.getReferencePrice(marketId);
    }

    function getSqrtPriceX96(uint256 marketId) external view returns (uint160) {
        return inner.getSqrtPriceX96(marketId);
    }

    /// @notice Ticks a quote of `size` crosses: baseTicks + |size| / sizePerTick (rounded down), at most maxTicks.
    function ticksCrossed(int256 size) public view returns (uint256) {
        uint256 magnitude = size < 0 ? uint256(-size) : uint256(size);
        uint256 ticks = baseTicks + magnitude / sizePerTick;
        return ticks < maxTicks ? ticks : maxTicks;
    }

    /// @notice The inner group's quote, after a simulation that reads one cold slot per tick crossed (about
    /// 2,200 gas each). Reverts as the inner group does; `Error("Unexpected error")` when the simulation ran
    /// out of gas.
    function quoteCreateTraderPosition(uint256 marketId, int256 size)
        external
        returns (uint256 requiredCollateral, uint256 fillPrice, uint256 price18DigitsAfter)
    {
        try this.simulate(marketId, size) {
            revert("simulation returned");
        } catch (bytes memory reason) {
            if (reason.length == 100 && bytes4(reason) == SimulatedQuote.selector) {
                assembly ("memory-safe") {
                    requiredCollateral := mload(add(reason, 36))
                    fillPrice := mload(add(reason, 68))
                    price18DigitsAfter := mload(add(reason, 100))
                }
                return (requiredCollateral, fillPrice, price18DigitsAfter);
            }
            if (reason.length == 0) revert("Unexpected error");
            assembly ("memory-safe") {
                revert(add(reason, 32), mload(reason))
            }
        }
    }

    /// @notice Crosses the ticks, then quotes; always reverts (with {SimulatedQuote} when the quote succeeds).
    function simulate(uint256 marketId, int256 size) external {
        uint256 ticks = ticksCrossed(size);
        uint256 first = TICKS_SLOT;
        uint256 seen;
        for (uint256 tick; tick < ticks; ++tick) {
            assembly ("memory-safe") {
                seen := xor(seen, sload(add(first, tick)))
            }
        }
        (uint256 requiredCollateral, uint256 fillPrice, uint256 price18DigitsAfter) =
            inner.quoteCreateTraderPosition(marketId, size);
        if (seen != 0) revert("tick storage written");
        revert SimulatedQuote(requiredCollateral, fillPrice, price18DigitsAfter);
    }
}
