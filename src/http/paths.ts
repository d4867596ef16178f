// Where the service answers, said once: the routes, the index, the docs, the banner and the help all read it.
// A leaf with no imports, so that printing a help text loads nothing else.

/** The base of the quote API, its index, its docs and the explorer. */
export const BASE_PATH = "/quoter";
/** The quote route below BASE_PATH. */
export const QUOTE_PATH = "/:chainId/:marketAddress/:marketId";
/** The quote route's pattern, as Fastify reports it in `request.routeOptions.url`. */
export const QUOTE_ROUTE = `${BASE_PATH}${QUOTE_PATH}`;
/** A held position's quote (semantics §13): how far it can be added to, reduced or turned around. */
export const POSITION_PATH = "/:chainId/:marketAddress/positions/:positionId";
export const POSITION_ROUTE = `${BASE_PATH}${POSITION_PATH}`;
/** A new liquidity position's quote (semantics §14): the largest liquidity a budget mints in a range. */
export const LIQUIDITY_PATH = `${QUOTE_PATH}/liquidity`;
export const LIQUIDITY_ROUTE = `${BASE_PATH}${LIQUIDITY_PATH}`;
/** The depth ladder of one market: the exact quote at each of several prices, all at one block. */
export const DEPTH_PATH = `${QUOTE_PATH}/depth`;
/** Many quotes of one chain, all at one block: POST with a JSON body. */
export const BATCH_PATH = "/:chainId/batch";

export const DOCS_PATH = `${BASE_PATH}/docs`;
export const OPENAPI_PATH = `${BASE_PATH}/openapi.json`;
export const EXPLORER_PATH = `${BASE_PATH}/explorer`;

/** The operational routes: at the root, outside BASE_PATH, where probes and scrapers expect them. */
export const HEALTH_PATH = "/health";
export const READY_PATH = "/ready";
export const METRICS_PATH = "/metrics";
