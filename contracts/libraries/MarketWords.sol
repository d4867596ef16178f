// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

/// @title MarketWords: where the searchers find what they read in `getMarket`'s answer
/// @notice The searchers read that answer word by word, never abi.decode (a malformed answer must not revert them),
/// so the layout is written here once, and the build checks every word against IMarketGroup's ABI
/// (scripts/build-contracts.ts): a changed struct fails the build, not every quote. The build also writes these
/// constants to src/generated/contracts.ts (`marketWords`), which the service's own plan of the price edge reads by.
/// Word 0 is the offset of the dynamic MarketData; MarketParams (static) follows inline, one word per field from
/// word 1; MarketData's head, one word per field, starts at that offset.

/// @dev MarketParams.feeRate and MarketParams.uniswapQuoter, as head words of the answer.
uint256 constant FEE_WORD = 1;
uint256 constant QUOTER_WORD = 7;
/// @dev MarketData's fields, counted from its head: marketId and startTime are its first two words.
uint256 constant POOL_WORD = 3;
uint256 constant QUOTE_TOKEN_WORD = 4;
uint256 constant BASE_TOKEN_WORD = 5;
uint256 constant MIN_PRICE_WORD = 6;
uint256 constant MAX_PRICE_WORD = 7;
uint256 constant SETTLED_WORD = 10;
uint256 constant MARKET_DATA_HEAD_WORDS = 15;

/// @notice Word `index` of `data`, and whether `data` holds it (0 when not).
function wordAt(bytes memory data, uint256 index) pure returns (bool, uint256 word) {
    if (data.length < (index + 1) * 32) return (false, 0);
    assembly ("memory-safe") {
        word := mload(add(add(data, 32), mul(index, 32)))
    }
    return (true, word);
}
