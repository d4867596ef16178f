// The interface's limits, said once: every module that checks, uses or words them imports them from here.

/** The bisection's most candidates (interface §4): maxIterations is 1 to this, and this by default. */
export const MAX_ITERATIONS = 10;
