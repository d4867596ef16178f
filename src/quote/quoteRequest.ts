// What a quote request is once read: a leaf of types, so that the table of parameters (params.ts), which is typed
// by it, and the parser (request.ts), which reads by the table, import it without importing each other.
import type { Address } from "viem";

/** §4: the interface's bisection (default), or §4b: the largest size, proven. */
export type SearchMode = "bisection" | "exact";

export type QuoteRequest = {
  chainId: number;
  /** EIP-55 checksummed. */
  marketAddress: Address;
  marketId: bigint;
  /** D18; may be zero or negative here: §3.2 checks it next. */
  expectedPrice: bigint;
  /** Wei. */
  collateralAvailable: bigint;
  maxIterations: number;
  /** D18, > 0; absent means the current price (§3.9). */
  priceLimit?: bigint;
  trace: boolean;
  /** §4: the interface's bisection (default), or §4b: the largest size, proven. */
  search: SearchMode;
  /** §11: the answer is at this block or later (read-your-writes after a trade); absent: the newest block seen. */
  minBlock?: bigint;
  /**
   * §12: the account that will trade (EIP-55 checksummed): the answer then adds `trade`, the transaction ready to
   * sign. Absent: the answer is as before §12, byte for byte.
   */
  taker?: Address;
  /** §12: room for the price to move, in basis points of maxCollateral (0 to 5000); absent: 50. */
  slippageBps?: number;
  /** §12: the trade's deadline, in seconds after the answer's block (1 to 86400); absent: 300. */
  deadlineSeconds?: number;
};
