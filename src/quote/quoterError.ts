// The one base of the errors the service throws on purpose, in every layer: a stable code (what went wrong, for
// logs and for the edge's mapping), a short message, and details that say what to do. Which HTTP status an error
// answers with is decided at the edge (src/http/httpErrors.ts), never by the error.

export type ErrorDetail = { param: string; message: string };

export class QuoterError extends Error {
  /** Stable, kebab-case or the quote error's kind: what logs and the edge key on, never the message. */
  readonly code: string;
  /** What to do about it, one entry per parameter or endpoint concerned; empty when there is nothing to add. */
  readonly details: readonly ErrorDetail[];

  constructor(code: string, message: string, options: { readonly cause?: unknown; readonly details?: readonly ErrorDetail[] } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details ?? [];
  }
}
