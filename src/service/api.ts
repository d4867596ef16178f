// What the service offers the layers above it (the HTTP routes, the CLI, start-up): they depend on these
// interfaces, never on how a quote is made.
import type { QuoteResponseBody } from "../quote/answer.ts";
import type { QuoteRequest } from "../quote/request.ts";

export interface Quoter {
  /** The 200 body, or a thrown QuoteError. */
  quote(request: QuoteRequest): Promise<QuoteResponseBody>;
}

export interface QuoterService extends Quoter {
  /** Probes every endpoint for deployless calls now, so that no quote pays for it (failures retry later). */
  probe(): Promise<void>;
}
