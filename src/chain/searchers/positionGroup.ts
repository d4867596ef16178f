// The market group calls of a held position's quote (semantics §9, §13): how each is encoded, and how its raw answer
// reads. Both strategies go through these pure functions, and the position searcher (contracts/PositionSearcher.sol)
// reads the same words by the same rules: the owner (the first word, an address), the kind and market of getPosition
// (its second and third words), the size (getPositionSize's word, signed).
import { decodeAbiParameters, encodeFunctionData, getAbiItem, getAddress, parseAbi, type Address, type Hex } from "viem";
import type { ModifyQuote } from "../../quote/positionSearch.ts";
import type { RawCall } from "../rpc/call.ts";
import { bytesOf, wordAt } from "../rpc/decode.ts";
import { decodeRevert, marketGroupAbi } from "./marketGroup.ts";
import type { Evaluation } from "../../quote/search.ts";

const ownerAbi = parseAbi(["function ownerOf(uint256 tokenId) view returns (address)"]);
const modifyOutputs = getAbiItem({ abi: marketGroupAbi, name: "quoteModifyTraderPosition" }).outputs;

/** getPosition's kind of a trader position (1 is liquidity). */
const TRADE_KIND = 2n;
const TWO_255 = 1n << 255n;

export const encodeOwnerOf = (positionId: bigint): Hex => encodeFunctionData({ abi: ownerAbi, functionName: "ownerOf", args: [positionId] });
export const encodeGetPosition = (positionId: bigint): Hex => encodeFunctionData({ abi: marketGroupAbi, functionName: "getPosition", args: [positionId] });
export const encodeGetPositionSize = (positionId: bigint): Hex =>
  encodeFunctionData({ abi: marketGroupAbi, functionName: "getPositionSize", args: [positionId] });
export const encodeQuoteModify = (positionId: bigint, size: bigint): Hex =>
  encodeFunctionData({ abi: marketGroupAbi, functionName: "quoteModifyTraderPosition", args: [positionId, size] });

/** Word `index` of a successful answer, when it has it. */
const wordOf = (raw: RawCall, index: number): bigint | undefined => (raw.success ? wordAt(raw.data, index) : undefined);

/** The owner `ownerOf` names: its first word, when it is an address; none when it reverted (no such position). */
export function interpretOwner(raw: RawCall): Address | undefined {
  const word = wordOf(raw, 0);
  if (word === undefined || word >> 160n !== 0n) return undefined;
  return getAddress(`0x${word.toString(16).padStart(40, "0")}`);
}

/** What getPosition says: a trader position's market, a position of another kind, or nothing readable. */
export type PositionCheck = { readonly kind: "trade"; readonly marketId: bigint } | { readonly kind: "other"; readonly positionKind: bigint } | { readonly kind: "unreadable" };

export function interpretPosition(raw: RawCall): PositionCheck {
  const kind = wordOf(raw, 1);
  const marketId = wordOf(raw, 2);
  if (kind === undefined || marketId === undefined) return { kind: "unreadable" };
  return kind === TRADE_KIND ? { kind: "trade", marketId } : { kind: "other", positionKind: kind };
}

/** getPositionSize's signed size; none when it could not be read. */
export function interpretPositionSize(raw: RawCall): bigint | undefined {
  const word = wordOf(raw, 0);
  return word === undefined ? undefined : word >= TWO_255 ? word - (TWO_255 << 1n) : word;
}

/** One candidate's quoteModifyTraderPosition, or its revert with the decoded error (as a new position's). */
export function interpretModifyQuote(raw: RawCall): { kind: "quoted"; modify: ModifyQuote } | Extract<Evaluation, { kind: "reverted" }> {
  if (raw.success) {
    try {
      const [collateralDelta, closePnL, fillPrice, priceAfter] = decodeAbiParameters(modifyOutputs, bytesOf(raw.data));
      return { kind: "quoted", modify: { collateralDelta, closePnL, fillPrice, priceAfter } };
    } catch {
      // undecodable: a revert (semantics §1)
    }
  }
  const error = raw.success ? undefined : decodeRevert(raw.data);
  return error === undefined ? { kind: "reverted", data: raw.data } : { kind: "reverted", data: raw.data, errorName: error.name, errorArgs: error.args };
}
