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
  /** Since start: times the head moved back (every endpoint kept reporting an older head). */
  readonly movedBack: number;
}

/** A follower's status: how it follows the head now (the socket's state first), the head and how old it is, its counts. */
export function headStatusOf(follower: {
  readonly chainId: number;
  readonly socket: { readonly live: boolean; readonly state: "connected" | "connecting" | "wrong-chain"; readonly otherChainId: number | undefined } | undefined;
  readonly polling: boolean;
  readonly head: { readonly number: bigint; readonly hash: Hex } | undefined;
  /** When the head was last seen, epoch ms. */
  readonly headSeenAt: number;
  readonly blockTimeMs: number | undefined;
  readonly counts: Pick<HeadStatus, "newHeads" | "reorgs" | "replacedBlocks" | "movedBack">;
}): HeadStatus {
  const { chainId, socket, polling, head, headSeenAt, blockTimeMs, counts } = follower;
  return {
    chainId,
    followedBy: socket?.live ? "subscription" : polling ? "polling" : "idle",
    ...(socket ? { webSocket: socket.state } : {}),
    ...(socket?.state === "wrong-chain" && socket.otherChainId !== undefined ? { webSocketChainId: socket.otherChainId } : {}),
    ...(head ? { head: { blockNumber: head.number.toString(), blockHash: head.hash, ageMs: Date.now() - headSeenAt } } : {}),
    ...(blockTimeMs === undefined ? {} : { blockTimeMs }),
    ...counts,
  };
}
