// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IMarketGroup} from "./interfaces/IMarketGroup.sol";
import {MARKET_DATA_HEAD_WORDS, SETTLED_WORD, wordAt} from "./libraries/MarketWords.sol";

/// @title SearcherBase: what both searchers share
/// @notice The reads of a quote (market, price, collateral), one candidate's gas-bounded quote, and the facts every
/// searcher answers with by reverting {SearchFacts}. {QuoteSearcher} runs the bisection of section 4 on it,
/// {ExactQuoteSearcher} the exact search of section 4b: two contracts, so that a bisection's call does not carry the
/// exact search's code (about 78,000 gas of call data).
/// @dev Gas never decides an answer (semantics section 7). A search stops, keeping what it has, while enough gas
/// remains to return its facts; the service then resumes it at the same block from the point it has reached. A
/// candidate that reverted after using nearly all the gas it was given may have been starved (a market group that
/// simulates its swap through Uniswap's QuoterV2 turns an inner out-of-gas into an ordinary revert), so it is not
/// recorded: the next call quotes it first, with that call's whole gas. Facts are returned as revert data, not as
/// deployed code, which would cost 200 gas per byte. Nothing here reverts otherwise on a misbehaving market group:
/// every call is low level and every read of return data is bounds-checked. Compiled for an EVM without PUSH0 or
/// MCOPY, so that any chain runs it.
abstract contract SearcherBase {
    /// @notice One call to the market group: whether it succeeded, and its return or revert data.
    struct Call {
        bool success;
        bytes data;
    }

    /// @notice One candidate of the search: the signed size quoted, the call's outcome, and the gas it used.
    struct Candidate {
        int256 size;
        bool success;
        bytes data;
        uint256 gasUsed;
    }

    /// @notice One quote asked of a searcher: the market, the price and budget, the most candidates it quotes, and
    /// the trader position it modifies (semantics section 13), if any: a new position's request has the last three 0.
    /// @dev For a held position a candidate is the signed trade, quoted at `current` plus it; `offset` (never 0 for a
    /// held position: at least the group's rounding) is added to the budget and to each candidate's signed collateral
    /// delta before they are compared and before the exact rule reads them (see HeldPositionSearch): the comparison is
    /// the same, and the rule sees the requirement of a new position of the trade. Flat and without a flag: each field
    /// is code in every searcher, and a deployless call pays for each byte of its code.
    struct Request {
        address marketGroup;
        uint256 marketId;
        uint256 expectedPrice;
        uint256 collateralAvailable;
        uint256 maxIterations;
        uint256 positionId;
        int256 current;
        uint256 offset;
    }

    /// @notice What one call of a search works with: the request, its direction, the encoded size of the facts so
    /// far (for the gas kept back to return them), and the quotes already made of its market in this call.
    struct Search {
        Request q;
        bool isLong;
        uint256 encodedBytes;
        Memo memo;
    }

    /// @notice The candidates recorded for one market in this call, by size: a quote depends only on the market and
    /// the size at this block (never on the request's prices), so a size quoted for one request of a batch is not
    /// quoted again for the next request of the same market. Its capacity is the length of `sizes`; none (an empty
    /// memo) in a one-quote searcher, where a search never quotes a size twice.
    struct Memo {
        address marketGroup;
        uint256 marketId;
        uint256 count;
        int256[] sizes;
        Candidate[] candidates;
    }

    /// @notice Everything the service needs to answer, or to choose its error.
    /// @dev `priceRead` is false when the market check stopped the quote; `collateralRead` (the group's
    /// `getMarketGroup`) is true when a search follows; `decimalsRead` when that answer names a collateral token
    /// (semantics section 10). `candidates` is empty when no search ran, or when gas ran short before the first
    /// candidate of this call could be recorded. `edgeRead`: an exact search asked the market's QuoterV2 for the
    /// price edge ({PriceEdge}), answered in `edge`; false also when that call may have been starved. `liquidityRead`:
    /// an exact search read its market's pool's `liquidity()` (the rule's first guesses), answered in `liquidity`.
    struct Facts {
        uint256 blockNumber;
        Call market;
        bool priceRead;
        Call price;
        bool collateralRead;
        Call collateralGroup;
        bool decimalsRead;
        Call collateralDecimals;
        Candidate[] candidates;
        bool edgeRead;
        Call edge;
        bool liquidityRead;
        Call liquidity;
    }

    /// @notice How the searcher answers, always: it never returns normally.
    error SearchFacts(Facts facts);

    uint256 internal constant D18 = 1e18;
    /// @dev The largest size a quote takes (int256 max), the cap of the search range.
    uint256 internal constant MAX_SIZE = uint256(type(int256).max);
    /// @dev A successful quote returns three words.
    uint256 internal constant QUOTE_RETURN_LENGTH = 96;

    /// @dev Gas kept back to encode and return the facts: a fixed part, a part per word of encoded facts, and
    /// the memory expansion of the encoded copy. Generous on purpose: too little would lose every fact.
    uint256 internal constant RESERVE_FIXED = 40_000;
    uint256 internal constant RESERVE_PER_WORD = 120;
    /// @dev Encoded bytes of one candidate besides its data: size, success, offset, gasUsed, length, and its
    /// offset in the array.
    uint256 internal constant CANDIDATE_HEAD_BYTES = 192;
    /// @dev Return data expected of a candidate before it is known: a quote's three words, or a short revert.
    uint256 internal constant CANDIDATE_DATA_GUESS = 256;
    /// @dev No candidate is tried with less gas than this: it could not be told from a starved one.
    uint256 internal constant MIN_CANDIDATE_GAS = 60_000;
    /// @dev A reverted candidate that left less than 1/STARVED_FRACTION of its gas unused may have been
    /// starved. Each level of nested calls keeps 1/64 of the gas it forwards, so a caught out-of-gas a few
    /// levels down leaves a few 64ths; a real revert (no liquidity, a bound) uses far less than it is given.
    uint256 internal constant STARVED_FRACTION = 4;

    /// @dev Error selectors that stop the search at once (semantics sections 4 and 9). `EpochSettled()` is the
    /// Sapience name of a settled market in the epoch era.
    bytes4 internal constant MARKET_SETTLED = bytes4(keccak256("MarketSettled()"));
    bytes4 internal constant EPOCH_SETTLED = bytes4(keccak256("EpochSettled()"));
    bytes4 internal constant INVALID_MARKET = bytes4(keccak256("InvalidMarket()"));
    bytes4 internal constant EXPIRED_MARKET = bytes4(keccak256("ExpiredMarket()"));
    bytes4 internal constant EXPIRED_MARKET_NOT_SETTLED = bytes4(keccak256("ExpiredMarketNotSettled(uint256)"));
    bytes4 internal constant MARKET_NOT_STARTED = bytes4(keccak256("MarketNotStarted()"));

    /// @notice The reads of a new quote (market, then price): whether a search follows, its direction, the price.
    function _start(
        Facts memory facts,
        address marketGroup,
        uint256 marketId,
        uint256 expectedPrice
    ) internal returns (bool searching, bool isLong, uint256 price) {
        facts.market = _call(marketGroup, abi.encodeCall(IMarketGroup.getMarket, (marketId)));
        if (!_marketIsOpen(facts.market, marketId)) return (false, false, 0);
        facts.priceRead = true;
        facts.price = _call(marketGroup, abi.encodeCall(IMarketGroup.getReferencePrice, (marketId)));
        bool hasPrice;
        (hasPrice, price) = _priceOf(facts.price);
        if (!hasPrice || price == expectedPrice) return (false, false, 0);
        _readCollateral(facts, marketGroup);
        return (true, expectedPrice > price, price);
    }

    /// @notice The D18 reference price a `getReferencePrice` answer gives, as the service reads it: none when the
    /// call reverted, answered less than a word, or answered 0.
    function _priceOf(Call memory answer) internal pure returns (bool hasPrice, uint256 price) {
        bool hasWord;
        (hasWord, price) = wordAt(answer.data, 0);
        hasPrice = answer.success && hasWord && price != 0;
    }

    /// @notice The group's collateral token and its decimals (semantics section 10): the token is the second word
    /// of a successful `getMarketGroup` answer, as the service reads it.
    function _readCollateral(Facts memory facts, address marketGroup) internal {
        facts.collateralRead = true;
        facts.collateralGroup = _call(marketGroup, abi.encodeWithSignature("getMarketGroup()"));
        (bool hasAsset, uint256 asset) = wordAt(facts.collateralGroup.data, 1);
        if (!facts.collateralGroup.success || !hasAsset) return;
        facts.decimalsRead = true;
        facts.collateralDecimals = _call(address(uint160(asset)), abi.encodeWithSignature("decimals()"));
    }

    /// @notice The search of `q` in `direction`, its facts so far encoded in `encodedBytes`, sharing `memo`.
    function _newSearch(Request memory q, bool isLong, uint256 encodedBytes, Memo memory memo) internal pure returns (Search memory) {
        return Search(q, isLong, encodedBytes, memo);
    }

    /// @notice What a search of a held position needs once its market's answer is read (see HeldPositionSearch);
    /// nothing for a new position. The hooks below are a new position's: a held position's searcher overrides them,
    /// so that the new-position searchers carry none of its code (each byte of a deployless call's code is gas).
    function _hold(Request memory q, bytes memory market, bool isLong) internal pure virtual {}

    /// @notice The top of the bisection's range (and the exact rule's cap): collateral / price.
    function _rangeTop(Request memory q, uint256 price, bool) internal pure virtual returns (uint256) {
        return _cap(q.collateralAvailable, price);
    }

    /// @notice The budget the candidates are compared with.
    function _budget(Search memory s) internal pure virtual returns (uint256) {
        return s.q.collateralAvailable;
    }

    /// @notice The quote of a candidate trade of `size`, or none (`quotable` false) for a trade that cannot be quoted.
    function _quoteCall(Search memory s, int256 size) internal pure virtual returns (bool quotable, bytes memory quote) {
        return (true, abi.encodeCall(IMarketGroup.quoteCreateTraderPosition, (s.q.marketId, size)));
    }

    /// @notice A quoted candidate's fill price: a quote's second word (the caller has checked the words are there).
    function _fillPrice(Search memory, bytes memory data) internal pure virtual returns (uint256 fillPrice) {
        (, fillPrice) = wordAt(data, 1);
    }

    /// @notice The candidate of `size`: the memo's when this market quoted it already in this call, else quoted
    /// now (and remembered).
    function _quote(Search memory s, int256 size) internal returns (bool recorded, Candidate memory candidate) {
        Memo memory memo = s.memo;
        bool sameMarket = memo.marketGroup == s.q.marketGroup && memo.marketId == s.q.marketId;
        if (sameMarket) {
            for (uint256 i; i < memo.count; i++) {
                if (memo.sizes[i] != size) continue;
                candidate = memo.candidates[i];
                return (gasleft() >= _reserve(s.encodedBytes + CANDIDATE_HEAD_BYTES + 2 * _padded(candidate.data.length)), candidate);
            }
        }
        (recorded, candidate) = _quoteNow(s, size);
        if (!recorded || memo.sizes.length == 0) return (recorded, candidate);
        if (!sameMarket) (memo.marketGroup, memo.marketId, memo.count) = (s.q.marketGroup, s.q.marketId, 0);
        if (memo.count < memo.sizes.length) {
            memo.sizes[memo.count] = size;
            memo.candidates[memo.count++] = candidate;
        }
    }

    /// @notice Quotes one candidate with all the gas that can be spared; not recorded when that gas may have
    /// been too little (starved), or when too little is left to return its data with the other facts.
    function _quoteNow(Search memory s, int256 size) private returns (bool recorded, Candidate memory candidate) {
        uint256 forwarded = _spareGas(s.encodedBytes + CANDIDATE_HEAD_BYTES + CANDIDATE_DATA_GUESS);
        if (forwarded < MIN_CANDIDATE_GAS) return (false, candidate);
        (bool quotable, bytes memory quote) = _quoteCall(s, size);
        // A trade that cannot be quoted is recorded as a revert without data, as the service does.
        if (!quotable) return (true, Candidate(size, false, "", 0));
        (bool success, uint256 used) = _measuredCall(s.q.marketGroup, quote, forwarded);
        if (!success && used > forwarded - forwarded / STARVED_FRACTION) return (false, candidate);
        uint256 length;
        assembly ("memory-safe") {
            length := returndatasize()
        }
        if (gasleft() < _reserve(s.encodedBytes + CANDIDATE_HEAD_BYTES + 2 * _padded(length))) return (false, candidate);
        bytes memory returned = new bytes(length);
        assembly ("memory-safe") {
            returndatacopy(add(returned, 32), 0, length)
        }
        return (true, Candidate(size, success, returned, used));
    }

    /// @notice Gas a call can be given while `factsBytes` of facts can still be returned afterwards.
    /// @dev Kept below 63/64 of what is left, so the call receives exactly this (the 63/64 rule would cut it).
    function _spareGas(uint256 factsBytes) internal view returns (uint256) {
        uint256 reserve = _reserve(factsBytes);
        uint256 available = gasleft();
        uint256 spare = available - available / 64;
        return spare > reserve ? spare - reserve : 0;
    }

    /// @notice A call with exactly `gas` gas, its return data left unread; the gas it used, call cost included.
    function _measuredCall(address target, bytes memory data, uint256 gas_) internal returns (bool success, uint256 used) {
        uint256 before = gasleft();
        assembly ("memory-safe") {
            success := call(gas_, target, 0, add(data, 32), mload(data), 0, 0)
        }
        used = before - gasleft();
    }

    /// @notice Gas to keep for encoding `factsBytes` of facts and reverting with them.
    /// @dev Memory expansion is quadratic: the encoded copy lands above everything in memory now.
    function _reserve(uint256 factsBytes) internal pure returns (uint256) {
        uint256 words = factsBytes / 32 + 1;
        uint256 memoryWords;
        assembly ("memory-safe") {
            memoryWords := div(add(mload(0x40), 31), 32)
        }
        uint256 end = memoryWords + words;
        return RESERVE_FIXED + words * RESERVE_PER_WORD + (end * end - memoryWords * memoryWords) / 512;
    }

    /// @notice Encoded size of the facts read so far, before any candidate.
    function _encodedBytes(Facts memory facts) internal pure returns (uint256) {
        return 32 * 33 + _padded(facts.market.data.length) + _padded(facts.price.data.length) + _padded(facts.edge.data.length)
            + _padded(facts.collateralGroup.data.length) + _padded(facts.collateralDecimals.data.length)
            + _padded(facts.liquidity.data.length);
    }

    function _padded(uint256 length) internal pure returns (uint256) {
        return (length + 31) / 32 * 32;
    }

    /// @notice collateral * 1e18 / price, rounded down, capped at int256 max (semantics section 4).
    /// @dev The product is taken at 512 bits: when its high word reaches `price`, the quotient needs more than
    /// 256 bits and is above the cap anyway.
    function _cap(uint256 collateralAvailable, uint256 price) internal pure returns (uint256) {
        (uint256 high,) = Math.mul512(collateralAvailable, D18);
        if (high >= price) return MAX_SIZE;
        return Math.min(Math.mulDiv(collateralAvailable, D18, price), MAX_SIZE);
    }

    /// @notice Whether a `getMarket` answer shows a created, unsettled market with the id asked for: the same
    /// words the service decodes (marketId, startTime, settled). Any malformed answer stops the quote.
    function _marketIsOpen(Call memory market, uint256 marketId) internal pure returns (bool) {
        if (!market.success) return false;
        (bool hasOffset, uint256 offset) = wordAt(market.data, 0);
        if (!hasOffset || offset % 32 != 0 || offset > market.data.length) return false;
        uint256 first = offset / 32;
        if (market.data.length < (first + MARKET_DATA_HEAD_WORDS) * 32) return false;
        (, uint256 id) = wordAt(market.data, first);
        (, uint256 startTime) = wordAt(market.data, first + 1);
        (, uint256 settled) = wordAt(market.data, first + SETTLED_WORD);
        return id == marketId && startTime != 0 && settled == 0;
    }

    /// @notice Whether a revert names a market that cannot be quoted at any size (decodable as the service
    /// decodes it: an error with an argument must carry it).
    function _stopsSearch(bytes memory revertData) internal pure returns (bool) {
        if (revertData.length < 4) return false;
        bytes4 selector = bytes4(revertData);
        return selector == MARKET_SETTLED || selector == EPOCH_SETTLED || selector == INVALID_MARKET
            || selector == EXPIRED_MARKET || selector == MARKET_NOT_STARTED
            || (selector == EXPIRED_MARKET_NOT_SETTLED && revertData.length >= 36);
    }

    /// @notice A low-level call that never reverts here, keeping the whole return or revert data.
    /// @dev A CALL, like the service's eth_call of a non-view function: the market group's own simulation
    /// (which reverts internally, Uniswap-quoter style) is free to write state within it.
    function _call(address target, bytes memory data) internal returns (Call memory result) {
        (result.success, result.data) = target.call(data);
    }

    /// @notice Records `candidate` as the `count`th of `candidates` and counts its encoded bytes.
    function _record(Search memory s, Candidate[] memory candidates, uint256 count, Candidate memory candidate) internal pure {
        candidates[count] = candidate;
        s.encodedBytes += CANDIDATE_HEAD_BYTES + _padded(candidate.data.length);
    }

    /// @notice How a recorded candidate bounds the search: whether it quoted, and whether it was too large (over
    /// budget or beyond expectedPrice), with its figures. Classification order: reverted, over budget, beyond
    /// expectedPrice, then short of priceLimit or feasible (both raise the low bound, so priceLimit, which only
    /// tells them apart, is not needed on chain; the service classifies each candidate again from its data).
    /// A held position's searcher overrides it (its quote has four words, and its delta is shifted).
    function _outcome(Search memory s, Candidate memory candidate)
        internal
        pure
        virtual
        returns (bool quoted, bool tooLarge, uint256 requiredCollateral, uint256 priceAfter)
    {
        if (!candidate.success || candidate.data.length < QUOTE_RETURN_LENGTH) return (false, true, 0, 0);
        (requiredCollateral,, priceAfter) = abi.decode(candidate.data, (uint256, uint256, uint256));
        tooLarge = requiredCollateral > s.q.collateralAvailable || (s.isLong ? priceAfter > s.q.expectedPrice : priceAfter < s.q.expectedPrice);
        return (true, tooLarge, requiredCollateral, priceAfter);
    }

    /// @notice Sets the length of `candidates` to the `count` recorded.
    function _truncate(Candidate[] memory candidates, uint256 count) internal pure {
        assembly ("memory-safe") {
            mstore(candidates, count)
        }
    }
}
