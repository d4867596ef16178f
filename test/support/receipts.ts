// The receipt of a transaction sent to an automining node. viem's waitForTransactionReceipt looks for the receipt
// again only when a new block comes: if a look misses it (seen on a busy machine, tests running side by side), it
// waits for a block that an automining node, idle after the send, never mines, and times out after three minutes.
// Asking for the receipt until it is there needs no later block.
import { TransactionReceiptNotFoundError, type Chain, type Hash, type PublicClient, type TransactionReceipt, type Transport } from "viem";

const POLL_MS = 5;
const TIMEOUT_MS = 60_000;

/** The receipt of `hash`, asked for every 5 ms until the node has it (at most 60 s). */
export async function minedReceipt(client: PublicClient<Transport, Chain | undefined>, hash: Hash): Promise<TransactionReceipt> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    try {
      return await client.getTransactionReceipt({ hash });
    } catch (error) {
      if (!(error instanceof TransactionReceiptNotFoundError)) throw error;
      if (Date.now() > deadline) throw new Error(`no receipt for ${hash} after ${TIMEOUT_MS} ms`, { cause: error });
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
