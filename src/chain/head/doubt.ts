// A chain's head in doubt (semantics §11): an endpoint reported an older head than the newest block seen. While the
// doubt lasts, every endpoint is asked now and then for its latest block and for its block at the head's height; the
// pure HeadRetreat says when it ends: lag (an endpoint has the head there, or a newer block), or a head that moved
// back, whose blocks above are then replaced in the chain's record. By height, not by hash: a node keeps a block a
// reorg replaced, and answers for it by hash, but it is no longer the chain's.
import { ensureChainId } from "../rpc/chainIdCheck.ts";
import { headerByNumber, latestHeader, type BlockHeader } from "./blocks.ts";
import type { ChainRecord } from "./chainRecord.ts";
import type { ChainEndpoint } from "../rpc/client.ts";
import { HeadRetreat } from "./retreat.ts";
import type { HeadLog } from "./log.ts";
import type { Hex } from "viem";

export interface HeadDoubtOptions {
  readonly chainId: number;
  readonly endpoints: readonly ChainEndpoint[];
  /** HEAD_MOVED_BACK_MS. */
  readonly boundMs: number;
  readonly record: ChainRecord;
  /** Whether the chain is asked about: endpoints are checked only then. */
  readonly wanted: () => boolean;
  /** An endpoint's latest block, observed in order with the follower's other headers. */
  readonly observe: (header: BlockHeader) => Promise<void>;
  /** Runs a step in order with the follower's observations. */
  readonly serially: (step: () => void) => Promise<void>;
  /** The head moved back: these blocks were replaced. */
  readonly movedBack: (replaced: readonly Hex[]) => void;
  readonly log?: HeadLog | undefined;
}

export class HeadDoubt {
  private readonly retreat: HeadRetreat;
  /** The next check of every endpoint. */
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: HeadDoubtOptions) {
    this.retreat = new HeadRetreat(options.boundMs, Date.now());
  }

  /** The head, or a newer block, was reported or served: it is the chain's. */
  confirmed(): void {
    this.retreat.confirmed(Date.now());
  }

  /** An endpoint reported `header` as its latest block, older than the head: lag, unless it lasts. */
  older(header: BlockHeader): void {
    this.retreat.older(header, Date.now());
    this.checkSoon();
  }

  close(): void {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
  }

  private checkSoon(): void {
    if (this.timer !== undefined || this.closed || !this.retreat.doubted || !this.options.wanted()) return;
    this.timer = setTimeout(() => {
      void this.check().finally(() => {
        this.timer = undefined;
        this.checkSoon();
      });
    }, this.retreat.checkEveryMs);
    this.timer.unref();
  }

  /**
   * Asks every endpoint for its latest block and its block at the head's height. One that has the head there, or a
   * newer block, confirms it (another block there is a reorg, observed as such); when none does, the check counts
   * towards the head having moved back, which is decided here.
   */
  private async check(): Promise<void> {
    const { record, endpoints } = this.options;
    const head = record.head;
    if (head === undefined) return;
    const answers = await Promise.all(
      endpoints.map(async (endpoint) => {
        try {
          await ensureChainId(endpoint);
          const [latest, atHeight] = await Promise.all([latestHeader(endpoint), headerByNumber(endpoint, head.number)]);
          return { latest, atHeight };
        } catch {
          return undefined; // no word either way
        }
      }),
    );
    const answered = answers.filter((answer) => answer !== undefined);
    if (answered.length === 0) return;
    if (answered.some(({ atHeight }) => atHeight?.hash === head.hash)) return this.confirmed();
    for (const { latest, atHeight } of answered) {
      if (atHeight !== undefined) await this.options.observe(atHeight);
      await this.options.observe(latest);
    }
    await this.options.serially(() => {
      if (record.head !== head || !this.retreat.doubted) return;
      this.retreat.checked();
      const to = this.retreat.movedBackTo(Date.now());
      if (to !== undefined) this.moveBack(head, to);
    });
  }

  /** The head moved back to `to`: the blocks above are replaced, and `to` is the head. */
  private moveBack(from: BlockHeader, to: BlockHeader): void {
    const replaced = this.options.record.moveBack(to);
    this.confirmed();
    this.options.log?.warn(
      {
        chainId: this.options.chainId,
        from: { blockNumber: from.number.toString(), blockHash: from.hash },
        to: { blockNumber: to.number.toString(), blockHash: to.hash },
        replaced,
      },
      `chain head moved back from block ${from.number} to ${to.number}: answers of the blocks above are dropped`,
    );
    this.options.movedBack(replaced);
  }
}
