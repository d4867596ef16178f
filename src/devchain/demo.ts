// The demo deployment: the reference market group and four markets, each showing one behaviour of the quoter.
import { getAddress, getContractAddress, stringToHex, type Address } from "viem";
import { marketGroupAbi, marketGroupBytecode } from "../generated/contracts.ts";
import type { EmbeddedChain } from "./chain.ts";

const E18 = 10n ** 18n;
const YEAR = 365n * 24n * 3600n;

export interface DemoMarket {
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
  /** A request that shows the market's role, for the README and the start-up banner. */
  readonly example: { readonly expectedPrice: string; readonly collateralAvailable: string };
}

export const DEMO_MARKETS: readonly DemoMarket[] = [
  {
    id: 1n,
    role: "yes/no market with deep liquidity: ordinary LONG and SHORT quotes succeed",
    priceD18: E18 / 2n,
    minPriceD18: E18 / 100n,
    maxPriceD18: (E18 * 99n) / 100n,
    liquidity: 10n ** 24n,
    feeRate: 10_000,
    claim: "Will it rain in Lisbon on 1 January?",
    example: { expectedPrice: "0.55", collateralAvailable: "1000000000000000000000" },
  },
  {
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
    id: 3n,
    role: "settled yes/no market (resolved YES): quotes answer 400 Market is settled",
    priceD18: E18 / 2n,
    minPriceD18: E18 / 100n,
    maxPriceD18: (E18 * 99n) / 100n,
    liquidity: 10n ** 24n,
    feeRate: 10_000,
    claim: "Did it snow in Lisbon last winter?",
    settlementPriceD18: E18,
    example: { expectedPrice: "0.6", collateralAvailable: "1000000000000000000" },
  },
  {
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
];

/**
 * Where the deployer's first contract lands: nonce 0 of Hardhat's first default account. Often written
 * 0x5FbDB2315678afecb367f032d93f642f64180aa3, a spelling that fails EIP-55 (semantics §2 rejects it).
 */
export const DEMO_MARKET_GROUP_ADDRESS: Address = getAddress("0x5fbdb2315678afecb367f032d93f642f64180aa3");

/**
 * Deploys the market group as the deployer's first transaction and creates {@link DEMO_MARKETS}.
 * Must run on a fresh chain, so that the address is {@link DEMO_MARKET_GROUP_ADDRESS}.
 */
export async function deployDemo(chain: EmbeddedChain): Promise<Address> {
  const { publicClient, walletClient } = chain;
  const deployer = walletClient.account.address;
  const nonce = await publicClient.getTransactionCount({ address: deployer });
  if (nonce !== 0) throw new Error(`the demo needs a fresh chain: the deployer has already sent ${nonce} transactions`);
  const hash = await walletClient.deployContract({ abi: marketGroupAbi, bytecode: marketGroupBytecode });
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  const address = getAddress(receipt.contractAddress ?? getContractAddress({ from: deployer, nonce: 0n }));
  const { timestamp } = await publicClient.getBlock();
  for (const market of DEMO_MARKETS) {
    await send(chain, "createMarket", [
      {
        startTime: timestamp - 3600n,
        endTime: timestamp + 10n * YEAR,
        priceD18: market.priceD18,
        minPriceD18: market.minPriceD18,
        maxPriceD18: market.maxPriceD18,
        liquidity: market.liquidity,
        feeRate: market.feeRate,
        claimStatementYesOrNumeric: stringToHex(market.claim),
        claimStatementNo: "0x",
      },
    ], address);
    if (market.settlementPriceD18 !== undefined) {
      await send(chain, "settleMarket", [market.id, market.settlementPriceD18], address);
    }
  }
  return address;
}

async function send(chain: EmbeddedChain, functionName: "createMarket" | "settleMarket", args: readonly unknown[], address: Address) {
  const hash = await chain.walletClient.writeContract({ address, abi: marketGroupAbi, functionName, args } as never);
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  if (receipt.status !== "success") throw new Error(`${functionName} failed in the demo deployment`);
}
