// The explorer's way to the API: the client package (@quoter/client, served beside the page and named by its
// import map), the same code a frontend installs. Its answers come back as the page shows them.
import { createQuoterClient, QuoterError } from "@quoter/client";

/** The service's address: the page lives at <service>/quoter/explorer. */
const SERVICE = `${window.location.origin}${window.location.pathname.replace(/\/quoter\/explorer\/?$/, "")}`;

export const quoter = createQuoterClient({ baseUrl: SERVICE });

/**
 * A call's outcome as the page shows it: `{ status, ok, body }`, a refusal's body the service's error body (with
 * its trace when it has one); a failure with no answer is status "network" with its message as the error.
 */
export async function outcome(call) {
  try {
    return { status: 200, ok: true, body: await call() };
  } catch (error) {
    if (error instanceof QuoterError) return { status: error.status, ok: false, body: error.body ?? { error: error.error, details: error.details } };
    return { status: "network", ok: false, body: { error: String(error && error.message ? error.message : error) } };
  }
}
