// The demo deployment: Uniswap v3's factory, two market groups (18- and 6-decimal collateral) and six markets,
// each on its own v3 pool and each showing one behaviour of the quoter, the QuoterV2 the markets' params name, and
// the positions of DEMO_POSITIONS.
import { erc20Abi, getAddress, stringToHex, zeroAddress, type Account, type Address, type Chain, type Hash, type Hex, type Transport, type WalletClient } from "viem";
import { marketGroupAbi, marketGroupBytecode } from "../generated/contracts.ts";
import { GENESIS_TIMESTAMP, type EmbeddedChain } from "./chain.ts";
import {
  DEMO_COLLATERAL_SUPPLY_TOKENS,
  DEMO_DEPLOYER,
  DEMO_MARKET_GROUP_ADDRESS,
  DEMO_MARKET_GROUPS,
  DEMO_MARKETS,
  DEMO_MIN_TRADE_SIZE,
  DEMO_POSITIONS,
  DEMO_TRADE_GAS,
  DEMO_TRADER,
  DEMO_TRADER_COLLATERAL_TOKENS,
  DEMO_UNISWAP_FACTORY_ADDRESS,
  DEMO_UNISWAP_QUOTER_ADDRESS,
  type DemoMarket,
  type DemoMarketGroup,
  type DemoPosition,
} from "./demoMarkets.ts";
import { uniswapQuoterV2, uniswapV3Factory } from "./uniswap.ts";

export * from "./demoMarkets.ts";

const HOUR = 3600n;
const YEAR = 365n * 24n * HOUR;
/**
 * Gas limits of the demo's transactions, given because they are sent without automining (no estimate). A group's
 * deployment deploys its collateral token and its configuration module too: about 8 million gas. A market's creation
 * deploys two tokens and a v3 pool and places its liquidity: about 6 to 7 million gas.
 */
const DEPLOY_GAS = 12_000_000n;
const CREATE_MARKET_GAS = 9_000_000n;
const CALL_GAS = 1_000_000n;

type Wallet = WalletClient<Transport, Chain, Account>;

/** A transaction of the deployment: sent from `from` with the nonce it is given, in a block mined at `blockTime`. */
interface Step {
  readonly from: Wallet;
  send(nonce: number, blockTime: bigint): Promise<Hash>;
}

/**
 * Deploys the groups of {@link DEMO_MARKET_GROUPS} and Uniswap v3's factory, creates {@link DEMO_MARKETS}, and
 * opens {@link DEMO_POSITIONS}. Must run on a fresh chain: the first group is the deployer's first transaction, so
 * that it lands at {@link DEMO_MARKET_GROUP_ADDRESS}, and the factory its second, at {@link DEMO_UNISWAP_FACTORY_ADDRESS}.
 *
 * The first block holds the first group and the factory; markets 1 to 3 and the settlement of 3 are mined one per
 * block, and the later transactions up to QuoterV2 go into the sixth block, however many markets the demo holds.
 * Then block 7 pays the trader collateral of both groups, and each owner's positions go into a block of their own
 * (the trader's, block 8, then the deployer's, block 9), each trade's collateral approved exactly (nothing is left
 * approved) and quoted at the block before. Returns the first group's address.
 */
export async function deployDemo(chain: EmbeddedChain): Promise<Address> {
  const { publicClient, walletClient } = chain;
  const deployer = walletClient.account.address;
  const nonce = await publicClient.getTransactionCount({ address: deployer });
  if (nonce !== 0) throw new Error(`the demo needs a fresh chain: the deployer has already sent ${nonce} transactions`);
  if (getAddress(deployer) !== DEMO_DEPLOYER) throw new Error(`the demo's deployer must be ${DEMO_DEPLOYER}, got ${deployer}`);
  if (getAddress(chain.traderClient.account.address) !== DEMO_TRADER) throw new Error(`the demo's trader must be ${DEMO_TRADER}`);

  const [first] = DEMO_MARKET_GROUPS;
  await mineBlock(chain, [deployGroup(chain, first!), deployFactory(chain)]);
  const { timestamp } = await publicClient.getBlock();

  const steps: Step[] = [];
  for (const group of DEMO_MARKET_GROUPS) {
    if (group !== first) steps.push(deployGroup(chain, group));
    for (const market of DEMO_MARKETS.filter((m) => m.group === group.address)) {
      steps.push(call(walletClient, group.address, "createMarket", [configOf(market, timestamp)], CREATE_MARKET_GAS));
      if (market.settlementPriceD18 !== undefined) {
        steps.push(call(walletClient, group.address, "settleMarket", [market.id, market.settlementPriceD18], CALL_GAS));
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

  const collateral = new Map<Address, Address>();
  for (const group of DEMO_MARKET_GROUPS) {
    const [, asset] = await publicClient.readContract({ address: group.address, abi: marketGroupAbi, functionName: "getMarketGroup" });
    collateral.set(group.address, asset);
  }
  await mineBlock(
    chain,
    DEMO_MARKET_GROUPS.map((group) => {
      const amount = DEMO_TRADER_COLLATERAL_TOKENS * 10n ** BigInt(group.collateralDecimals);
      return call(walletClient, collateral.get(group.address)!, "transfer", [DEMO_TRADER, amount], CALL_GAS, erc20Abi);
    }),
  );
  for (const owner of [...new Set(DEMO_POSITIONS.map((position) => position.owner))]) {
    const wallet = [chain.traderClient, walletClient].find((client) => getAddress(client.account.address) === owner)!;
    const opened: Step[] = [];
    for (const position of DEMO_POSITIONS.filter((p) => p.owner === owner)) opened.push(...(await openPosition(chain, wallet, position, collateral)));
    await mineBlock(chain, opened);
  }
  await checkPositions(chain, collateral);
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

function deployGroup(chain: EmbeddedChain, group: DemoMarketGroup): Step {
  const supply = DEMO_COLLATERAL_SUPPLY_TOKENS * 10n ** BigInt(group.collateralDecimals);
  const args = [group.collateralDecimals, DEMO_UNISWAP_FACTORY_ADDRESS, DEMO_UNISWAP_QUOTER_ADDRESS, DEMO_MIN_TRADE_SIZE, supply] as const;
  const from = chain.walletClient;
  return { from, send: (nonce) => from.deployContract({ abi: marketGroupAbi, bytecode: marketGroupBytecode, args, gas: DEPLOY_GAS, nonce }) };
}

/** v3-core's factory, its creation code as published. */
function deployFactory(chain: EmbeddedChain): Step {
  const { abi, bytecode } = uniswapV3Factory();
  const from = chain.walletClient;
  return { from, send: (nonce) => from.deployContract({ abi, bytecode, gas: DEPLOY_GAS, nonce }) };
}

/** v3-periphery's QuoterV2 over the factory, its creation code as published (WETH9: none, quoting never uses it). */
function deployQuoter(chain: EmbeddedChain): Step {
  const { abi, bytecode } = uniswapQuoterV2();
  const args = [DEMO_UNISWAP_FACTORY_ADDRESS, zeroAddress];
  const from = chain.walletClient;
  return { from, send: (nonce) => from.deployContract({ abi, bytecode, args, gas: DEPLOY_GAS, nonce }) };
}

function call(from: Wallet, address: Address, functionName: string, args: readonly unknown[], gas: bigint, abi: readonly unknown[] = marketGroupAbi): Step {
  return { from, send: (nonce) => from.writeContract({ address, abi, functionName, args, gas, nonce } as never) };
}

/**
 * The transactions that open `position` from `wallet`, each with its collateral approved exactly and its block's time
 * as its deadline: a liquidity position deposits its collateral, whole tokens, with no minimum amounts; a trade is
 * quoted at the chain's head and limited to its requirement rounded up to token units.
 */
async function openPosition(chain: EmbeddedChain, wallet: Wallet, position: DemoPosition, collateral: ReadonlyMap<Address, Address>): Promise<Step[]> {
  const { group, marketId } = position;
  const decimals = DEMO_MARKET_GROUPS.find((g) => g.address === group)!.collateralDecimals;
  const send = (functionName: string, params: Record<string, bigint | number>): Step => ({
    from: wallet,
    send: (nonce, blockTime) =>
      wallet.writeContract({ address: group, abi: marketGroupAbi, functionName, args: [{ marketId, ...params, deadline: blockTime }], gas: DEMO_TRADE_GAS, nonce } as never),
  });
  if ("liquidity" in position.kind) {
    const { lowerTick, upperTick, amountBaseToken, amountQuoteToken, collateralTokens } = position.kind.liquidity;
    const collateralAmount = collateralTokens * 10n ** BigInt(decimals);
    return [
      call(wallet, collateral.get(group)!, "approve", [group, collateralAmount], CALL_GAS, erc20Abi),
      send("createLiquidityPosition", { amountBaseToken, amountQuoteToken, collateralAmount, lowerTick, upperTick, minAmountBaseToken: 0n, minAmountQuoteToken: 0n }),
    ];
  }
  const size = position.kind.trade;
  const { result } = await chain.publicClient.simulateContract({ address: group, abi: marketGroupAbi, functionName: "quoteCreateTraderPosition", args: [marketId, size] });
  const unit = 10n ** BigInt(18 - decimals);
  const maxCollateral = (result[0] + unit - 1n) / unit;
  return [call(wallet, collateral.get(group)!, "approve", [group, maxCollateral], CALL_GAS, erc20Abi), send("createTraderPosition", { size, maxCollateral })];
}

/** Every position of DEMO_POSITIONS has its id, owner, market, kind and size, and no allowance is left. */
async function checkPositions(chain: EmbeddedChain, collateral: ReadonlyMap<Address, Address>): Promise<void> {
  const read = (address: Address, functionName: "getPosition" | "getPositionSize" | "ownerOf", positionId: bigint) =>
    chain.publicClient.readContract({ address, abi: marketGroupAbi, functionName, args: [positionId] }) as Promise<unknown>;
  for (const position of DEMO_POSITIONS) {
    const { id, kind, marketId, borrowedVBase } = (await read(position.group, "getPosition", position.positionId)) as { id: bigint; kind: number; marketId: bigint; borrowedVBase: bigint };
    const owner = (await read(position.group, "ownerOf", position.positionId)) as Address;
    const size = (await read(position.group, "getPositionSize", position.positionId)) as bigint;
    // A liquidity position's size is what it owes of base tokens, negated (as the real group's getPositionSize).
    const expected = "trade" in position.kind ? { kind: 2, size: position.kind.trade } : { kind: 1, size: -borrowedVBase };
    if (id !== position.positionId || marketId !== position.marketId || owner !== position.owner || kind !== expected.kind || size !== expected.size) {
      throw new Error(`demo position ${position.positionId} of ${position.group} is not as DEMO_POSITIONS says`);
    }
    const allowance = await chain.publicClient.readContract({ address: collateral.get(position.group)!, abi: erc20Abi, functionName: "allowance", args: [position.owner, position.group] });
    if (allowance !== 0n) throw new Error(`the demo left ${position.owner} an allowance to ${position.group}`);
  }
}

/**
 * Sends `steps` in order, each account's with consecutive nonces, and mines them into one block (automining off
 * meanwhile, with evm_setAutomine and evm_mine), every one of which must succeed. Block N is mined at the genesis
 * time plus N seconds, so that the demo's blocks and their hashes are the same on every embedded chain.
 */
async function mineBlock(chain: EmbeddedChain, steps: readonly Step[]): Promise<void> {
  const { publicClient, provider } = chain;
  const { number } = await publicClient.getBlock(); // not getBlockNumber: viem caches it for a polling interval
  const blockTime = BigInt(GENESIS_TIMESTAMP) + number + 1n;
  const nonces = new Map<Address, number>();
  const hashes: Hash[] = [];
  await provider.request({ method: "evm_setAutomine", params: [false] });
  try {
    for (const step of steps) {
      const account = step.from.account.address;
      const nonce = nonces.get(account) ?? (await publicClient.getTransactionCount({ address: account }));
      nonces.set(account, nonce + 1);
      hashes.push(await step.send(nonce, blockTime));
    }
    await provider.request({ method: "evm_setNextBlockTimestamp", params: [Number(blockTime)] } as never);
    await provider.request({ method: "evm_mine", params: [] });
  } finally {
    await provider.request({ method: "evm_setAutomine", params: [true] });
  }
  for (const hash of hashes) {
    const receipt = await publicClient.getTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`transaction ${hash} of the demo deployment failed`);
  }
}
