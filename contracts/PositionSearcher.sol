// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {HeldPositionSearch} from "./HeldPositionSearch.sol";
import {IMarketGroup} from "./interfaces/IMarketGroup.sol";
import {wordAt} from "./libraries/MarketWords.sol";

/// @title PositionSearcher: the quoter's searches of a held position's modification (semantics section 13)
/// @notice Never deployed: its runtime code is run at the position owner's address through eth_call's state override,
/// so that the market group sees the owner as the sender of every quoteModifyTraderPosition (it refuses anyone else).
/// It reads the position (its owner, kind, market and size), then runs the bisection or the exact search of the
/// one-quote searchers on the modification by each candidate trade, and reverts with {PositionSearchFacts}: the
/// position's reads and the same facts as theirs. It searches only as the owner: at another address (an owner the
/// service guessed wrong, or a position that changed hands) it answers the reads alone, which name the owner.
contract PositionSearcher is HeldPositionSearch {
    /// @notice The position's reads: `ownerOf`, `getPosition` and `getPositionSize`, as each answered (a read not made
    /// has neither success nor data).
    struct PositionFacts {
        Call owner;
        Call position;
        Call size;
    }

    /// @notice One quote of a position: the group, the position, the price and budget, the most candidates.
    struct Ask {
        address marketGroup;
        uint256 positionId;
        uint256 expectedPrice;
        uint256 collateralAvailable;
        uint256 maxCandidates;
    }

    /// @notice What a resumed search knows of the position from the first call's reads: its market, its size and offset.
    struct HeldResume {
        uint256 marketId;
        int256 current;
        uint256 offset;
    }

    /// @notice How the searcher answers, always.
    error PositionSearchFacts(PositionFacts position, Facts facts);

    /// @dev getPosition's words: its kind (1 liquidity, 2 trade) and market id.
    uint256 private constant KIND_WORD = 1;
    uint256 private constant MARKET_WORD = 2;
    uint256 private constant TRADE_KIND = 2;

    /// @notice The bisection of semantics section 4 over the trades of the position `ask` names.
    function bisect(Ask memory ask, bool resuming, HeldResume memory held, BisectionResume memory resume) external {
        (PositionFacts memory position, Facts memory facts, Request memory q, bool searching) = _begin(ask, resuming, held);
        Memo memory none;
        if (searching) _bisectionQuote(facts, q, resuming, resume, _positionBytes(position), none);
        revert PositionSearchFacts(position, facts);
    }

    /// @notice The exact search of semantics section 4b over the trades of the position `ask` names.
    function exact(Ask memory ask, bool resuming, HeldResume memory held, ExactResume memory resume) external {
        (PositionFacts memory position, Facts memory facts, Request memory q, bool searching) = _begin(ask, resuming, held);
        Memo memory none;
        if (searching) _exactQuote(facts, q, resuming, resume, _positionBytes(position), none);
        revert PositionSearchFacts(position, facts);
    }

    /// @notice The position's reads (unless `resuming`) and the request they make: a search follows only when this
    /// address owns a trader position whose size could be read.
    function _begin(Ask memory ask, bool resuming, HeldResume memory held)
        private
        returns (PositionFacts memory position, Facts memory facts, Request memory q, bool searching)
    {
        facts.blockNumber = block.number;
        // A held position's offset is never 0 (a new position's is): a first call's is the group's rounding until the
        // market is read ({_hold}); a resumed call is given the first call's.
        uint256 offset = resuming ? held.offset : COLLATERAL_ROUNDING;
        q = Request(ask.marketGroup, held.marketId, ask.expectedPrice, ask.collateralAvailable, ask.maxCandidates, ask.positionId, held.current, offset);
        if (resuming) return (position, facts, q, true);
        position.owner = _call(ask.marketGroup, abi.encodeWithSignature("ownerOf(uint256)", ask.positionId));
        (bool hasOwner, uint256 owner) = wordAt(position.owner.data, 0);
        if (!position.owner.success || !hasOwner || owner != uint256(uint160(address(this)))) return (position, facts, q, false);
        position.position = _call(ask.marketGroup, abi.encodeCall(IMarketGroup.getPosition, (ask.positionId)));
        (bool hasKind, uint256 kind) = wordAt(position.position.data, KIND_WORD);
        (bool hasMarket, uint256 marketId) = wordAt(position.position.data, MARKET_WORD);
        if (!position.position.success || !hasKind || !hasMarket || kind != TRADE_KIND) return (position, facts, q, false);
        position.size = _call(ask.marketGroup, abi.encodeCall(IMarketGroup.getPositionSize, (ask.positionId)));
        (bool hasSize, uint256 size) = wordAt(position.size.data, 0);
        if (!position.size.success || !hasSize) return (position, facts, q, false);
        (q.marketId, q.current) = (marketId, int256(size));
        return (position, facts, q, true);
    }

    /// @notice Encoded bytes of the answer before the facts: its heads and the position's reads.
    function _positionBytes(PositionFacts memory position) private pure returns (uint256) {
        return 32 * 14 + _padded(position.owner.data.length) + _padded(position.position.data.length) + _padded(position.size.data.length);
    }
}
