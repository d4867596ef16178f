// Test harness: deploys Uniswap v3's factory (v3-core's published bytecode) and MarketGroup on an embedded chain,
// and wraps their calls.
import { decodeErrorResult, encodeDeployData, isHex, maxUint256, parseEventLogs, zeroAddress, type Account, type Address, type Hex } from "viem";
import { startEmbeddedChain, type EmbeddedChain } from "../../src/devchain/chain.ts";
import { uniswapV3Factory, uniswapV3Pool } from "../../src/devchain/uniswap.ts";
import { collateralTokenAbi, marketGroupAbi, marketGroupBytecode } from "../../src/generated/contracts.ts";
import type { LiquidityMint } from "../../src/chain/trade/trading.ts";
import type { MarketSpec } from "./poolModel.ts";
import { minedReceipt } from "../support/receipts.ts";

export interface LiquidityRange {
  minPriceD18: bigint;
  maxPriceD18: bigint;
  liquidity: bigint;
}

export interface MarketConfig {
  startTime: bigint;
  endTime: bigint;
  priceD18: bigint;
  minPriceD18: bigint;
  maxPriceD18: bigint;
  feeRate: number;
  ranges: readonly LiquidityRange[];
  claimStatementYesOrNumeric: Hex;
  claimStatementNo: Hex;
}

/** The factory deployed on each chain, once. */
const factories = new WeakMap<EmbeddedChain, Promise<Address>>();

/** v3-core's factory on `chain`, deployed from its published creation code on first use. */
export function factoryOn(chain: EmbeddedChain): Promise<Address> {
  let factory = factories.get(chain);
  if (factory === undefined) {
    const { abi, bytecode } = uniswapV3Factory();
    factory = chain.walletClient
      .deployContract({ abi, bytecode })
      .then((hash) => minedReceipt(chain.publicClient, hash))
      .then((receipt) => receipt.contractAddress!);
    factories.set(chain, factory);
  }
  return factory;
}

export interface QuoteResult {
  requiredCollateral: bigint;
  fillPrice: bigint;
  priceAfter: bigint;
}

/** A decoded revert: the custom error's name and arguments (Panic and Error(string) included). */
export interface Revert {
  errorName: string;
  args: readonly unknown[];
}

/** An open window: started long ago, ends far in the future. */
export const ALWAYS_OPEN = { startTime: 1n, endTime: 1n << 40n } as const;

/** A full market config from a spec, always open, with sample claim statements. */
export function configOf(m: MarketSpec, window: { startTime: bigint; endTime: bigint } = ALWAYS_OPEN): MarketConfig {
  return {
    ...window,
    priceD18: m.priceD18,
    minPriceD18: m.minPriceD18,
    maxPriceD18: m.maxPriceD18,
    feeRate: m.feeRate,
    ranges: m.ranges,
    claimStatementYesOrNumeric: "0x5965733f",
    claimStatementNo: "0x",
  };
}

/** Finds the revert data in an error thrown by viem (a call's, or a mined transaction's), and decodes it. */
export function revertOf(error: unknown): Revert | undefined {
  for (let e: unknown = error; e !== null && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const data = (e as { data?: unknown }).data;
    const hex = isHex(data) ? data : isHex((data as { data?: unknown } | undefined)?.data) ? (data as { data: Hex }).data : undefined;
    if (hex !== undefined && hex !== "0x") {
      const decoded = decodeErrorResult({ abi: [...marketGroupAbi, ...collateralTokenAbi], data: hex });
      return { errorName: decoded.errorName, args: decoded.args ?? [] };
    }
  }
  return undefined;
}

/**
 * The raw revert data of `action`, which must revert: the first non-empty data of the error or its causes, "0x" for a
 * revert without data (as v3's pools revert on a tick off their spacing).
 */
export async function revertData(action: Promise<unknown>): Promise<Hex> {
  try {
    await action;
  } catch (error) {
    for (let e: unknown = error; e !== null && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
      const data = (e as { data?: unknown }).data;
      if (isHex(data) && data !== "0x") return data;
      const inner = (data as { data?: unknown } | undefined)?.data;
      if (isHex(inner) && inner !== "0x") return inner;
    }
    if (/revert/i.test(String(error))) return "0x";
    throw error;
  }
  throw new Error("expected a revert, but it succeeded");
}

/** Awaits `action`, which must revert; returns the decoded revert. */
export async function reverted(action: Promise<unknown>): Promise<Revert> {
  try {
    await action;
  } catch (error) {
    const revert = revertOf(error);
    if (revert === undefined) throw error;
    return revert;
  }
  throw new Error("expected a revert, but the call succeeded");
}

/** Collateral each harness group mints to the deployer, in token units: half of it is paid to the trader. */
export const COLLATERAL_SUPPLY = 10n ** 40n;

/** What createLiquidityPosition takes (the service's LiquidityMint), its deadline none unless given. */
export type LiquidityParams = Omit<LiquidityMint, "deadline"> & { readonly deadline?: bigint };
/** The gas a harness trade is sent with: a fixed limit, no estimate (see DEMO_TRADE_GAS). */
const TRADE_GAS = 2_000_000n;

type Wallet = EmbeddedChain["traderClient"];

export class MarketGroupHarness {
  private constructor(
    readonly chain: EmbeddedChain,
    readonly address: Address,
    /** The group's collateral token. */
    readonly collateral: Address,
  ) {}

  /**
   * Starts a chain (unless given one) and deploys MarketGroup, with a collateral token of `collateralDecimals`, the
   * chain's v3 factory and `minTradeSize` (none unless given), from the deployer (the owner), which holds the token's
   * supply; the trader is paid half of it, and both accounts approve the group for all they hold, once.
   */
  static async start(chain?: EmbeddedChain, collateralDecimals = 18, minTradeSize = 0n): Promise<MarketGroupHarness> {
    const c = chain ?? (await startEmbeddedChain());
    const args = [collateralDecimals, await factoryOn(c), zeroAddress, minTradeSize, COLLATERAL_SUPPLY] as const;
    const hash = await c.walletClient.deployContract({ abi: marketGroupAbi, bytecode: marketGroupBytecode, args });
    const receipt = await minedReceipt(c.publicClient, hash);
    if (receipt.contractAddress == null) throw new Error("deployment failed");
    const [, collateral] = await c.publicClient.readContract({ address: receipt.contractAddress, abi: marketGroupAbi, functionName: "getMarketGroup" });
    const h = new MarketGroupHarness(c, receipt.contractAddress, collateral);
    await h.sendAs(c.walletClient, collateral, collateralTokenAbi, "transfer", [c.traderClient.account.address, COLLATERAL_SUPPLY / 2n]);
    for (const account of [c.walletClient, c.traderClient]) await h.sendAs(account, collateral, collateralTokenAbi, "approve", [h.address, maxUint256]);
    return h;
  }

  /** The deployment of a MarketGroup with `collateralDecimals`, simulated (eth_call of the creation code); for reverts. */
  static async simulateDeploy(chain: EmbeddedChain, collateralDecimals: number) {
    return chain.publicClient.call({
      account: chain.walletClient.account,
      data: encodeDeployData({ abi: marketGroupAbi, bytecode: marketGroupBytecode, args: [collateralDecimals, await factoryOn(chain), zeroAddress, 0n, 0n] }),
    });
  }

  private get contract() {
    return { address: this.address, abi: marketGroupAbi } as const;
  }

  /**
   * `functionName(args)` of `address` sent by `from` with a fixed gas limit (no estimation); returns the receipt's
   * logs, decoded with the group's ABI. The node mines a reverting transaction: its revert data, read from the node's
   * call trace, is thrown.
   */
  async sendAs(from: Wallet, address: Address, abi: readonly unknown[], functionName: string, args: readonly unknown[]) {
    const hash = await from.writeContract({ address, abi, functionName, args, gas: TRADE_GAS } as never);
    const receipt = await minedReceipt(this.chain.publicClient, hash);
    if (receipt.status === "reverted") {
      const trace = (await this.chain.provider.request({
        method: "debug_traceTransaction",
        params: [hash, { tracer: "callTracer" }],
      } as never)) as { output?: Hex; error?: string };
      throw Object.assign(new Error(`${functionName} reverted in block ${receipt.blockNumber}: ${trace.error ?? "no reason"}`), { data: trace.output });
    }
    return parseEventLogs({ abi: marketGroupAbi, logs: receipt.logs });
  }

  /** Creates a market as the owner and returns its id, read from the MarketCreated event. */
  async createMarket(config: MarketConfig): Promise<bigint> {
    const hash = await this.chain.walletClient.writeContract({ ...this.contract, functionName: "createMarket", args: [config], gas: 15_000_000n });
    const receipt = await minedReceipt(this.chain.publicClient, hash);
    const [created] = parseEventLogs({ abi: marketGroupAbi, logs: receipt.logs, eventName: "MarketCreated" });
    if (created === undefined) throw new Error("no MarketCreated event");
    return created.args.marketId;
  }

  /** createMarket simulated from `from` (default: the owner); for reverts. */
  simulateCreateMarket(config: MarketConfig, from = this.chain.walletClient.account) {
    return this.chain.publicClient.simulateContract({ ...this.contract, functionName: "createMarket", args: [config], account: from });
  }

  /** settleMarket simulated from `from`; for reverts. */
  simulateSettle(marketId: bigint, settlementPriceD18: bigint, from = this.chain.walletClient.account) {
    return this.chain.publicClient.simulateContract({ ...this.contract, functionName: "settleMarket", args: [marketId, settlementPriceD18], account: from });
  }

  async settle(marketId: bigint, settlementPriceD18: bigint): Promise<void> {
    const hash = await this.chain.walletClient.writeContract({ ...this.contract, functionName: "settleMarket", args: [marketId, settlementPriceD18] });
    await minedReceipt(this.chain.publicClient, hash);
  }

  /** quoteCreateTraderPosition through eth_call. */
  async quote(marketId: bigint, size: bigint): Promise<QuoteResult> {
    const { result } = await this.chain.publicClient.simulateContract({
      ...this.contract,
      functionName: "quoteCreateTraderPosition",
      args: [marketId, size],
    });
    const [requiredCollateral, fillPrice, priceAfter] = result;
    return { requiredCollateral, fillPrice, priceAfter };
  }

  /**
   * createTraderPosition sent by `from` (the trader unless given), no collateral limit unless `maxCollateral` (token
   * units) is given, no deadline unless given; returns the receipt's logs (a reverting one throws its revert).
   */
  trade(marketId: bigint, size: bigint, maxCollateral = 0n, from: Wallet = this.chain.traderClient, deadline = maxUint256) {
    return this.sendAs(from, this.address, marketGroupAbi, "createTraderPosition", [{ marketId, size, maxCollateral, deadline }]);
  }

  /** createTraderPosition simulated from `from` (the trader unless given): the id it would mint. */
  simulateTrade(marketId: bigint, size: bigint, maxCollateral = 0n, from: Account = this.chain.traderClient.account, deadline = maxUint256) {
    return this.chain.publicClient.simulateContract({ ...this.contract, functionName: "createTraderPosition", args: [{ marketId, size, maxCollateral, deadline }], account: from });
  }

  /** A new position of `size` opened by the trader (or `from`) without a limit; its id. */
  async open(marketId: bigint, size: bigint, from: Wallet = this.chain.traderClient): Promise<bigint> {
    const [trade] = parseEventLogs({ abi: marketGroupAbi, logs: await this.trade(marketId, size, 0n, from), eventName: "Trade" });
    return trade!.args.positionId;
  }

  /** createLiquidityPosition sent by `from` (the trader unless given); the receipt's logs (a revert throws its data). */
  provide(params: LiquidityParams, from: Wallet = this.chain.traderClient) {
    return this.sendAs(from, this.address, marketGroupAbi, "createLiquidityPosition", [{ deadline: maxUint256, ...params }]);
  }

  /** createLiquidityPosition simulated from `from` (the trader unless given): what it would answer, or its revert. */
  simulateProvide(params: LiquidityParams, from: Account = this.chain.traderClient.account) {
    return this.chain.publicClient.simulateContract({ ...this.contract, functionName: "createLiquidityPosition", args: [{ deadline: maxUint256, ...params }], account: from });
  }

  /** modifyTraderPosition sent by `from` (the trader unless given) to the new size `size`; the receipt's logs. */
  modify(positionId: bigint, size: bigint, deltaCollateralLimit = 0n, from: Wallet = this.chain.traderClient, deadline = maxUint256) {
    return this.sendAs(from, this.address, marketGroupAbi, "modifyTraderPosition", [{ positionId, size, deltaCollateralLimit, deadline }]);
  }

  /** modifyTraderPosition simulated from `from` (the trader unless given); for reverts. */
  simulateModify(positionId: bigint, size: bigint, deltaCollateralLimit = 0n, from: Account = this.chain.traderClient.account, deadline = maxUint256) {
    return this.chain.publicClient.simulateContract({ ...this.contract, functionName: "modifyTraderPosition", args: [{ positionId, size, deltaCollateralLimit, deadline }], account: from });
  }

  /** quoteModifyTraderPosition through eth_call from `from` (the trader unless given). */
  async quoteModify(positionId: bigint, size: bigint, from: Account = this.chain.traderClient.account) {
    const { result } = await this.chain.publicClient.simulateContract({ ...this.contract, functionName: "quoteModifyTraderPosition", args: [positionId, size], account: from });
    const [collateralDelta, closePnL, fillPrice, priceAfter] = result;
    return { collateralDelta, closePnL, fillPrice, priceAfter };
  }

  position(positionId: bigint) {
    return this.chain.publicClient.readContract({ ...this.contract, functionName: "getPosition", args: [positionId] });
  }

  positionSize(positionId: bigint): Promise<bigint> {
    return this.chain.publicClient.readContract({ ...this.contract, functionName: "getPositionSize", args: [positionId] });
  }

  ownerOf(positionId: bigint): Promise<Address> {
    return this.chain.publicClient.readContract({ ...this.contract, functionName: "ownerOf", args: [positionId] });
  }

  /** The collateral token balance of `account`, in token units. */
  collateralBalance(account: Address): Promise<bigint> {
    return this.chain.publicClient.readContract({ address: this.collateral, abi: collateralTokenAbi, functionName: "balanceOf", args: [account] });
  }

  getMarketGroup() {
    return this.chain.publicClient.readContract({ ...this.contract, functionName: "getMarketGroup" });
  }

  /** decimals() of the group's collateral token, read through getMarketGroup().collateralAsset. */
  async collateralDecimals(): Promise<number> {
    const [, collateralAsset] = await this.getMarketGroup();
    return this.chain.publicClient.readContract({ address: collateralAsset, abi: collateralTokenAbi, functionName: "decimals" });
  }

  getMarket(marketId: bigint) {
    return this.chain.publicClient.readContract({ ...this.contract, functionName: "getMarket", args: [marketId] });
  }

  referencePrice(marketId: bigint): Promise<bigint> {
    return this.chain.publicClient.readContract({ ...this.contract, functionName: "getReferencePrice", args: [marketId] });
  }

  sqrtPriceX96(marketId: bigint): Promise<bigint> {
    return this.chain.publicClient.readContract({ ...this.contract, functionName: "getSqrtPriceX96", args: [marketId] });
  }

  /** The market's v3 pool: its address and its slot0 (sqrt price and tick) now. */
  async pool(marketId: bigint): Promise<{ address: Address; sqrtPriceX96: bigint; tick: number }> {
    const [data] = await this.getMarket(marketId);
    const [sqrtPriceX96, tick] = (await this.chain.publicClient.readContract({ address: data.pool, abi: uniswapV3Pool().abi, functionName: "slot0" })) as readonly [bigint, number];
    return { address: data.pool, sqrtPriceX96, tick };
  }

  /** The liquidity ranges the group placed in the market's pool (ticks, their sqrt prices, L). */
  ranges(marketId: bigint) {
    return this.chain.publicClient.readContract({ ...this.contract, functionName: "getLiquidityRanges", args: [marketId] });
  }

  async latestTimestamp(): Promise<bigint> {
    return (await this.chain.publicClient.getBlock()).timestamp;
  }

  /** Mines the next block at exactly `timestamp`. */
  async setNextBlockTimestamp(timestamp: bigint): Promise<void> {
    await this.chain.provider.request({ method: "evm_setNextBlockTimestamp", params: [`0x${timestamp.toString(16)}`] });
  }
}
