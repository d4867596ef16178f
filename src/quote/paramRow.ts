// What one row of the table of quote parameters (params.ts) says, and the address rule two rows share (the market
// group's and the taker's): a leaf, so that the table and the rules of its rows import it without each other.
import { getAddress, type Address } from "viem";
import type { Parsed } from "./fixedPoint.ts";

/** Every parameter's text is at most this long, whatever its own rule (semantics §2). */
export const MAX_PARAMETER_LENGTH = 100;

export type ParamLocation = "path" | "query";

export interface QuoteParam<T> {
  readonly in: ParamLocation;
  readonly required: boolean;
  /** Reads one text value of at most MAX_PARAMETER_LENGTH characters: the value, or the rule it broke. */
  readonly parse: (text: string) => Parsed<T>;
  /** The value of an optional parameter left out; none: the request has no such field. */
  readonly default?: T;
  /** The text's shape for the documents (JSON Schema); the parser checks it and more (ranges, checksums). */
  readonly pattern?: string;
  readonly enum?: readonly string[];
  readonly description: string;
  readonly example: string;
  /** `quoter quote`'s option; a path parameter is a positional argument instead. `sends`: a switch that sends this. */
  readonly cli?: { readonly flag: string; readonly sends?: string };
  /** The explorer's form field; none where the page has a control of its own (search) or sets it (trace). */
  readonly explorer?: { readonly label: string; readonly wide?: boolean; readonly placeholder?: string };
}

export const ADDRESS_PATTERN = "^0x[0-9a-fA-F]{40}$";
const ADDRESS = new RegExp(ADDRESS_PATTERN);
export const ADDRESS_FORMAT_RULE = "must be 0x followed by 40 hexadecimal digits";
export const ADDRESS_CHECKSUM_RULE = "mixed-case address fails the EIP-55 checksum";

/** `0x` + 40 hex digits, all-lower, all-upper, or mixed case with a valid EIP-55 checksum; returned checksummed. */
export function parseAddress(text: string): Parsed<Address> {
  if (!ADDRESS.test(text)) return { ok: false, error: ADDRESS_FORMAT_RULE };
  const hex = text.slice(2);
  const checksummed = getAddress(`0x${hex.toLowerCase()}`);
  const singleCase = hex === hex.toLowerCase() || hex === hex.toUpperCase();
  if (!singleCase && checksummed !== text) {
    // A wrong checksum often means a typo: the form is offered only for digits the caller has checked.
    return { ok: false, error: `${ADDRESS_CHECKSUM_RULE}; if its digits are right, its checksummed form is ${checksummed}` };
  }
  return { ok: true, value: checksummed };
}
