// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";
import {IMarketGroup} from "./interfaces/IMarketGroup.sol";
import {IUniswapV3Factory, IUniswapV3Pool} from "./interfaces/IUniswapV3.sol";
import {PositionLoss} from "./libraries/PositionLoss.sol";
import {VirtualToken} from "./VirtualToken.sol";

/// @title MarketGroupStorage: the state of the reference market group, shared with its module
/// @notice MarketGroup (the router, which holds the state) delegatecalls its configuration and liquidity modules,
/// which run on the group's storage: all three inherit this contract and declare no state of their own, so that
/// their layouts are one
/// (the build checks that they are). Immutables are each contract's own code and are set by each constructor.
/// The group is the ERC-721 of its positions: a position's token id is its id, minted to its owner and never burned.
abstract contract MarketGroupStorage is Ownable, ERC721 {
    struct Market {
        uint256 startTime;
        uint256 endTime;
        uint256 minPriceD18;
        uint256 maxPriceD18;
        IUniswapV3Pool pool;
        uint24 feeRate;
        bool settled;
        VirtualToken baseToken;
        int24 minTick;
        int24 maxTick;
        VirtualToken quoteToken;
        uint160 sqrtMinPriceX96;
        uint160 sqrtMaxPriceX96;
        uint256 settlementPriceD18;
        PositionLoss.Range[] ranges;
        bytes claimStatementYesOrNumeric;
        bytes claimStatementNo;
    }

    /// @notice The Uniswap v3 factory that creates the markets' pools.
    IUniswapV3Factory public immutable uniswapFactory;

    uint256 internal _lastMarketId;
    mapping(uint256 marketId => Market) internal _markets;
    /// @dev The pool the group is paying in a callback right now (a trade or a mint); none otherwise.
    address internal _payingPool;
    /// @dev Positions minted so far: the total supply (a position's token is never burned) and the last id.
    uint256 internal _positionCount;
    mapping(uint256 positionId => IMarketGroup.Position) internal _positions;

    event MarketCreated(uint256 indexed marketId);
    event MarketSettledAt(uint256 indexed marketId, uint256 settlementPriceD18);
    /// @notice Position `positionId` of `trader` on `marketId` changed its size by `sizeDelta` (positive: bought base
    /// tokens), paying or receiving `quoteAmount` quote tokens, moved the pool to `sqrtPriceX96After`, and moved
    /// `collateralDelta` of collateral (18 decimals; positive: the trader deposited).
    event Trade(
        uint256 indexed positionId,
        uint256 indexed marketId,
        address indexed trader,
        int256 sizeDelta,
        int256 collateralDelta,
        uint256 fillPrice,
        uint256 price18DigitsAfter,
        uint160 sqrtPriceX96After,
        uint256 quoteAmount
    );

    constructor(IUniswapV3Factory factory) Ownable(msg.sender) ERC721("Market group position", "POSITION") {
        uniswapFactory = factory;
    }

    /// @dev A new position of `kind` on `marketId`: its id is the total supply + 1. Its token is not minted yet.
    function _newPosition(IMarketGroup.PositionKind kind, uint256 marketId)
        internal
        returns (uint256 positionId, IMarketGroup.Position storage position)
    {
        positionId = ++_positionCount;
        position = _positions[positionId];
        position.id = positionId;
        position.kind = kind;
        position.marketId = marketId;
    }

    /// @dev Mints position `positionId`'s token to `to`, which must accept it if it is a contract (called as the
    /// real group calls it: by the sender, from the group), else InvalidTransferRecipient(to).
    function _mintPosition(address to, uint256 positionId) internal {
        _mint(to, positionId);
        if (!_accepts(address(this), to, positionId, "")) revert IMarketGroup.InvalidTransferRecipient(to);
    }

    /// @dev Whether `to` takes a token: an account without code does; a contract must answer onERC721Received's
    /// selector (a revert or any other answer is a refusal).
    function _accepts(address from, address to, uint256 tokenId, bytes memory data) internal returns (bool) {
        if (to.code.length == 0) return true;
        try IERC721Receiver(to).onERC721Received(msg.sender, from, tokenId, data) returns (bytes4 answer) {
            return answer == IERC721Receiver.onERC721Received.selector;
        } catch {
            return false;
        }
    }

    function _sqrtPrice(IUniswapV3Pool pool) internal view returns (uint160 sqrtPriceX96) {
        (sqrtPriceX96,,,,,,) = pool.slot0();
    }

    function _existing(uint256 marketId) internal view returns (Market storage market) {
        market = _markets[marketId];
        if (market.startTime == 0) revert IMarketGroup.InvalidMarket();
    }
}
