// What /health, /ready and the metrics say of each chain's head: how it is followed, the head, its counts.
import type { Hex } from "viem";

/** How a chain's head is followed now: pushed, polled, or not at all (nobody asked for a while). */
export type FollowMode = "subscription" | "polling" | "idle";

export interface HeadStatus {
  readonly chainId: number;
  readonly followedBy: FollowMode;
  /** The WebSocket endpoint's state, when one is configured. */
  readonly webSocket?: "connected" | "connecting" | "wrong-chain";
  /** The chain the WebSocket endpoint serves, when it is another. */
  readonly webSocketChainId?: number;
  readonly head?: { readonly blockNumber: string; readonly blockHash: Hex; readonly ageMs: number };
  /** The mean block time the polling follows, when known. */
  readonly blockTimeMs?: number;
  /** Since start: new heads followed, reorgs seen, and the blocks they replaced. */
  readonly newHeads: number;
  readonly reorgs: number;
  readonly replacedBlocks: number;
}
