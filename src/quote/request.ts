// Reads a quote request from its path and query parameters (semantics §2, §3.1, §7), by the table of
// parameters (params.ts): the shape rules every parameter shares here, each one's own rule in its row.
import type { Result } from "./result.ts";
import { MAX_PARAMETER_LENGTH, paramsIn, type ParamLocation, type QuoteParam } from "./params.ts";
import type { QuoteRequest } from "./quoteRequest.ts";
import { didYouMean } from "./spelling.ts";
import { invalidPathParameters, invalidQueryParameters, type ErrorDetail, type QuoteError } from "./quoteErrors.ts";

export type { QuoteRequest } from "./quoteRequest.ts";

export type RequestParse = Result<QuoteRequest, QuoteError>;

const REQUIRED_RULE = "is required";
const DUPLICATE_RULE = "must be given only once";
const NOT_TEXT_RULE = "must be a single text value";
const tooLongRule = (maxLength: number) => `must be at most ${maxLength} characters`;

/** The one text value of a parameter, or the shape rule it broke (checked before its own rule). */
export function shapeRule(raw: unknown, maxLength = MAX_PARAMETER_LENGTH): string | undefined {
  if (Array.isArray(raw)) return DUPLICATE_RULE;
  if (typeof raw !== "string") return NOT_TEXT_RULE;
  if (raw.length > maxLength) return tooLongRule(maxLength);
  return undefined;
}

/**
 * Rows that read a parameter otherwise than the table, by the table's name (a held position's budget; its id, named
 * `name`, where the table has the market id).
 */
export type ParamRows = Readonly<Record<string, QuoteParam<unknown> & { readonly name?: string }>>;

/** The parameters at one place: their values (defaults included), and one detail per failing parameter. */
export function readParams(location: ParamLocation, source: Record<string, unknown>, rows: ParamRows = {}): { values: Record<string, unknown>; details: ErrorDetail[] } {
  return readRows(paramsIn(location), source, rows);
}

/** The parameters of `entries` (name and row, in the order checked), read from `source` as readParams reads them. */
export function readRows(
  entries: readonly (readonly [string, QuoteParam<unknown>])[],
  source: Record<string, unknown>,
  rows: ParamRows = {},
): { values: Record<string, unknown>; details: ErrorDetail[] } {
  const values: Record<string, unknown> = {};
  const details: ErrorDetail[] = [];
  for (const [tableName, tableParam] of entries) {
    const param = rows[tableName] ?? tableParam;
    const name = rows[tableName]?.name ?? tableName;
    const raw = source[name];
    if (raw === undefined) {
      if (param.required) details.push({ param: name, message: REQUIRED_RULE + didYouMean(name, Object.keys(source)) });
      else if (param.default !== undefined) values[name] = param.default;
      continue;
    }
    const broken = shapeRule(raw);
    const parsed = broken === undefined ? param.parse(raw as string) : { ok: false as const, error: broken };
    if (parsed.ok) values[name] = parsed.value;
    else details.push({ param: name, message: parsed.error });
  }
  return { values, details };
}

/**
 * Validates the path and then the query, each parameter in the table's order. A bad path wins over a bad
 * query. Unknown query parameters are ignored.
 */
export function parseQuoteRequest(params: Record<string, unknown>, query: Record<string, unknown>): RequestParse {
  const path = parsePathParams(params);
  if (!path.ok) return path;
  const q = parseQueryParams(query);
  if (!q.ok) return q;
  return { ok: true, value: { ...path.value, ...q.value } };
}

/** The path's part of a request (chainId, marketAddress, marketId), or the 400 naming each one that fails. */
export function parsePathParams(params: Record<string, unknown>): Result<PathParams, QuoteError> {
  const path = readParams("path", params);
  // Every required parameter has a value here (else a detail): the table's types are QuoteRequest's.
  return path.details.length > 0 ? { ok: false, error: invalidPathParameters(path.details) } : { ok: true, value: path.values as PathParams };
}

/** The query's part of a request (defaults filled in), or the 400 naming each one that fails. */
export function parseQueryParams(query: Record<string, unknown>, rows?: ParamRows): Result<QueryParams, QuoteError> {
  const q = readParams("query", query, rows);
  return q.details.length > 0 ? { ok: false, error: invalidQueryParameters(q.details) } : { ok: true, value: q.values as QueryParams };
}

export type PathParams = Pick<QuoteRequest, "chainId" | "marketAddress" | "marketId">;
export type QueryParams = Omit<QuoteRequest, keyof PathParams>;
