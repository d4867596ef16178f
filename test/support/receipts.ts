// The receipt of a transaction sent to an automining node. viem's waitForTransactionReceipt looks for the receipt
// again only when a new block comes: if a look misses it (seen on a busy machine, tests running side by side), it
// waits for a block that an automining node, idle after the send, never mines, and times out after three minutes.
// Asking for the receipt until it is there needs no later block.
import { TransactionReceiptNotFoundError, type Chain, type Hash, type PublicClient, type TransactionReceipt, type Transport } from "viem";
import { waitFor } from "./waitFor.ts";

/** The receipt of `hash`, asked for until the node has it (at most 60 s). */
export async function minedReceipt(client: PublicClient<Transport, Chain | undefined>, hash: Hash): Promise<TransactionReceipt> {
  let receipt: TransactionReceipt | undefined;
  const mined = async () => {
    receipt = await client.getTransactionReceipt({ hash }).catch((error: unknown) => {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw error;
    });
    return receipt !== undefined;
  };
  await waitFor(mined, 60_000, `the receipt of ${hash}`);
  return receipt!;
}
