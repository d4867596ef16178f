// The one shape of an outcome that is either a value or the reason there is none: parsing, checks and reads
// return it instead of throwing when the failure is an answer (a rule broken, a quote error), not a bug.

export type Result<T, E> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

export const ok = <T>(value: T): { readonly ok: true; readonly value: T } => ({ ok: true, value });
export const err = <E>(error: E): { readonly ok: false; readonly error: E } => ({ ok: false, error });
