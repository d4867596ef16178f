// A trade on a demo group as a trader sends it, in one block: the collateral the trade takes (the quote's requirement
// rounded up to token units) approved exactly, then the position opened with that limit and a fixed gas limit
// (DEMO_TRADE_GAS), both mined together. One trade is one block, as the tests of the chain's head count them, and
// nothing stays approved, as on the demo.
import { erc20Abi, maxUint256, type Account, type Address, type Chain, type Hash, type TransactionReceipt, type Transport, type WalletClient } from "viem";
import type { EmbeddedChain } from "../../src/devchain/chain.ts";
import { DEMO_TRADE_GAS } from "../../src/devchain/demo.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";
import { minedReceipt } from "./receipts.ts";

export interface DemoTrade {
  readonly group: Address;
  readonly marketId: bigint;
  /** Base tokens, positive for a LONG. */
  readonly size: bigint;
  /** The trader unless given. */
  readonly wallet?: WalletClient<Transport, Chain, Account>;
}

/** The collateral `trade` takes, in token units: its quote's requiredCollateral rounded up, at the chain's head. */
export async function demoTradeCollateral(chain: EmbeddedChain, { group, marketId, size }: DemoTrade): Promise<{ token: Address; units: bigint }> {
  const { publicClient } = chain;
  const [, token] = await publicClient.readContract({ address: group, abi: marketGroupAbi, functionName: "getMarketGroup" });
  const decimals = await publicClient.readContract({ address: token, abi: erc20Abi, functionName: "decimals" });
  const { result } = await publicClient.simulateContract({ address: group, abi: marketGroupAbi, functionName: "quoteCreateTraderPosition", args: [marketId, size] });
  const unit = 10n ** BigInt(18 - decimals);
  return { token, units: (result[0] + unit - 1n) / unit };
}

/**
 * Sends the approval and the trade of `trade`, in this order, without mining them (nonces from the node's pending
 * count): the caller mines them, in one block or as its node does. The trade's hash.
 */
export async function sendDemoTrade(chain: EmbeddedChain, trade: DemoTrade): Promise<Hash> {
  const wallet = trade.wallet ?? chain.traderClient;
  const { token, units } = await demoTradeCollateral(chain, trade);
  await wallet.writeContract({ address: token, abi: erc20Abi, functionName: "approve", args: [trade.group, units], gas: DEMO_TRADE_GAS });
  return wallet.writeContract({
    address: trade.group,
    abi: marketGroupAbi,
    functionName: "createTraderPosition",
    args: [{ marketId: trade.marketId, size: trade.size, maxCollateral: units, deadline: maxUint256 }],
    gas: DEMO_TRADE_GAS,
  });
}

/**
 * Opens the position `trade` describes in one block (the approval and the trade mined together, automining off
 * meanwhile); the trade's receipt, whatever its status.
 */
export async function tradeInOneBlock(chain: EmbeddedChain, trade: DemoTrade): Promise<TransactionReceipt> {
  const { provider } = chain;
  let hash: Hash;
  await provider.request({ method: "evm_setAutomine", params: [false] });
  try {
    hash = await sendDemoTrade(chain, trade);
    await provider.request({ method: "evm_mine", params: [] });
  } finally {
    await provider.request({ method: "evm_setAutomine", params: [true] });
  }
  return minedReceipt(chain.publicClient, hash);
}
