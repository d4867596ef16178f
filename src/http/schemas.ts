// The quote route's schemas. Its parameters are the table of quote parameters (src/quote/params.ts) as JSON
// Schema: they document, and the parser alone judges (the route compiles no validator), so the two never
// disagree. The OpenAPI document at /quoter/openapi.json is generated from these schemas (src/http/openapi.ts).
import { MAX_PARAMETER_LENGTH, paramsIn, type ParamLocation } from "../quote/params.ts";

export { quoteResponseSchema } from "./responseSchemas.ts";
export { quoteErrorResponses } from "./errorSchemas.ts";

/** Each parameter at one place as a text of at most MAX_PARAMETER_LENGTH characters, with its shape, docs and example. */
function paramsSchema(location: ParamLocation) {
  const params = paramsIn(location);
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
