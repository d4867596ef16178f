// When a head that every endpoint stopped reporting has moved back (semantics §11), as fractions of one bound,
// HEAD_MOVED_BACK_MS (2 s by default, 100 ms on the embedded chain). Every rule of that timing is here, each with
// the reason for it; the retreat (pure) and the follower read them.

/**
 * Checks of every endpoint (each asked its latest block and whether it has the head's) that must find the head gone
 * before it is: a load balancer whose backends lag now and then answers some of them from a backend that has it.
 */
export const MIN_CHECKS = 4;

/**
 * Checks while the head is in doubt: eight within the bound, so that the four needed fit in its second half even
 * when the doubt began late in the first; never closer than 25 ms, which would only load a node that is restarting.
 */
export function checkEveryMs(boundMs: number): number {
  return Math.max(25, Math.floor(boundMs / 8));
}

/**
 * The head moved back only once older heads were reported for at least half the bound: a head unconfirmed for the
 * whole bound because nothing was asked meanwhile (an idle service) is not yet evidence that it is gone.
 */
export function doubtLongEnough(boundMs: number, doubtedForMs: number): boolean {
  return doubtedForMs >= boundMs / 2;
}

/**
 * How often a connected WebSocket's latest block is read while the chain is wanted: four times within the bound, as
 * a node whose head moved back (a revert, a restart) pushes nothing; never closer than 50 ms.
 */
export function socketReadEveryMs(boundMs: number): number {
  return Math.max(50, Math.floor(boundMs / 4));
}
