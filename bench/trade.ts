// The soak's one way to trade: every trade it places goes through `submitTrade`, so that the market group's trading
// surface changes in this one place. The real group's `createTraderPosition((marketId, size, maxCollateral,
// deadline))`, the collateral pulled by an ERC-20 transferFrom: the trader approves the group once, without limit,
// then trades with no collateral limit (0) and no deadline.
// Signed here with the trader's key and sent raw, its nonce counted here: one JSON-RPC request per transaction, so
// that a block every 50 ms leaves the node time for the quotes (viem's writeContract asks for the chain id, the nonce
// and the fees first).
import { encodeFunctionData, erc20Abi, maxUint256, parseGwei, type Address, type Hex } from "viem";
import { DEMO_TRADE_GAS } from "../src/devchain/demo.ts";
import { DEVCHAIN_ID, type EmbeddedChain } from "../src/devchain/chain.ts";
import { marketGroupAbi } from "../src/generated/contracts.ts";

export interface Trade {
  readonly group: Address;
  readonly marketId: bigint;
  /** Positive: a LONG of that many base tokens (wei); negative: a SHORT. */
  readonly size: bigint;
}

/** The trader's last nonce handed out on each chain, read once from the node (the bench is its only sender). */
const nonces = new WeakMap<EmbeddedChain, Promise<number>>();
/** The groups the trader has approved on each chain, with the approval's hash. */
const approvals = new WeakMap<EmbeddedChain, Map<Address, Promise<Hex>>>();

function nextNonce(chain: EmbeddedChain): Promise<number> {
  const previous = nonces.get(chain) ?? chain.publicClient.getTransactionCount({ address: chain.traderClient.account.address, blockTag: "pending" }).then((next) => next - 1);
  const nonce = previous.then((last) => last + 1);
  nonces.set(chain, nonce);
  return nonce;
}

/** Signs `data` to `to` from the trader with the next nonce and sends it raw; its hash. */
async function send(chain: EmbeddedChain, to: Address, data: Hex): Promise<Hex> {
  const account = chain.traderClient.account;
  const nonce = nextNonce(chain);
  const signed = await account.signTransaction!({
    chainId: DEVCHAIN_ID,
    type: "eip1559",
    nonce: await nonce,
    to,
    data,
    gas: DEMO_TRADE_GAS,
    maxFeePerGas: parseGwei("10"),
    maxPriorityFeePerGas: parseGwei("1"),
  });
  return (await chain.provider.request({ method: "eth_sendRawTransaction", params: [signed] } as never)) as Hex;
}

/** The trader's approval of `group`'s collateral token to `group`, sent once per chain (before any trade of it). */
function approveOnce(chain: EmbeddedChain, group: Address): Promise<Hex> {
  const sent = approvals.get(chain) ?? new Map<Address, Promise<Hex>>();
  approvals.set(chain, sent);
  let approval = sent.get(group);
  if (approval === undefined) {
    approval = chain.publicClient
      .readContract({ address: group, abi: marketGroupAbi, functionName: "getMarketGroup" })
      .then(([, token]) => send(chain, token, encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [group, maxUint256] })));
    sent.set(group, approval);
  }
  return approval;
}

/** Sends the trader's transaction for `trade` (no collateral limit) and returns its hash; whoever mines waits for it. */
export async function submitTrade(chain: EmbeddedChain, { group, marketId, size }: Trade): Promise<Hex> {
  await approveOnce(chain, group);
  const data = encodeFunctionData({ abi: marketGroupAbi, functionName: "createTraderPosition", args: [{ marketId, size, maxCollateral: 0n, deadline: maxUint256 }] });
  return send(chain, group, data);
}
