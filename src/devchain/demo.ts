// The demo deployment: two market groups (18- and 6-decimal collateral) and six markets, each showing one
// behaviour of the quoter.
import { getAddress, getContractAddress, stringToHex, type Address, type Hash, type Hex } from "viem";
import { marketGroupAbi, marketGroupBytecode } from "../generated/contracts.ts";
import { GENESIS_TIMESTAMP, type EmbeddedChain } from "./chain.ts";

const E18 = 10n ** 18n;
const HOUR = 3600n;
const YEAR = 365n * 24n * HOUR;

/** Hardhat's first default account, the demo's deployer: its nonces fix the groups' addresses. */
const DEMO_DEPLOYER: Address = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

/**
 * Where the deployer's first contract lands: nonce 0 of Hardhat's first default account. Often written
 * 0x5FbDB2315678afecb367f032d93f642f64180aa3, a spelling that fails EIP-55 (semantics §2 rejects it).
 * Its collateral token has 18 decimals.
 */
export const DEMO_MARKET_GROUP_ADDRESS: Address = getAddress("0x5fbdb2315678afecb367f032d93f642f64180aa3");

/**
 * The second group, collateralised by a 6-decimal (USDC-like) token: the deployer's eighth transaction
 * (nonce 7), after the first group and its six transactions.
 */
export const DEMO_USDC_MARKET_GROUP_ADDRESS: Address = getContractAddress({ from: DEMO_DEPLOYER, nonce: 7n });

export interface DemoMarketGroup {
  readonly address: Address;
  /** decimals() of the collateral token the group deploys. */
  readonly collateralDecimals: number;
  readonly role: string;
}

export const DEMO_MARKET_GROUPS: readonly DemoMarketGroup[] = [
  { address: DEMO_MARKET_GROUP_ADDRESS, collateralDecimals: 18, role: "18-decimal collateral (wstETH-like): maxCollateral equals requiredCollateral" },
  {
    address: DEMO_USDC_MARKET_GROUP_ADDRESS,
    collateralDecimals: 6,
    role: "6-decimal collateral (USDC-like): collateralAvailable and requiredCollateral stay in 18-decimal units, the trade's limit is in USDC units",
  },
];

export interface DemoMarket {
  /** The market group that holds the market. */
  readonly group: Address;
  /** The market's id in its group. */
  readonly id: bigint;
  readonly role: string;
  readonly priceD18: bigint;
  readonly minPriceD18: bigint;
  readonly maxPriceD18: bigint;
  readonly liquidity: bigint;
  /** Uniswap pips: 10_000 is 1%. */
  readonly feeRate: number;
  readonly claim: string;
  /** Settled at this D18 price right after creation. */
  readonly settlementPriceD18?: bigint;
  /** Created already ended (it started two hours and ended one hour before the deployment) and never settled. */
  readonly ended?: true;
  /** A request that shows the market's role, for the README and the start-up banner. */
  readonly example: { readonly expectedPrice: string; readonly collateralAvailable: string };
}

/** The pool of the deep yes/no markets: price 0.5 in [0.01, 0.99], liquidity 10^24, 1% fee. */
const DEEP_YES_NO = { priceD18: E18 / 2n, minPriceD18: E18 / 100n, maxPriceD18: (E18 * 99n) / 100n, liquidity: 10n ** 24n, feeRate: 10_000 } as const;

export const DEMO_MARKETS: readonly DemoMarket[] = [
  {
    group: DEMO_MARKET_GROUP_ADDRESS,
    id: 1n,
    role: "yes/no market with deep liquidity: ordinary LONG and SHORT quotes succeed",
    ...DEEP_YES_NO,
    claim: "Will it rain in Lisbon on 1 January?",
    example: { expectedPrice: "0.55", collateralAvailable: "1000000000000000000000" },
  },
  {
    group: DEMO_MARKET_GROUP_ADDRESS,
    id: 2n,
    role: "numeric market with shallow liquidity: an expectedPrice a few percent away binds before the budget",
    priceD18: 1000n * E18,
    minPriceD18: 500n * E18,
    maxPriceD18: 2000n * E18,
    liquidity: 10n ** 20n,
    feeRate: 3_000,
    claim: "Average gas price on 1 January, in gwei",
    example: { expectedPrice: "1030", collateralAvailable: "1000000000000000000000" },
  },
  {
    group: DEMO_MARKET_GROUP_ADDRESS,
    id: 3n,
    role: "settled yes/no market (resolved YES): quotes answer 400 Market is settled",
    ...DEEP_YES_NO,
    claim: "Did it snow in Lisbon last winter?",
    settlementPriceD18: E18,
    example: { expectedPrice: "0.6", collateralAvailable: "1000000000000000000" },
  },
  {
    group: DEMO_MARKET_GROUP_ADDRESS,
    id: 4n,
    role: "liquidity so thin that even small trades leave the range: Insufficient liquidity",
    priceD18: E18 / 2n,
    minPriceD18: (E18 * 4n) / 10n,
    maxPriceD18: (E18 * 6n) / 10n,
    liquidity: 10n ** 14n,
    feeRate: 10_000,
    claim: "Will the thin market move?",
    example: { expectedPrice: "0.59", collateralAvailable: "1000000000000000000" },
  },
  {
    group: DEMO_MARKET_GROUP_ADDRESS,
    id: 5n,
    role: "ended an hour before the deployment and never settled: every quote reverts ExpiredMarketNotSettled(endTime), no size can be quoted",
    ...DEEP_YES_NO,
    claim: "Was the result announced before the deadline?",
    ended: true,
    example: { expectedPrice: "0.55", collateralAvailable: "1000000000000000000" },
  },
  {
    group: DEMO_USDC_MARKET_GROUP_ADDRESS,
    id: 1n,
    role: "yes/no market on the 6-decimal (USDC) group: a budget of 1000 USDC is 1000000000000000000000 wei, maxCollateral is in USDC units",
    ...DEEP_YES_NO,
    claim: "Will the stablecoin keep its peg all year?",
    example: { expectedPrice: "0.55", collateralAvailable: "1000000000000000000000" },
  },
];

/** Gas limits of the demo's transactions, given because they are sent without automining (no estimate). */
const DEPLOY_GAS = 6_000_000n;
const CALL_GAS = 1_000_000n;

/** A transaction of the deployment, sent with the nonce it is given. */
type Step = (nonce: number) => Promise<Hash>;

/**
 * Deploys the groups of {@link DEMO_MARKET_GROUPS} and creates {@link DEMO_MARKETS}. Must run on a fresh chain:
 * the first group is the deployer's first transaction, so that it lands at {@link DEMO_MARKET_GROUP_ADDRESS}.
 *
 * The first five transactions (the first group, markets 1 to 3 and the settlement of 3) are mined one per
 * block, as they always were, and every later one goes into the sixth block: the chain's head stays at block
 * 6 however many markets the demo holds, so the documented answers (which carry blockNumber) do not move.
 * Returns the first group's address.
 */
export async function deployDemo(chain: EmbeddedChain): Promise<Address> {
  const { publicClient, walletClient } = chain;
  const deployer = walletClient.account.address;
  const nonce = await publicClient.getTransactionCount({ address: deployer });
  if (nonce !== 0) throw new Error(`the demo needs a fresh chain: the deployer has already sent ${nonce} transactions`);
  if (getAddress(deployer) !== DEMO_DEPLOYER) throw new Error(`the demo's deployer must be ${DEMO_DEPLOYER}, got ${deployer}`);

  const [first] = DEMO_MARKET_GROUPS;
  await mineBlock(chain, [deployGroup(chain, first!.collateralDecimals)]);
  const { timestamp } = await publicClient.getBlock();

  const steps: Step[] = [];
  for (const group of DEMO_MARKET_GROUPS) {
    if (group !== first) steps.push(deployGroup(chain, group.collateralDecimals));
    for (const market of DEMO_MARKETS.filter((m) => m.group === group.address)) {
      steps.push(call(chain, group.address, "createMarket", [configOf(market, timestamp)]));
      if (market.settlementPriceD18 !== undefined) {
        steps.push(call(chain, group.address, "settleMarket", [market.id, market.settlementPriceD18]));
      }
    }
  }
  for (const step of steps.slice(0, 4)) await mineBlock(chain, [step]);
  await mineBlock(chain, steps.slice(4));

  for (const group of DEMO_MARKET_GROUPS) {
    const code = await publicClient.getCode({ address: group.address });
    if (code === undefined || code === "0x") throw new Error(`no market group at ${group.address} after the demo deployment`);
  }
  return DEMO_MARKET_GROUP_ADDRESS;
}

function configOf(market: DemoMarket, timestamp: bigint) {
  return {
    startTime: market.ended ? timestamp - 2n * HOUR : timestamp - HOUR,
    endTime: market.ended ? timestamp - HOUR : timestamp + 10n * YEAR,
    priceD18: market.priceD18,
    minPriceD18: market.minPriceD18,
    maxPriceD18: market.maxPriceD18,
    liquidity: market.liquidity,
    feeRate: market.feeRate,
    claimStatementYesOrNumeric: stringToHex(market.claim),
    claimStatementNo: "0x" as Hex,
  };
}

function deployGroup(chain: EmbeddedChain, collateralDecimals: number): Step {
  return (nonce) =>
    chain.walletClient.deployContract({ abi: marketGroupAbi, bytecode: marketGroupBytecode, args: [collateralDecimals], gas: DEPLOY_GAS, nonce });
}

function call(chain: EmbeddedChain, address: Address, functionName: "createMarket" | "settleMarket", args: readonly unknown[]): Step {
  return (nonce) => chain.walletClient.writeContract({ address, abi: marketGroupAbi, functionName, args, gas: CALL_GAS, nonce } as never);
}

/**
 * Sends `steps` in order with consecutive nonces and mines them into one block (automining off meanwhile,
 * with evm_setAutomine and evm_mine), every one of which must succeed. Block N is mined at the genesis time plus
 * N seconds, so that the demo's blocks and their hashes are the same on every embedded chain.
 */
async function mineBlock(chain: EmbeddedChain, steps: readonly Step[]): Promise<void> {
  const { publicClient, walletClient, provider } = chain;
  const first = await publicClient.getTransactionCount({ address: walletClient.account.address });
  const { number } = await publicClient.getBlock(); // not getBlockNumber: viem caches it for a polling interval
  const hashes: Hash[] = [];
  await provider.request({ method: "evm_setAutomine", params: [false] });
  try {
    for (const [i, step] of steps.entries()) hashes.push(await step(first + i));
    await provider.request({ method: "evm_setNextBlockTimestamp", params: [GENESIS_TIMESTAMP + Number(number) + 1] } as never);
    await provider.request({ method: "evm_mine", params: [] });
  } finally {
    await provider.request({ method: "evm_setAutomine", params: [true] });
  }
  for (const hash of hashes) {
    const receipt = await publicClient.getTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`transaction ${hash} of the demo deployment failed`);
  }
}
