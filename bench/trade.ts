// The soak's one way to trade: every trade it places goes through `submitTrade`, so that the market group's trading
// surface changes in this one place. Today the demo group's `executeTrade(marketId, size, maxCollateral)` (no
// collateral moves); the real surface, `createTraderPosition((marketId, size, maxCollateral, deadline))` with the
// collateral pulled by an ERC-20 transferFrom, needs an approval first, which belongs here too.
// Signed here with the trader's key and sent raw, its nonce counted here: one JSON-RPC request per trade, so that a
// block every 50 ms leaves the node time for the quotes (viem's writeContract asks for the chain id, the nonce and
// the fees first).
import { encodeFunctionData, maxUint256, parseGwei, type Address, type Hex } from "viem";
import { DEMO_TRADE_GAS } from "../src/devchain/demo.ts";
import { DEVCHAIN_ID, type EmbeddedChain } from "../src/devchain/chain.ts";
import { marketGroupAbi } from "../src/generated/contracts.ts";

export interface Trade {
  readonly group: Address;
  readonly marketId: bigint;
  /** Positive: a LONG of that many base tokens (wei); negative: a SHORT. */
  readonly size: bigint;
}

/** The trader's next nonce on each chain, read once from the node (the bench is its only sender). */
const nonces = new WeakMap<EmbeddedChain, Promise<number>>();

/** Sends the trader's transaction for `trade` (no collateral limit) and returns its hash; whoever mines waits for it. */
export async function submitTrade(chain: EmbeddedChain, { group, marketId, size }: Trade): Promise<Hex> {
  const account = chain.traderClient.account;
  const previous = nonces.get(chain) ?? chain.publicClient.getTransactionCount({ address: account.address, blockTag: "pending" }).then((next) => next - 1);
  const nonce = previous.then((last) => last + 1);
  nonces.set(chain, nonce);
  const signed = await account.signTransaction!({
    chainId: DEVCHAIN_ID,
    type: "eip1559",
    nonce: await nonce,
    to: group,
    data: encodeFunctionData({ abi: marketGroupAbi, functionName: "executeTrade", args: [marketId, size, maxUint256] }),
    gas: DEMO_TRADE_GAS,
    maxFeePerGas: parseGwei("10"),
    maxPriorityFeePerGas: parseGwei("1"),
  });
  return (await chain.provider.request({ method: "eth_sendRawTransaction", params: [signed] } as never)) as Hex;
}
