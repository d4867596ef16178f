// The demo deployment: Uniswap v3's factory, two market groups (18- and 6-decimal collateral) and six markets,
// each on its own v3 pool and each showing one behaviour of the quoter, and the QuoterV2 the markets' params name.
import { getAddress, stringToHex, zeroAddress, type Address, type Hash, type Hex } from "viem";
import { marketGroupAbi, marketGroupBytecode } from "../generated/contracts.ts";
import { GENESIS_TIMESTAMP, type EmbeddedChain } from "./chain.ts";
import {
  DEMO_DEPLOYER,
  DEMO_MARKET_GROUP_ADDRESS,
  DEMO_MARKET_GROUPS,
  DEMO_MARKETS,
  DEMO_UNISWAP_FACTORY_ADDRESS,
  DEMO_UNISWAP_QUOTER_ADDRESS,
  type DemoMarket,
} from "./demoMarkets.ts";
import { uniswapQuoterV2, uniswapV3Factory } from "./uniswap.ts";

export * from "./demoMarkets.ts";

const HOUR = 3600n;
const YEAR = 365n * 24n * HOUR;
/**
 * Gas limits of the demo's transactions, given because they are sent without automining (no estimate). A market's
 * creation deploys two tokens and a v3 pool and places its liquidity: about 6 to 7 million gas.
 */
const DEPLOY_GAS = 6_000_000n;
const CREATE_MARKET_GAS = 9_000_000n;
const CALL_GAS = 1_000_000n;

/** A transaction of the deployment, sent with the nonce it is given. */
type Step = (nonce: number) => Promise<Hash>;

/**
 * Deploys the groups of {@link DEMO_MARKET_GROUPS} and Uniswap v3's factory, and creates {@link DEMO_MARKETS}.
 * Must run on a fresh chain: the first group is the deployer's first transaction, so that it lands at
 * {@link DEMO_MARKET_GROUP_ADDRESS}, and the factory its second, at {@link DEMO_UNISWAP_FACTORY_ADDRESS}.
 *
 * The first block holds the first group and the factory; markets 1 to 3 and the settlement of 3 are mined one per
 * block, and every later transaction goes into the sixth block: the chain's head stays at block 6 however many
 * markets the demo holds. Returns the first group's address.
 */
export async function deployDemo(chain: EmbeddedChain): Promise<Address> {
  const { publicClient, walletClient } = chain;
  const deployer = walletClient.account.address;
  const nonce = await publicClient.getTransactionCount({ address: deployer });
  if (nonce !== 0) throw new Error(`the demo needs a fresh chain: the deployer has already sent ${nonce} transactions`);
  if (getAddress(deployer) !== DEMO_DEPLOYER) throw new Error(`the demo's deployer must be ${DEMO_DEPLOYER}, got ${deployer}`);

  const [first] = DEMO_MARKET_GROUPS;
  await mineBlock(chain, [deployGroup(chain, first!.collateralDecimals), deployFactory(chain)]);
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
  steps.push(deployQuoter(chain));
  for (const step of steps.slice(0, 4)) await mineBlock(chain, [step]);
  await mineBlock(chain, steps.slice(4));

  for (const [what, address] of [...DEMO_MARKET_GROUPS.map((group) => ["market group", group.address]), ["QuoterV2", DEMO_UNISWAP_QUOTER_ADDRESS]]) {
    const code = await publicClient.getCode({ address: address as Address });
    if (code === undefined || code === "0x") throw new Error(`no ${what} at ${address} after the demo deployment`);
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
    feeRate: market.feeRate,
    ranges: market.ranges,
    claimStatementYesOrNumeric: stringToHex(market.claim),
    claimStatementNo: "0x" as Hex,
  };
}

function deployGroup(chain: EmbeddedChain, collateralDecimals: number): Step {
  const args = [collateralDecimals, DEMO_UNISWAP_FACTORY_ADDRESS, DEMO_UNISWAP_QUOTER_ADDRESS] as const;
  return (nonce) => chain.walletClient.deployContract({ abi: marketGroupAbi, bytecode: marketGroupBytecode, args, gas: DEPLOY_GAS, nonce });
}

/** v3-core's factory, its creation code as published. */
function deployFactory(chain: EmbeddedChain): Step {
  const { abi, bytecode } = uniswapV3Factory();
  return (nonce) => chain.walletClient.deployContract({ abi, bytecode, gas: DEPLOY_GAS, nonce });
}

/** v3-periphery's QuoterV2 over the factory, its creation code as published (WETH9: none, quoting never uses it). */
function deployQuoter(chain: EmbeddedChain): Step {
  const { abi, bytecode } = uniswapQuoterV2();
  const args = [DEMO_UNISWAP_FACTORY_ADDRESS, zeroAddress];
  return (nonce) => chain.walletClient.deployContract({ abi, bytecode, args, gas: DEPLOY_GAS, nonce });
}

function call(chain: EmbeddedChain, address: Address, functionName: "createMarket" | "settleMarket", args: readonly unknown[]): Step {
  const gas = functionName === "createMarket" ? CREATE_MARKET_GAS : CALL_GAS;
  return (nonce) => chain.walletClient.writeContract({ address, abi: marketGroupAbi, functionName, args, gas, nonce } as never);
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
