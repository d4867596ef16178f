// The demo's market groups and markets: where each group lands, and each market's pool and the behaviour of the
// quoter it shows. src/devchain/demo.ts deploys them.
import { getAddress, getContractAddress, type Address } from "viem";

const E18 = 10n ** 18n;

/**
 * Hardhat's first default account, the demo's deployer: its nonces fix the groups' addresses. It owns the groups and
 * holds their collateral tokens' supply.
 */
export const DEMO_DEPLOYER: Address = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

/** Hardhat's second default account, the demo's trader: the deployment pays it collateral of both groups. */
export const DEMO_TRADER: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

/**
 * Where the deployer's first contract lands: nonce 0 of Hardhat's first default account. Often written
 * 0x5FbDB2315678afecb367f032d93f642f64180aa3, a spelling that fails EIP-55 (semantics §2 rejects it).
 * Its collateral token has 18 decimals.
 */
export const DEMO_MARKET_GROUP_ADDRESS: Address = getAddress("0x5fbdb2315678afecb367f032d93f642f64180aa3");

/** Uniswap v3's factory: the deployer's second contract (nonce 1), right after the first group, which is given it. */
export const DEMO_UNISWAP_FACTORY_ADDRESS: Address = getContractAddress({ from: DEMO_DEPLOYER, nonce: 1n });

/**
 * Uniswap's QuoterV2 over the factory, which the groups name in their markets' params (`uniswapQuoter`): the
 * deployer's eleventh transaction (nonce 10), after both groups and every market's, so that it moves no other
 * address; the demo's payments and positions come after it. Each group is given its address when deployed.
 */
export const DEMO_UNISWAP_QUOTER_ADDRESS: Address = getContractAddress({ from: DEMO_DEPLOYER, nonce: 10n });

/**
 * The second group, collateralised by a 6-decimal (USDC-like) token: the deployer's ninth transaction
 * (nonce 8), after the first group, the factory and the first group's six transactions.
 */
export const DEMO_USDC_MARKET_GROUP_ADDRESS: Address = getContractAddress({ from: DEMO_DEPLOYER, nonce: 8n });

/**
 * The smallest trade on the demo groups (`minTradeSize`, 18 decimals: 10^12 wei, a millionth of a base token), set
 * when a group is deployed. Trades check it and quotes do not (semantics §9): on thin market 4, or with a budget of a
 * few hundred thousand wei, the quoter answers sizes below it, which only the trade rejects (PositionSizeBelowMin).
 */
export const DEMO_MIN_TRADE_SIZE = 10n ** 12n;

/** Whole tokens of collateral each group's token mints to the deployer, its only supply. */
export const DEMO_COLLATERAL_SUPPLY_TOKENS = 10n ** 12n;
/** Whole tokens of collateral of each group the deployment pays the trader. Nothing is approved to any group. */
export const DEMO_TRADER_COLLATERAL_TOKENS = 10n ** 9n;

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
  /** The liquidity ranges, in prices: the group rounds each inward to ticks of the fee tier's spacing. */
  readonly ranges: readonly DemoRange[];
  /** A Uniswap v3 fee tier, in pips: 10_000 is 1% (tick spacing 200), 3_000 is 0.3% (spacing 60). */
  readonly feeRate: number;
  readonly claim: string;
  /** Settled at this D18 price right after creation. */
  readonly settlementPriceD18?: bigint;
  /** Created already ended (it started two hours and ended one hour before the deployment) and never settled. */
  readonly ended?: true;
  /** A request that shows the market's role, for the README and the start-up banner. */
  readonly example: { readonly expectedPrice: string; readonly collateralAvailable: string };
}

/** One liquidity range: Uniswap's liquidity L between two prices. */
export interface DemoRange {
  readonly minPriceD18: bigint;
  readonly maxPriceD18: bigint;
  readonly liquidity: bigint;
}

/**
 * The pool of the deep yes/no markets: price 0.5 in [0.01, 0.99], 1% fee, liquidity 10^24 over the whole range and
 * as much again in [0.4, 0.6] and in [0.45, 0.55], so that a large
 * trade crosses initialized ticks.
 */
const DEEP_YES_NO = {
  priceD18: E18 / 2n,
  minPriceD18: E18 / 100n,
  maxPriceD18: (E18 * 99n) / 100n,
  ranges: [
    { minPriceD18: E18 / 100n, maxPriceD18: (E18 * 99n) / 100n, liquidity: 10n ** 24n },
    { minPriceD18: (E18 * 4n) / 10n, maxPriceD18: (E18 * 6n) / 10n, liquidity: 10n ** 24n },
    { minPriceD18: (E18 * 45n) / 100n, maxPriceD18: (E18 * 55n) / 100n, liquidity: 10n ** 24n },
  ],
  feeRate: 10_000,
} as const;

/** One range over the whole price range. */
const whole = (minPriceD18: bigint, maxPriceD18: bigint, liquidity: bigint) => ({ minPriceD18, maxPriceD18, ranges: [{ minPriceD18, maxPriceD18, liquidity }] });

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
    ...whole(500n * E18, 2000n * E18, 10n ** 20n),
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
    ...whole((E18 * 4n) / 10n, (E18 * 6n) / 10n, 10n ** 14n),
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

/**
 * The gas limit to send a trade (createTraderPosition, modifyTraderPosition) on a demo market with, instead of an
 * estimate: a v3 swap writes an oracle observation only in a block whose timestamp differs from the last one's, so an
 * estimate made at the time of the previous block can fall short of the swap in the next. A new position that
 * crosses no tick needs about 400,000 (the swap, the position's storage, its token, the collateral's transfer), some
 * 40,000 more per tick crossed.
 */
export const DEMO_TRADE_GAS = 1_000_000n;

/**
 * The demo chain's head once deployed: block 9 (six blocks of contracts and markets, the trader's payment, then the
 * trader's positions and the deployer's). Its answers are about it, and its hash is the same on every embedded
 * chain, until something trades.
 */
export const DEMO_HEAD_BLOCK = 9n;

/**
 * A liquidity position the demo opens: the tokens it offers in [lowerTick, upperTick] (multiples of the pool's tick
 * spacing within the market's bounds) and the collateral it deposits, in whole tokens, approved exactly.
 */
export interface DemoLiquidity {
  readonly lowerTick: number;
  readonly upperTick: number;
  readonly amountBaseToken: bigint;
  readonly amountQuoteToken: bigint;
  readonly collateralTokens: bigint;
}

/** A position the demo deployment opens. */
export interface DemoPosition {
  readonly group: Address;
  /** Its id in its group (its ERC-721 token id). */
  readonly positionId: bigint;
  readonly marketId: bigint;
  readonly owner: Address;
  /** A trader position of `size` base tokens (positive: LONG), or a liquidity position (createLiquidityPosition). */
  readonly kind: { readonly trade: bigint } | { readonly liquidity: DemoLiquidity };
  readonly role: string;
}

/**
 * The positions open on the demo chain, in the order the deployment opens them (which gives their ids): on market 1
 * of the 18-decimal group a LONG of the trader and a SHORT of the deployer, on the USDC group's market 1 a LONG of the
 * trader, and the deployer's liquidity on market 1, which a trader's quote or trade refuses. The trades are small
 * against market 1's liquidity (10^24 over three ranges): its price moves by a few hundredths of a percent. The
 * liquidity lies above the price, in ticks [-1000, -200] (prices 0.9048 to 0.9802, the top of the market's range):
 * 1000 base tokens, lent by the pool, that need about 38 tokens of collateral (what they would fetch at the top price
 * is less than what they are worth there). It moves no trade the demo's examples make.
 */
export const DEMO_POSITIONS: readonly DemoPosition[] = [
  { group: DEMO_MARKET_GROUP_ADDRESS, positionId: 1n, marketId: 1n, owner: DEMO_TRADER, kind: { trade: 1000n * E18 }, role: "the trader's LONG of 1000 on market 1" },
  { group: DEMO_USDC_MARKET_GROUP_ADDRESS, positionId: 1n, marketId: 1n, owner: DEMO_TRADER, kind: { trade: 1000n * E18 }, role: "the trader's LONG of 1000 on the USDC group's market 1" },
  { group: DEMO_MARKET_GROUP_ADDRESS, positionId: 2n, marketId: 1n, owner: DEMO_DEPLOYER, kind: { trade: -500n * E18 }, role: "the deployer's SHORT of 500 on market 1" },
  {
    group: DEMO_MARKET_GROUP_ADDRESS,
    positionId: 3n,
    marketId: 1n,
    owner: DEMO_DEPLOYER,
    kind: { liquidity: { lowerTick: -1000, upperTick: -200, amountBaseToken: 1000n * E18, amountQuoteToken: 0n, collateralTokens: 50n } },
    role: "the deployer's liquidity above market 1's price: 1000 base tokens in [0.9048, 0.9802], not a trader position",
  },
];
