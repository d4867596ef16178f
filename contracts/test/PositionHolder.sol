// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";
import {IMarketGroup} from "../interfaces/IMarketGroup.sol";

/// @title A contract that trades on a market group (tests only)
/// @notice Opens positions with the collateral it holds, and accepts a position's token or refuses it, as it was
/// told at deployment: a refusal answers onERC721Received with a value other than its selector.
contract PositionHolder is IERC721Receiver {
    bool public immutable accepts;

    constructor(bool accepts_) {
        accepts = accepts_;
    }

    /// @notice Approves `group` for all of its collateral this contract holds, then opens a position of `size`.
    function open(IMarketGroup group, uint256 marketId, int256 size) external returns (uint256 positionId) {
        (, address collateral,,) = group.getMarketGroup();
        IERC20(collateral).approve(address(group), type(uint256).max);
        return group.createTraderPosition(
            IMarketGroup.TraderPositionCreateParams({marketId: marketId, size: size, maxCollateral: 0, deadline: type(uint256).max})
        );
    }

    function onERC721Received(address, address, uint256, bytes calldata) external view returns (bytes4) {
        return accepts ? IERC721Receiver.onERC721Received.selector : bytes4(0);
    }
}
