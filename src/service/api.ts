// What the service offers the layers above it (the HTTP routes, the CLI, start-up): they depend on these
// interfaces, never on how a quote is made.
import type { HeadStatus } from "../chain/headFollower.ts";
import type { QuoteResponseBody } from "../quote/quoteAnswer.ts";
import type { QuoteRequest } from "../quote/request.ts";

export interface QuoteOptions {
  /** `Cache-Control: no-cache`: not answered from the kept answers, and the endpoint's latest block is read first. */
  readonly noCache?: boolean;
}

export interface Quoter {
  /** The 200 body, or a thrown QuoteError. */
  quote(request: QuoteRequest, options?: QuoteOptions): Promise<QuoteResponseBody>;
}

export interface QuoterService extends Quoter {
  /** Probes every endpoint for deployless calls now, so that no quote pays for it (failures retry later). */
  probe(): Promise<void>;
  /** Starts following each chain's head where that is pushed (a WebSocket endpoint); polling starts with the first quote. */
  start(): Promise<void>;
  /** Stops following the heads (sockets, timers). */
  close(): Promise<void>;
  /** Each chain's head and how it is followed (/health, /ready, metrics). */
  heads(): readonly HeadStatus[];
}
