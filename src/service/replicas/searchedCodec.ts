// A search's outcome at one block as replicas pass it to each other through Redis: the 200 body or the quote error
// (a search's errors are answers too: the same at that block wherever asked), and what the search did. Read back,
// anything that is not exactly that shape is no answer (another version of the service wrote it): the reader then
// searches itself.
import { MESSAGES, QuoteError, type ErrorDetail, type QuoteErrorKind } from "../../quote/quoteErrors.ts";
import { err, ok } from "../../quote/result.ts";
import type { AnswerBody, Searched, SearchFacts } from "../answerAtBlock.ts";

type Encoded = {
  /** 2: bodies carry limitedBy; a body of version 1 lacks it, so it is no answer here. */
  readonly v: 2;
  readonly body?: AnswerBody;
  readonly error?: { kind: QuoteErrorKind; details: readonly ErrorDetail[]; extra?: Record<string, unknown>; retryAfterSeconds?: number };
  readonly facts: { blockNumber: string; direction?: SearchFacts["direction"]; candidates?: number; stoppedBy?: string };
};

export function encodeSearched({ answer, facts }: Searched): string {
  const encoded: Encoded = {
    v: 2,
    ...(answer.ok
      ? { body: answer.value }
      : {
          error: {
            kind: answer.error.kind,
            details: answer.error.details,
            ...(answer.error.extra === undefined ? {} : { extra: answer.error.extra }),
            ...(answer.error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: answer.error.retryAfterSeconds }),
          },
        }),
    facts: { ...facts, blockNumber: facts.blockNumber.toString() },
  };
  return JSON.stringify(encoded);
}

/** The outcome `text` encodes; undefined when it is not one. */
export function decodeSearched(text: string): Searched | undefined {
  let encoded: Encoded;
  try {
    encoded = JSON.parse(text) as Encoded;
  } catch {
    return undefined;
  }
  if (typeof encoded !== "object" || encoded === null || encoded.v !== 2 || typeof encoded.facts?.blockNumber !== "string") return undefined;
  if (!/^\d+$/.test(encoded.facts.blockNumber)) return undefined;
  const facts: SearchFacts = { ...encoded.facts, blockNumber: BigInt(encoded.facts.blockNumber) };
  if (encoded.body !== undefined && typeof encoded.body === "object" && encoded.body !== null) return { answer: ok(encoded.body), facts };
  const error = encoded.error;
  if (error === undefined || !Object.hasOwn(MESSAGES, error.kind) || !Array.isArray(error.details)) return undefined;
  const quoteError = new QuoteError(error.kind, {
    details: error.details.map(({ param, message }) => ({ param: String(param), message: String(message) })),
    ...(error.extra === undefined ? {} : { extra: error.extra }),
    ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
  });
  return { answer: err(quoteError), facts };
}
