// A chain's latest block polled through its HTTP endpoints, while quotes ask about the chain and no WebSocket
// pushes its heads: at half the chain's block time, at most HEAD_POLL_MS and at least MIN_POLL_MS apart, and not
// at all once nobody has asked for a while. Reads that quotes ask for at the same time share one request.
import { ensureChainId } from "../rpc/chainIdCheck.ts";
import { latestHeader, type BlockHeader } from "./blocks.ts";
import { ChainUnavailableError, EndpointsFailedError, type EndpointFailure } from "../rpc/chainErrors.ts";
import type { ChainClient } from "../rpc/client.ts";
import { abortable } from "../rpc/waiting.ts";

/** The most the follower polls: at least this long apart, whatever the block time. */
export const MIN_POLL_MS = 100;
export const DEFAULT_IDLE_MS = 30_000;

export interface HeadPollerOptions {
  readonly chain: ChainClient;
  /** The longest interval between two polls (HEAD_POLL_MS). */
  readonly pollMs: number;
  /** Polling stops this long after the last quote of the chain. */
  readonly idleMs: number;
  readonly timeoutMs: number;
  /** The chain's mean block time, once known. */
  readonly blockTimeMs: () => number | undefined;
  /** Each latest block read, observed before it is returned; answers the newest head it then knows. */
  readonly onHeader: (header: BlockHeader) => Promise<BlockHeader>;
  /** Whether heads are pushed now: then no poll is needed. */
  readonly pushed: () => boolean;
}

export class HeadPoller {
  private lastAskedAt = 0;
  private holders = 0;
  private lastReadAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private reading: Promise<BlockHeader> | undefined;
  private closed = false;

  constructor(private readonly options: HeadPollerOptions) {}

  /** Polls now or soon: a quote asks about the chain. */
  asked(): void {
    this.lastAskedAt = Date.now();
    this.keepPolling();
  }

  /** Keeps polling until the returned release is called (a live stream watches the chain), idle or not. */
  hold(): () => void {
    this.holders++;
    this.keepPolling();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holders--;
      this.asked(); // then idle as after a quote
    };
  }

  /** Whether the chain is held, or was asked about recently enough, to be polled. */
  get wanted(): boolean {
    return this.holders > 0 || Date.now() - this.lastAskedAt <= this.options.idleMs;
  }

  get polling(): boolean {
    return this.timer !== undefined || this.reading !== undefined;
  }

  /** Whether the polls keep the head up to date: one answered within two intervals (and a request's timeout). */
  get current(): boolean {
    return this.timer !== undefined && Date.now() - this.lastReadAt < 2 * this.interval() + this.options.timeoutMs;
  }

  keepPolling(): void {
    if (this.closed || this.timer !== undefined || this.options.pushed() || !this.wanted) return;
    this.timer = setTimeout(() => {
      void this.read()
        .catch(() => undefined)
        .finally(() => {
          this.timer = undefined;
          this.keepPolling();
        });
    }, this.interval());
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  close(): void {
    this.closed = true;
    this.stop();
  }

  /** Reads an endpoint's latest block now, shared with the reads in flight; `signal` abandons the wait only. */
  read(signal?: AbortSignal): Promise<BlockHeader> {
    this.reading ??= this.readLatest().finally(() => {
      this.reading = undefined;
    });
    const shared = this.reading;
    return signal === undefined ? shared : abortable(shared, signal);
  }

  private interval(): number {
    const blockTime = this.options.blockTimeMs();
    const { pollMs } = this.options;
    return blockTime === undefined ? pollMs : Math.min(pollMs, Math.max(MIN_POLL_MS, Math.floor(blockTime / 2)));
  }

  /** The latest block of the first endpoint that answers it, observed before it is returned; else every failure. */
  private async readLatest(): Promise<BlockHeader> {
    const failures: EndpointFailure[] = [];
    for (const endpoint of this.options.chain.endpoints) {
      try {
        await ensureChainId(endpoint);
        const latest = await latestHeader(endpoint);
        this.lastReadAt = Date.now();
        return await this.options.onHeader(latest);
      } catch (error) {
        if (!(error instanceof ChainUnavailableError)) throw error;
        error.source ??= endpoint.source;
        failures.push({ endpoint, error });
      }
    }
    throw new EndpointsFailedError(this.options.chain.chainId, failures);
  }
}
