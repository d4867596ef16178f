// Each chain's head as metrics, read from the head followers at each scrape: its block and age, how it is followed,
// and the counts of new heads, reorgs and replaced blocks since start.
import { Counter, Gauge, type Registry } from "prom-client";
import type { FollowMode, HeadStatus } from "../chain/head/follower.ts";

export const HEAD_METRIC_NAMES = {
  headBlock: "quoter_chain_head_block",
  headAge: "quoter_chain_head_age_seconds",
  followMode: "quoter_chain_follow_mode",
  newHeads: "quoter_chain_new_heads_total",
  reorgs: "quoter_chain_reorgs_total",
  replacedBlocks: "quoter_chain_replaced_blocks_total",
  movedBack: "quoter_chain_head_moved_back_total",
} as const;

const METRIC_NAMES = HEAD_METRIC_NAMES;
const FOLLOW_MODES: readonly FollowMode[] = ["subscription", "polling", "idle"];

/** Registers the head metrics in `registry`; `observe` names where the heads are read from (none until then). */
export function registerHeadMetrics(registry: Registry): { observe(source: () => readonly HeadStatus[]): void } {
  let heads: () => readonly HeadStatus[] = () => [];
  /**
   * A metric's options by chain, its value read from the head followers at each scrape (chains without one left
   * out): a gauge is set to it, a counter (reset) counts up to it, a count the followers keep.
   */
  const perChain = (name: string, help: string, value: (head: HeadStatus) => number | undefined) => ({
    name,
    help,
    labelNames: ["chain_id"] as const,
    registers: [registry],
    collect(this: Gauge<"chain_id"> | Counter<"chain_id">) {
      this.reset();
      for (const head of heads()) {
        const read = value(head);
        if (read === undefined) continue;
        const labels = { chain_id: String(head.chainId) };
        if (this instanceof Gauge) this.set(labels, read);
        else this.inc(labels, read);
      }
    },
  });
  new Gauge(
    perChain(METRIC_NAMES.headBlock, "The newest head of each chain the service has seen (the block new quotes are answered at)", (head) =>
      head.head === undefined ? undefined : Number(head.head.blockNumber),
    ),
  );
  new Gauge(
    perChain(METRIC_NAMES.headAge, "Seconds since that head was last seen (pushed, polled, or read by a quote)", (head) =>
      head.head === undefined ? undefined : head.head.ageMs / 1000,
    ),
  );
  new Counter(perChain(METRIC_NAMES.newHeads, "New heads followed since start", (head) => head.newHeads));
  new Counter(perChain(METRIC_NAMES.reorgs, "Reorgs seen since start: a head whose block is not on the recorded chain", (head) => head.reorgs));
  new Counter(perChain(METRIC_NAMES.replacedBlocks, "Blocks found replaced since start: their answers are dropped", (head) => head.replacedBlocks));
  new Counter(perChain(METRIC_NAMES.movedBack, "Times the head moved back since start: every endpoint kept reporting an older head", (head) => head.movedBack));
  new Gauge({
    name: METRIC_NAMES.followMode,
    help: "How each chain's head is followed now: 1 for the mode in use (subscription: pushed over WebSocket; polling; idle: nobody asked lately)",
    labelNames: ["chain_id", "mode"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const head of heads()) {
        for (const mode of FOLLOW_MODES) this.set({ chain_id: String(head.chainId), mode }, head.followedBy === mode ? 1 : 0);
      }
    },
  });
  return {
    observe(source) {
      heads = source;
    },
  };
}
