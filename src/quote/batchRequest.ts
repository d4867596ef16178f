// A batch of quotes (POST /quoter/:chainId/batch): the body `{"quotes": [{…}, …]}`, each item the GET's parameters
// but the chain id (the path's) as strings. A body that is not that shape is one 400 for the request, naming what
// is wrong; an item that breaks a parameter's rule is that item's 400, worded as the GET's, and the others stand.
import { jsonBreak } from "./jsonSyntax.ts";
import { paramsIn } from "./params.ts";
import { invalidPathParameters, invalidQueryParameters, invalidRequestBody, type ErrorDetail, type QuoteError } from "./quoteErrors.ts";
import { parsePositionPath, parsePositionQuery, type AnyQuoteRequest } from "./positionRequest.ts";
import { parsePathParams, parseQueryParams } from "./request.ts";
import { LIQUIDITY_QUERY_NAMES, parseLiquidityQuery } from "./liquidityRequest.ts";
import { err, ok, type Result } from "./result.ts";

/**
 * The fields an item may have: the GET's parameters but the path's chain id, a held position's id (semantics §13), and
 * `kind` with a liquidity quote's range (§14: `"kind": "liquidity"` asks the liquidity route's question).
 */
export const BATCH_ITEM_FIELDS: readonly string[] = [
  ...new Set([...paramsIn("path"), ...paramsIn("query")].map(([name]): string => name).filter((name) => name !== "chainId").concat("positionId", "kind", ...LIQUIDITY_QUERY_NAMES)),
];
const PATH_FIELDS: ReadonlySet<string> = new Set(paramsIn("path").map(([name]) => name));

export type BatchItem = Result<AnyQuoteRequest, QuoteError>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const SHAPE = 'must be a JSON object {"quotes": [{"marketAddress", "marketId", "expectedPrice", "collateralAvailable", …}]}';

/** The request's 400 for a body the JSON parser refused: where its JSON breaks, or why JSON that parses was refused. */
export function unreadableBody(text: string): QuoteError {
  const broken = jsonBreak(text);
  const message =
    text.trim() === ""
      ? `is empty: it ${SHAPE}`
      : broken === undefined
        ? 'has a "__proto__" key, or a "constructor" key holding a "prototype", which the service refuses (it could change the objects built from it): leave it out'
        : `is not valid JSON at line ${broken.line}, column ${broken.column} (offset ${broken.position}${broken.position === text.length ? ", its end" : ""}): ` +
          `expected ${broken.expected}; the body ${SHAPE}`;
  return invalidRequestBody([{ param: "body", message }]);
}

/** Each item's request or its own 400, in the order asked; or the request's 400 when the body is not a batch. */
export function parseBatchBody(chainId: string, body: unknown, maxQuotes: number): Result<readonly BatchItem[], QuoteError> {
  if (!isObject(body)) return err(invalidRequestBody([{ param: "body", message: SHAPE }]));
  const extra = Object.keys(body).filter((key) => key !== "quotes");
  if (extra.length > 0) return err(invalidRequestBody(extra.map((key) => ({ param: key, message: `is not a field of a batch: the body ${SHAPE}` }))));
  const { quotes } = body;
  if (!Array.isArray(quotes) || quotes.length < 1 || quotes.length > maxQuotes) {
    return err(invalidRequestBody([{ param: "quotes", message: `must be an array of 1 to ${maxQuotes} quotes (BATCH_MAX_QUOTES)` }]));
  }
  const details = quotes.flatMap((item, i) => shapeProblems(item, i));
  if (details.length > 0) return err(invalidRequestBody(details));
  return ok((quotes as Record<string, string>[]).map((item) => parseItem(chainId, item)));
}

/** What makes `item` not a quote's parameters: not an object, a field no quote has, a value that is not a string. */
function shapeProblems(item: unknown, index: number): ErrorDetail[] {
  if (!isObject(item)) return [{ param: `quotes[${index}]`, message: "must be an object of the GET's parameters, each a string" }];
  return Object.entries(item).flatMap(([key, value]) => {
    const param = `quotes[${index}].${key}`;
    if (!BATCH_ITEM_FIELDS.includes(key)) return [{ param, message: `is not a parameter of a quote: the fields are ${BATCH_ITEM_FIELDS.join(", ")}` }];
    return typeof value === "string" ? [] : [{ param, message: "must be a string, as in the GET's query" }];
  });
}

/** How a route reads an item: which fields are its path's, and its path's and query's parsers. */
type ItemRoute = {
  readonly isPath: (key: string) => boolean;
  readonly parsePath: (path: Record<string, unknown>) => Result<object, QuoteError>;
  readonly parseQuery: (query: Record<string, unknown>) => Result<object, QuoteError>;
};

const NEW_POSITION: ItemRoute = { isPath: (key) => PATH_FIELDS.has(key), parsePath: parsePathParams, parseQuery: parseQueryParams };
const HELD_POSITION: ItemRoute = { isPath: (key) => PATH_FIELDS.has(key) || key === "positionId", parsePath: parsePositionPath, parseQuery: parsePositionQuery };
const LIQUIDITY: ItemRoute = { isPath: (key) => PATH_FIELDS.has(key), parsePath: parsePathParams, parseQuery: parseLiquidityQuery };

/**
 * One item as the GET reads its path (with the batch's chain id) and query: the path's errors first. An item with
 * `positionId` in place of `marketId` is a held position's, read as its route reads it; one with `"kind":
 * "liquidity"` a liquidity quote's (semantics §14), and no other kind is.
 */
function parseItem(chainId: string, item: Record<string, string>): BatchItem {
  if ("kind" in item) {
    const { kind, ...rest } = item;
    if (kind !== "liquidity") return err(invalidQueryParameters([{ param: "kind", message: 'must be "liquidity" (a liquidity quote), or left out (a trader\'s quote)' }]));
    return readItem(chainId, rest, LIQUIDITY);
  }
  const held = "positionId" in item;
  if (held && "marketId" in item) {
    return err(invalidPathParameters([{ param: "positionId", message: "a quote has a marketId (a new position) or a positionId (a held one), not both" }]));
  }
  return readItem(chainId, item, held ? HELD_POSITION : NEW_POSITION);
}

/** The item's fields split into the route's path and query, and read by its parsers, the path first. */
function readItem(chainId: string, item: Record<string, string>, route: ItemRoute): BatchItem {
  const path: Record<string, unknown> = { chainId };
  const query: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(item)) (route.isPath(key) ? path : query)[key] = value;
  const parsedPath = route.parsePath(path);
  if (!parsedPath.ok) return parsedPath;
  const parsedQuery = route.parseQuery(query);
  return parsedQuery.ok ? ok({ ...parsedPath.value, ...parsedQuery.value } as AnyQuoteRequest) : parsedQuery;
}
