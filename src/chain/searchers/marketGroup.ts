// The three market group calls of a quote (semantics §1): how each is encoded, and how its raw answer reads.
// Both search strategies go through these pure functions, so they read the same bytes the same way.
import { decodeAbiParameters, encodeFunctionData, getAbiItem, parseAbi, type Address, type Hex } from "viem";
import { marketGroupAbi } from "../../generated/contracts.ts";
import { atBlock } from "../../quote/quoteErrors.ts";
import type { Evaluation } from "../../quote/search.ts";
import type { BlockPin, RawCall } from "../rpc/call.ts";
import { bytesOf, decodeError, errorsBySelector } from "../rpc/decode.ts";

export { marketGroupAbi };

/**
 * Errors decoded by name: the real Sapience market group's (semantics §9, signatures exact), `EpochSettled()` of
 * the epoch-era groups, and the reference group's own; Solidity's `Error(string)` and `Panic(uint256)` come with them.
 */
const knownErrors = errorsBySelector([
  ...parseAbi([
    "error InvalidData(string message)",
    "error InvalidMarket()",
    "error MarketSettled()",
    "error EpochSettled()",
    "error MarketNotStarted()",
    "error ExpiredMarket()",
    "error ExpiredMarketNotSettled(uint256 marketEndTime)",
    "error PoolPriceOutOfRange(uint160 poolPrice, uint160 minPrice, uint160 maxPrice)",
    "error TradePriceOutOfBounds(uint256 tradeRatioD18, uint256 minTradeRatioD18, uint256 maxTradeRatioD18)",
    "error InsufficientCollateral(uint256 amountRequired, uint256 collateralAvailable)",
    "error InvalidInternalTradeSize(uint256 tradeSize)",
    // A trade's (semantics §9, §12), and the collateral token's: OpenZeppelin 5's ERC-20 errors, SafeERC20's.
    "error TransactionExpired(uint256 deadline, uint256 blockTime)",
    "error DeltaTradeIsZero()",
    "error PositionSizeBelowMin()",
    "error CollateralLimitReached(int256 collateralRequired, int256 maxCollateral)",
    "error NotAccountOwner(uint256 tokenId, address sender)",
    "error InvalidPositionKind()",
    "error TokenDoesNotExist(uint256 tokenId)",
    "error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)",
    "error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)",
    "error ERC20InvalidSender(address sender)",
    "error ERC20InvalidReceiver(address receiver)",
    "error ERC20InvalidApprover(address approver)",
    "error ERC20InvalidSpender(address spender)",
    "error SafeERC20FailedOperation(address token)",
    "error ERC721InvalidReceiver(address receiver)",
  ]),
  ...marketGroupAbi.filter((item) => item.type === "error"),
]);

/** The outputs of the calls a quote reads, looked up once. */
const getMarketOutputs = getAbiItem({ abi: marketGroupAbi, name: "getMarket" }).outputs;
const getReferencePriceOutputs = getAbiItem({ abi: marketGroupAbi, name: "getReferencePrice" }).outputs;
const quoteOutputs = getAbiItem({ abi: marketGroupAbi, name: "quoteCreateTraderPosition" }).outputs;

/** The collateral reads of semantics §10: the group's collateral token, and its decimals. */
const collateralAbi = parseAbi([
  "function getMarketGroup() view returns (address owner, address collateralAsset, address feeCollectorNFT, (uint24 feeRate, uint64 assertionLiveness, uint256 bondAmount, address bondCurrency, address uniswapPositionManager, address uniswapSwapRouter, address uniswapQuoter, address optimisticOracleV3) marketParams)",
  "function decimals() view returns (uint8)",
]);

const decimalsOutputs = getAbiItem({ abi: collateralAbi, name: "decimals" }).outputs;

/** Decimals of a collateral token that cannot be read (semantics §3.6, §10). */
const DEFAULT_COLLATERAL_DECIMALS = 18;

/** A missing market names the parameter to change: the address (no market group there) or the id (none in it). */
export type MarketCheck =
  | { kind: "found"; settled: boolean; minPrice: bigint; maxPrice: bigint; feeRate: bigint; pool: Address }
  | { kind: "missing"; param: "marketAddress" | "marketId"; reason: string };

export const encodeGetMarket = (marketId: bigint): Hex =>
  encodeFunctionData({ abi: marketGroupAbi, functionName: "getMarket", args: [marketId] });

export const encodeGetReferencePrice = (marketId: bigint): Hex =>
  encodeFunctionData({ abi: marketGroupAbi, functionName: "getReferencePrice", args: [marketId] });

export const encodeQuote = (marketId: bigint, signedSize: bigint): Hex =>
  encodeFunctionData({ abi: marketGroupAbi, functionName: "quoteCreateTraderPosition", args: [marketId, signedSize] });

/** Decodes a successful answer; one that cannot be decoded counts as a revert (semantics §1). */
export function decodeSuccess<T>(raw: RawCall, decode: (data: Uint8Array) => T): T | undefined {
  if (!raw.success) return undefined;
  try {
    return decode(bytesOf(raw.data));
  } catch {
    return undefined;
  }
}

export const encodeGetMarketGroup = (): Hex => encodeFunctionData({ abi: collateralAbi, functionName: "getMarketGroup" });

export const encodeDecimals = (): Hex => encodeFunctionData({ abi: collateralAbi, functionName: "decimals" });

/** A Uniswap v3 pool's liquidity in range, which the exact search's first guesses read (semantics §4b). */
const poolAbi = parseAbi(["function liquidity() view returns (uint128)"]);
export const encodePoolLiquidity = (): Hex => encodeFunctionData({ abi: poolAbi, functionName: "liquidity" });

/** The pool's liquidity from its answer, as the searcher reads it: the first word of a success below 2^128; else 0 (unknown). */
export function interpretPoolLiquidity(raw: RawCall): bigint {
  if (!raw.success || raw.data.length < 66) return 0n;
  const word = BigInt(raw.data.slice(0, 66));
  return word >> 128n === 0n ? word : 0n;
}

/** Every error decodeRevert knows, by selector, with its arguments' names and types: what the explorer decodes a wallet's revert with. */
export function knownErrorList(): { selector: string; name: string; inputs: { name: string; type: string }[] }[] {
  return [...knownErrors].map(([selector, error]) => ({ selector, name: error.name, inputs: error.inputs.map((input, index) => ({ name: input.name || `arg${index}`, type: input.type })) }));
}

/** A decoded revert: the error's name and its arguments by name (decimal strings for numbers). */
export type DecodedRevert = { name: string; args: Record<string, string> };

/** The error's name and arguments (custom, or viem's built-in `Error`/`Panic`); undefined when nothing matches. */
export function decodeRevert(data: Hex): DecodedRevert | undefined {
  try {
    const decoded = decodeError(knownErrors, data);
    if (decoded === undefined) return undefined;
    const args: Record<string, string> = {};
    decoded.error.inputs.forEach((input, index) => {
      args[input.name || `arg${index}`] = String(decoded.args[index]);
    });
    return { name: decoded.error.name, args };
  } catch {
    return undefined;
  }
}

/** The custom error's name (or viem's built-in `Error`/`Panic`), or undefined when the data matches nothing. */
function decodeErrorName(data: Hex): string | undefined {
  return decodeRevert(data)?.name;
}

/**
 * Semantics §3.5: no code at the address, `getMarket` reverting (or undecodable), a `marketId` field other
 * than the one asked for, or a zero `startTime` (never created) mean the market does not exist: at `block`, which
 * the reason names (§11: a newer block may have it).
 */
export function interpretMarket(raw: RawCall, marketId: bigint, block: BlockPin): MarketCheck {
  const at = atBlock(block);
  const decoded = decodeSuccess(raw, (data) => decodeAbiParameters(getMarketOutputs, data));
  if (decoded === undefined) {
    if (raw.success && raw.data === "0x") {
      return { kind: "missing", param: "marketAddress", reason: `no contract at this address on this chain ${at}: check the market group's address and the chain id` };
    }
    const name = raw.success ? undefined : decodeErrorName(raw.data);
    return {
      kind: "missing",
      param: "marketAddress",
      reason: `getMarket(${marketId}) reverted${name ? ` with ${name}()` : ""} ${at} or answered something else: is this address a market group?`,
    };
  }
  const [market, params] = decoded;
  if (market.marketId !== marketId) {
    return {
      kind: "missing",
      param: "marketId",
      reason: `market ${marketId} does not exist in this market group ${at} (getMarket answered for market ${market.marketId}): check the market id`,
    };
  }
  if (market.startTime === 0n) {
    return { kind: "missing", param: "marketId", reason: `market ${marketId} was never created in this market group ${at}: check the market id` };
  }
  return { kind: "found", settled: market.settled, minPrice: market.minPriceD18, maxPrice: market.maxPriceD18, feeRate: BigInt(params.feeRate), pool: market.pool };
}

/** Semantics §3.6: the D18 reference price, or undefined when `getReferencePrice` reverts or returns 0. */
export function interpretReferencePrice(raw: RawCall): bigint | undefined {
  const price = decodeSuccess(raw, (data) => decodeAbiParameters(getReferencePriceOutputs, data)[0]);
  return price === undefined || price === 0n ? undefined : price;
}

/** One candidate's quote, or its revert with the decoded error (name and arguments) that the search classifies. */
export function interpretQuote(raw: RawCall): Evaluation {
  const decoded = decodeSuccess(raw, (data) => decodeAbiParameters(quoteOutputs, data));
  if (decoded === undefined) {
    const error = raw.success ? undefined : decodeRevert(raw.data);
    return error === undefined
      ? { kind: "reverted", data: raw.data }
      : { kind: "reverted", data: raw.data, errorName: error.name, errorArgs: error.args };
  }
  const [requiredCollateral, fillPrice, priceAfter] = decoded;
  return { kind: "quoted", quote: { requiredCollateral, fillPrice, priceAfter } };
}

/**
 * Semantics §10: the collateral token named by a `getMarketGroup` answer (its second word), when the call
 * succeeded with at least two words; the searcher on chain reads it by the same rule. Undefined: 18 decimals.
 */
export function interpretCollateralAsset(raw: RawCall): Hex | undefined {
  if (!raw.success || raw.data.length < 2 + 128) return undefined;
  return `0x${raw.data.slice(2 + 64 + 24, 2 + 128)}`;
}

/** Semantics §3.6, §10: the token's `decimals()`, or 18 when it reverts or answers something else. */
export function interpretCollateralDecimals(raw: RawCall | undefined): number {
  if (raw === undefined) return DEFAULT_COLLATERAL_DECIMALS;
  const decimals = decodeSuccess(raw, (data) => decodeAbiParameters(decimalsOutputs, data)[0]);
  return decimals ?? DEFAULT_COLLATERAL_DECIMALS;
}
