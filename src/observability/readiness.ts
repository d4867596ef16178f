// Readiness: does each configured chain answer? Every endpoint of every chain is asked eth_blockNumber at once;
// a chain is ready when one of its endpoints answers within the timeout (a quote falls back across them).
import { latestBlockNumber } from "../chain/rpc/call.ts";
import type { ChainEndpoint, ChainRegistry } from "../chain/rpc/client.ts";
import { SETTINGS } from "../config.ts";

export interface ChainReadiness {
  readonly chainId: number;
  readonly ready: boolean;
  /** Endpoints configured, and those that answered in time. No URL: they often carry API keys. */
  readonly endpoints: number;
  readonly answering: number;
  /** The highest latest block among the endpoints that answered. */
  readonly blockNumber?: string;
}

export interface Readiness {
  readonly ready: boolean;
  readonly chains: readonly ChainReadiness[];
}

export interface ReadinessOptions {
  /** How long each endpoint has to answer, in ms (READY_TIMEOUT_MS's default when absent). */
  readonly timeoutMs?: number;
  /**
   * A check younger than this is answered again instead of asking the chains (default 1,000 ms), and checks
   * asked for while one runs share it: /ready is not rate limited, so it must not turn into RPC traffic.
   */
  readonly reuseMs?: number;
}

export const DEFAULT_READY_TIMEOUT_MS = SETTINGS.READY_TIMEOUT_MS.default;

export function createReadinessCheck(chains: ChainRegistry, options: ReadinessOptions = {}): () => Promise<Readiness> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  const reuseMs = options.reuseMs ?? 1_000;
  let last: { at: number; readiness: Readiness } | undefined;
  let running: Promise<Readiness> | undefined;

  async function check(): Promise<Readiness> {
    const results = await Promise.all(
      [...chains.values()].map(async ({ chainId, endpoints }): Promise<ChainReadiness> => {
        const blocks = (await Promise.all(endpoints.map((endpoint) => answerWithin(endpoint, timeoutMs)))).filter(
          (block): block is bigint => block !== undefined,
        );
        const highest = blocks.reduce<bigint | undefined>((max, block) => (max === undefined || block > max ? block : max), undefined);
        return {
          chainId,
          ready: blocks.length > 0,
          endpoints: endpoints.length,
          answering: blocks.length,
          ...(highest === undefined ? {} : { blockNumber: highest.toString() }),
        };
      }),
    );
    return { ready: results.every((chain) => chain.ready), chains: results };
  }

  return () => {
    if (last && Date.now() - last.at < reuseMs) return Promise.resolve(last.readiness);
    running ??= check()
      .then((readiness) => {
        last = { at: Date.now(), readiness };
        return readiness;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
}

/** The endpoint's latest block, or undefined when it fails or does not answer within `timeoutMs`. */
async function answerWithin(endpoint: ChainEndpoint, timeoutMs: number): Promise<bigint | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  try {
    return await Promise.race([latestBlockNumber(endpoint).catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
