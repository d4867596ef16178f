// The quote route's schemas. Its parameters are the table of quote parameters (src/quote/params.ts) as JSON
// Schema: they document, and the parser alone judges (the route compiles no validator), so the two never
// disagree. The OpenAPI document at /quoter/openapi.json is generated from these schemas (src/http/openapi.ts).
import { MAX_PARAMETER_LENGTH, paramsIn, type ParamLocation, type QuoteParam } from "../quote/params.ts";
import { POSITION_PATH_ROWS, POSITION_QUERY_ROWS } from "../quote/positionRequest.ts";
import type { ParamRows } from "../quote/request.ts";

export { quoteResponseSchema } from "./responseSchemas.ts";
export { quoteErrorResponses } from "./errorSchemas.ts";

/**
 * Each parameter at one place as a text of at most MAX_PARAMETER_LENGTH characters, with its shape, docs and example;
 * `rows` read some of them otherwise (a held position's: its id in place of the market id, a budget of 0 allowed).
 */
function paramsSchema(location: ParamLocation, rows: ParamRows = {}) {
  return rowsSchema(paramsIn(location).map(([name, param]) => [rows[name]?.name ?? name, rows[name] ?? param] as const));
}

/** The parameters `params` (name and row, in order) as the object schema of one place. */
export function rowsSchema(params: readonly (readonly [string, QuoteParam<unknown>])[]) {
  return {
    type: "object",
    required: params.filter(([, param]) => param.required).map(([name]) => name),
    properties: Object.fromEntries(
      params.map(([name, param]) => [
        name,
        {
          type: "string",
          maxLength: MAX_PARAMETER_LENGTH,
          ...(param.pattern === undefined ? {} : { pattern: param.pattern }),
          ...(param.enum === undefined ? {} : { enum: [...param.enum] }),
          description: param.description,
          examples: [param.example],
        },
      ]),
    ),
  } as const;
}

export const quoteParamsSchema = paramsSchema("path");
export const quoteQuerySchema = paramsSchema("query");
export const positionParamsSchema = paramsSchema("path", POSITION_PATH_ROWS);
export const positionQuerySchema = paramsSchema("query", POSITION_QUERY_ROWS);
