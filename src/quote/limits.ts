// The interface's limits, said once: every module that checks, uses or words them imports them from here.

/** The bisection's most candidates (interface §4): maxIterations is 1 to this, and this by default. */
export const MAX_ITERATIONS = 10;

/**
 * The most bytes a batch's body may have: Fastify's default body limit, named here so that the route, its 413 and
 * the docs say the same number. 50 quotes of the longest parameters take about 60 KB.
 */
export const BATCH_BODY_MAX_BYTES = 1_048_576;

/** Semantics §12: the room a trade's collateral limit leaves for the price to move, in basis points of maxCollateral. */
export const MAX_SLIPPAGE_BPS = 5000;
export const DEFAULT_SLIPPAGE_BPS = 50;

/** Semantics §12: how long after the answer's block the trade may still be mined, in seconds. */
export const MAX_DEADLINE_SECONDS = 86_400;
export const DEFAULT_DEADLINE_SECONDS = 300;
