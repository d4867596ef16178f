// The demo deployment on a fresh embedded chain: both groups and Uniswap v3's factory at their fixed addresses,
// every market of DEMO_MARKETS on its v3 pool as described, the positions of DEMO_POSITIONS and the collateral the
// accounts hold, the head at block 9, the expired market, the 6-decimal group and the minimum trade size as the
// quoter and a trader will meet them.
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { erc20Abi, getContractAddress, hexToBytes, hexToString, maxUint256, type Address } from "viem";
import { GENESIS_TIMESTAMP, startEmbeddedChain, type EmbeddedChain } from "../../src/devchain/chain.ts";
import {
  DEMO_COLLATERAL_SUPPLY_TOKENS,
  DEMO_DEPLOYER,
  DEMO_HEAD_BLOCK,
  DEMO_MARKET_GROUP_ADDRESS,
  DEMO_MARKET_GROUPS,
  DEMO_MARKETS,
  DEMO_MIN_TRADE_SIZE,
  DEMO_POSITIONS,
  DEMO_TRADER,
  DEMO_TRADER_COLLATERAL_TOKENS,
  DEMO_UNISWAP_FACTORY_ADDRESS,
  DEMO_UNISWAP_QUOTER_ADDRESS,
  DEMO_USDC_MARKET_GROUP_ADDRESS,
  deployDemo,
} from "../../src/devchain/demo.ts";
import { uniswapQuoterV2, uniswapV3Factory, uniswapV3Pool } from "../../src/devchain/uniswap.ts";
import { collateralTokenAbi, marketGroupAbi } from "../../src/generated/contracts.ts";
import { reverted, revertOf } from "./marketGroupHarness.ts";

let chain: EmbeddedChain;
before(async () => {
  chain = await startEmbeddedChain();
  assert.equal(await deployDemo(chain), DEMO_MARKET_GROUP_ADDRESS);
});

const read = <T>(address: `0x${string}`, functionName: string, args: readonly unknown[] = []) =>
  chain.publicClient.readContract({ address, abi: marketGroupAbi, functionName, args } as never) as Promise<T>;

async function quoteRevert(group: `0x${string}`, id: bigint, size: bigint) {
  try {
    await chain.publicClient.simulateContract({ address: group, abi: marketGroupAbi, functionName: "quoteCreateTraderPosition", args: [id, size] });
  } catch (error) {
    return revertOf(error);
  }
  throw new Error("the quote succeeded");
}

describe("demo deployment", () => {
  test("the first group is the deployer's first contract, v3-core's factory its second, the USDC group its ninth transaction, QuoterV2 its eleventh; then the payments and the positions; the head at block 9", async () => {
    const deployer = chain.walletClient.account.address;
    assert.equal(deployer, DEMO_DEPLOYER);
    assert.equal(chain.traderClient.account.address, DEMO_TRADER);
    assert.equal(DEMO_MARKET_GROUP_ADDRESS, getContractAddress({ from: deployer, nonce: 0n }));
    assert.equal(DEMO_UNISWAP_FACTORY_ADDRESS, getContractAddress({ from: deployer, nonce: 1n }));
    assert.equal(DEMO_USDC_MARKET_GROUP_ADDRESS, getContractAddress({ from: deployer, nonce: 8n }));
    assert.equal(DEMO_UNISWAP_QUOTER_ADDRESS, getContractAddress({ from: deployer, nonce: 10n }));
    // After QuoterV2: two payments to the trader, then the deployer's SHORT and its liquidity position, each after its
    // approval.
    assert.equal(await chain.publicClient.getTransactionCount({ address: deployer }), 17);
    // The trader's two LONGs, each after its approval.
    assert.equal(await chain.publicClient.getTransactionCount({ address: DEMO_TRADER }), 4);
    assert.equal(await chain.publicClient.getBlockNumber(), DEMO_HEAD_BLOCK);
    assert.equal(DEMO_HEAD_BLOCK, 9n);
    // Every block at a fixed time: block N at the genesis time plus N seconds.
    for (const blockNumber of [1n, 6n, 9n]) {
      assert.equal((await chain.publicClient.getBlock({ blockNumber })).timestamp, BigInt(GENESIS_TIMESTAMP) + blockNumber);
    }
    // The factory runs v3-core's published code, and both groups create their pools with it.
    const code = hexToBytes((await chain.publicClient.getCode({ address: DEMO_UNISWAP_FACTORY_ADDRESS }))!);
    const published = hexToBytes(uniswapV3Factory().deployedBytecode);
    // The bytes the artifact leaves zero are the immutables the constructor fills in (the factory's own address).
    assert.ok(code.length === published.length && published.every((byte, i) => byte === code[i] || byte === 0), "v3-core's factory code");
    for (const group of DEMO_MARKET_GROUPS) assert.equal(await read(group.address, "uniswapFactory"), DEMO_UNISWAP_FACTORY_ADDRESS);
  });

  test("QuoterV2 runs v3-periphery's published code over the factory, and every market's params name it", async () => {
    const code = hexToBytes((await chain.publicClient.getCode({ address: DEMO_UNISWAP_QUOTER_ADDRESS }))!);
    const published = hexToBytes(uniswapQuoterV2().deployedBytecode);
    // The bytes the artifact leaves zero are its immutables (the factory, WETH9).
    assert.ok(code.length === published.length && published.every((byte, i) => byte === code[i] || byte === 0), "v3-periphery's QuoterV2 code");
    const { abi } = uniswapQuoterV2();
    assert.equal(await chain.publicClient.readContract({ address: DEMO_UNISWAP_QUOTER_ADDRESS, abi, functionName: "factory" }), DEMO_UNISWAP_FACTORY_ADDRESS);
    for (const market of DEMO_MARKETS) {
      const [, params] = await read<readonly [unknown, { uniswapQuoter: string }]>(market.group, "getMarket", [market.id]);
      assert.equal(params.uniswapQuoter, DEMO_UNISWAP_QUOTER_ADDRESS, `${market.group} ${market.id}`);
    }
  });

  test("each group's collateral token has the decimals DEMO_MARKET_GROUPS gives it: 18 and 6", async () => {
    assert.deepEqual(DEMO_MARKET_GROUPS.map((g) => g.collateralDecimals), [18, 6]);
    for (const group of DEMO_MARKET_GROUPS) {
      const [owner, collateralAsset] = await read<readonly [string, `0x${string}`]>(group.address, "getMarketGroup");
      assert.equal(owner, chain.walletClient.account.address);
      const decimals = await chain.publicClient.readContract({ address: collateralAsset, abi: collateralTokenAbi, functionName: "decimals" });
      assert.equal(decimals, group.collateralDecimals, group.address);
    }
  });

  test("every market of DEMO_MARKETS is on chain as described (group, id, range, its v3 pool, fee tier, liquidity ranges, claim, settlement, price)", async () => {
    assert.deepEqual(DEMO_MARKETS.map((m) => [m.group, m.id]), [
      [DEMO_MARKET_GROUP_ADDRESS, 1n],
      [DEMO_MARKET_GROUP_ADDRESS, 2n],
      [DEMO_MARKET_GROUP_ADDRESS, 3n],
      [DEMO_MARKET_GROUP_ADDRESS, 4n],
      [DEMO_MARKET_GROUP_ADDRESS, 5n],
      [DEMO_USDC_MARKET_GROUP_ADDRESS, 1n],
    ]);
    for (const market of DEMO_MARKETS) {
      const [data, params] = await read<readonly [any, any]>(market.group, "getMarket", [market.id]);
      const context = `${market.group} ${market.id}`;
      assert.equal(data.marketId, market.id, context);
      // The price range is the liquidity's: its outer ticks' prices (rounded down), inside the configured range.
      const placed = await read<readonly { sqrtLowerX96: bigint; sqrtUpperX96: bigint; liquidity: bigint }[]>(market.group, "getLiquidityRanges", [market.id]);
      const priceOf = (sqrt: bigint) => (sqrt * sqrt * 10n ** 18n) >> 192n;
      assert.equal(data.minPriceD18, priceOf(placed[0]!.sqrtLowerX96), context);
      assert.equal(data.maxPriceD18, priceOf(placed[0]!.sqrtUpperX96), context);
      assert.ok(data.minPriceD18 >= market.minPriceD18 && data.maxPriceD18 <= market.maxPriceD18, context);
      assert.equal(params.feeRate, market.feeRate, context);
      const pool = await chain.publicClient.readContract({ address: DEMO_UNISWAP_FACTORY_ADDRESS, abi: uniswapV3Factory().abi, functionName: "getPool", args: [data.baseToken, data.quoteToken, market.feeRate] });
      assert.equal(pool, data.pool, context);
      // The configured ranges, then one per demo liquidity position on the market, which the liquidity joins.
      const minted = DEMO_POSITIONS.filter((p) => p.group === market.group && p.marketId === market.id && "liquidity" in p.kind);
      assert.deepEqual(placed.map((r) => r.liquidity).slice(0, market.ranges.length), market.ranges.map((r) => r.liquidity), context);
      assert.equal(placed.length, market.ranges.length + minted.length, context);
      assert.equal(hexToString(data.claimStatementYesOrNumeric), market.claim, context);
      assert.equal(data.settled, market.settlementPriceD18 !== undefined, context);
      // The pool's price, rounded down: a market created at 0.5 reads back 0.499999999999999999. The demo's positions
      // (a net LONG on each market 1) moved it up by less than 0.05%.
      const [sqrtPriceX96] = (await chain.publicClient.readContract({ address: data.pool, abi: uniswapV3Pool().abi, functionName: "slot0" })) as readonly [bigint];
      const poolPrice = (sqrtPriceX96 * sqrtPriceX96 * 10n ** 18n) >> 192n;
      if (DEMO_POSITIONS.some((p) => p.group === market.group && p.marketId === market.id && "trade" in p.kind)) {
        assert.ok(poolPrice > market.priceD18 && (poolPrice - market.priceD18) * 2_000n < market.priceD18, `${context}: ${poolPrice}`);
      } else {
        assert.ok(poolPrice < market.priceD18 && market.priceD18 - poolPrice <= 1n, `${context}: ${poolPrice}`);
      }
      assert.equal(await read<bigint>(market.group, "getReferencePrice", [market.id]), market.settlementPriceD18 ?? poolPrice, context);
    }
    // No sixth market in the first group, no second one in the USDC group: zero structs.
    for (const [group, id] of [[DEMO_MARKET_GROUP_ADDRESS, 6n], [DEMO_USDC_MARKET_GROUP_ADDRESS, 2n]] as const) {
      const [data] = await read<readonly [any]>(group, "getMarket", [id]);
      assert.equal(data.startTime, 0n);
    }
  });

  test("the open markets end ten years after the deployment; market 5 ended an hour before it and was never settled", async () => {
    const { timestamp } = await chain.publicClient.getBlock();
    for (const market of DEMO_MARKETS) {
      const [data] = await read<readonly [any]>(market.group, "getMarket", [market.id]);
      if (market.ended) {
        assert.ok(data.endTime < timestamp && data.startTime < data.endTime, `${market.id}: ${data.startTime} ${data.endTime} at ${timestamp}`);
        assert.equal(data.settled, false);
      } else {
        assert.ok(data.endTime > timestamp + 9n * 365n * 86_400n, `${market.id}: ends ${data.endTime}`);
        assert.ok(data.startTime < timestamp);
      }
    }
  });

  test("market 5: every quote, LONG or SHORT, reverts ExpiredMarketNotSettled(its end time)", async () => {
    const expired = DEMO_MARKETS.find((m) => m.ended)!;
    const [data] = await read<readonly [any]>(expired.group, "getMarket", [expired.id]);
    for (const size of [1n, -1n, 10n ** 18n, -(10n ** 21n)]) {
      assert.deepEqual(await quoteRevert(expired.group, expired.id, size), { errorName: "ExpiredMarketNotSettled", args: [data.endTime] }, `size ${size}`);
    }
  });

  test("the USDC market quotes in 18-decimal units; the trade's limit is in USDC units: ceil(requiredCollateral / 10^12) passes, one unit less reverts CollateralLimitReached", async () => {
    const size = 10n ** 21n;
    const group = DEMO_USDC_MARKET_GROUP_ADDRESS;
    const { result } = await chain.publicClient.simulateContract({ address: group, abi: marketGroupAbi, functionName: "quoteCreateTraderPosition", args: [1n, size] });
    const [requiredCollateral] = result;
    const maxCollateral = (requiredCollateral + 10n ** 12n - 1n) / 10n ** 12n;
    const create = (limit: bigint) =>
      chain.publicClient.simulateContract({ address: group, abi: marketGroupAbi, functionName: "createTraderPosition", args: [{ marketId: 1n, size, maxCollateral: limit, deadline: maxUint256 }], account: DEMO_TRADER });
    assert.deepEqual(await reverted(create(maxCollateral - 1n)), { errorName: "CollateralLimitReached", args: [requiredCollateral, (maxCollateral - 1n) * 10n ** 12n] });
    // The limit passes; the trader approved nothing, so the token refuses to move the maxCollateral units it would take.
    assert.deepEqual(await reverted(create(maxCollateral)), { errorName: "ERC20InsufficientAllowance", args: [group, 0n, maxCollateral] });
    // requiredCollateral passed on as the limit would be 10^12 times too loose: it is accepted.
    assert.deepEqual(await reverted(create(requiredCollateral)), { errorName: "ERC20InsufficientAllowance", args: [group, 0n, maxCollateral] });
  });
});

/** The collateral token of `group`. */
async function collateralOf(group: Address): Promise<Address> {
  const [, token] = await read<readonly [string, Address]>(group, "getMarketGroup");
  return token;
}

describe("demo positions and collateral", () => {
  test("DEMO_POSITIONS are on chain: ids from 1 in each group, owners, kinds, markets, sizes; a LONG holds base tokens and owes quote tokens, a SHORT the reverse", async () => {
    assert.deepEqual(DEMO_POSITIONS.map((p) => [p.group, p.positionId, p.owner, "trade" in p.kind ? p.kind.trade : "liquidity"]), [
      [DEMO_MARKET_GROUP_ADDRESS, 1n, DEMO_TRADER, 1000n * 10n ** 18n],
      [DEMO_USDC_MARKET_GROUP_ADDRESS, 1n, DEMO_TRADER, 1000n * 10n ** 18n],
      [DEMO_MARKET_GROUP_ADDRESS, 2n, DEMO_DEPLOYER, -500n * 10n ** 18n],
      [DEMO_MARKET_GROUP_ADDRESS, 3n, DEMO_DEPLOYER, "liquidity"],
    ]);
    for (const position of DEMO_POSITIONS) {
      const context = `${position.group} ${position.positionId}`;
      assert.equal(await read(position.group, "ownerOf", [position.positionId]), position.owner, context);
      const data = await read<any>(position.group, "getPosition", [position.positionId]);
      assert.equal(data.id, position.positionId, context);
      assert.equal(data.marketId, position.marketId, context);
      assert.equal(data.isSettled, false, context);
      const size = await read<bigint>(position.group, "getPositionSize", [position.positionId]);
      if ("trade" in position.kind) {
        assert.equal(data.kind, 2, context);
        assert.equal(size, position.kind.trade, context);
        assert.ok(data.depositedCollateralAmount > 0n, context);
        if (size > 0n) assert.deepEqual([data.vBaseAmount, data.borrowedVBase, data.vQuoteAmount > 0n, data.borrowedVQuote > 0n], [size, 0n, false, true], context);
        else assert.deepEqual([data.vBaseAmount, data.borrowedVBase, data.vQuoteAmount > 0n, data.borrowedVQuote > 0n], [0n, -size, true, false], context);
      } else {
        // It owes the pool's base tokens (its range lies above the price), holds its collateral, and its size is what
        // it owes, negated, as the real group's.
        assert.equal(data.kind, 1, context);
        assert.deepEqual([data.vBaseAmount, data.borrowedVBase > 0n, data.vQuoteAmount, data.borrowedVQuote], [0n, true, 0n, 0n], context);
        assert.equal(size, -data.borrowedVBase, context);
        assert.equal(data.depositedCollateralAmount, 50n * 10n ** 18n, context);
        assert.equal(data.uniswapPositionId, position.positionId, context);
      }
    }
    assert.equal(await read(DEMO_MARKET_GROUP_ADDRESS, "totalSupply"), 3n);
    assert.equal(await read(DEMO_USDC_MARKET_GROUP_ADDRESS, "totalSupply"), 1n);
    for (const [group, next] of [[DEMO_MARKET_GROUP_ADDRESS, 4n], [DEMO_USDC_MARKET_GROUP_ADDRESS, 2n]] as const) {
      assert.deepEqual(await reverted(read(group, "ownerOf", [next])), { errorName: "TokenDoesNotExist", args: [next] });
      assert.equal((await read<any>(group, "getPosition", [next])).kind, 0);
    }
  });

  test("the liquidity position is not a trader position: its owner's quote and modify revert InvalidPositionKind()", async () => {
    const liquidity = DEMO_POSITIONS.find((p) => "liquidity" in p.kind)!;
    const call = (functionName: string, args: readonly unknown[]) =>
      chain.publicClient.simulateContract({ address: liquidity.group, abi: marketGroupAbi, functionName, args, account: liquidity.owner } as never);
    assert.deepEqual(await reverted(call("quoteModifyTraderPosition", [liquidity.positionId, 10n ** 18n])), { errorName: "InvalidPositionKind", args: [] });
    assert.deepEqual(await reverted(call("modifyTraderPosition", [{ positionId: liquidity.positionId, size: 10n ** 18n, deltaCollateralLimit: 0n, deadline: maxUint256 }])), { errorName: "InvalidPositionKind", args: [] });
  });

  test("collateral: the deployer holds each token's supply but what it paid the trader and what its position took; the trader what it was paid but what its positions took; the groups what the positions deposited (rounded up to units); nothing is approved", async () => {
    for (const group of DEMO_MARKET_GROUPS) {
      const token = await collateralOf(group.address);
      const units = 10n ** BigInt(group.collateralDecimals);
      const scale = 10n ** BigInt(18 - group.collateralDecimals);
      const balance = (account: Address) => chain.publicClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [account] });
      const taken = async (owner: Address) => {
        let sum = 0n;
        for (const p of DEMO_POSITIONS.filter((p) => p.group === group.address && p.owner === owner)) {
          const { depositedCollateralAmount } = await read<any>(group.address, "getPosition", [p.positionId]);
          sum += (depositedCollateralAmount + scale - 1n) / scale;
        }
        return sum;
      };
      assert.equal(await chain.publicClient.readContract({ address: token, abi: erc20Abi, functionName: "totalSupply" }), DEMO_COLLATERAL_SUPPLY_TOKENS * units);
      assert.equal(await balance(DEMO_TRADER), DEMO_TRADER_COLLATERAL_TOKENS * units - (await taken(DEMO_TRADER)), group.address);
      assert.equal(await balance(DEMO_DEPLOYER), (DEMO_COLLATERAL_SUPPLY_TOKENS - DEMO_TRADER_COLLATERAL_TOKENS) * units - (await taken(DEMO_DEPLOYER)), group.address);
      assert.equal(await balance(group.address), (await taken(DEMO_TRADER)) + (await taken(DEMO_DEPLOYER)), group.address);
      for (const owner of [DEMO_TRADER, DEMO_DEPLOYER]) {
        assert.equal(await chain.publicClient.readContract({ address: token, abi: erc20Abi, functionName: "allowance", args: [owner, group.address] }), 0n, `${owner} ${group.address}`);
      }
    }
  });

  test(`minTradeSize is ${DEMO_MIN_TRADE_SIZE} wei on both groups: a trade below it reverts PositionSizeBelowMin(), one of it passes that check (then needs an approval); quotes below it succeed`, async () => {
    for (const group of [DEMO_MARKET_GROUP_ADDRESS, DEMO_USDC_MARKET_GROUP_ADDRESS]) {
      const create = (size: bigint) =>
        chain.publicClient.simulateContract({ address: group, abi: marketGroupAbi, functionName: "createTraderPosition", args: [{ marketId: 1n, size, maxCollateral: 0n, deadline: maxUint256 }], account: DEMO_TRADER });
      for (const size of [DEMO_MIN_TRADE_SIZE - 1n, -(DEMO_MIN_TRADE_SIZE - 1n), 10n ** 6n]) {
        assert.deepEqual(await reverted(create(size)), { errorName: "PositionSizeBelowMin", args: [] }, `${group} ${size}`);
        const { result } = await chain.publicClient.simulateContract({ address: group, abi: marketGroupAbi, functionName: "quoteCreateTraderPosition", args: [1n, size] });
        assert.ok(result[0] > 0n, "the quote is not limited by the minimum");
      }
      for (const size of [DEMO_MIN_TRADE_SIZE, -DEMO_MIN_TRADE_SIZE]) assert.equal((await reverted(create(size))).errorName, "ERC20InsufficientAllowance", `${group} ${size}`);
    }
    // On thin market 4 a small budget's quote is a size below the minimum: the quoter may answer it, only the trade refuses it.
    const { result } = await chain.publicClient.simulateContract({ address: DEMO_MARKET_GROUP_ADDRESS, abi: marketGroupAbi, functionName: "quoteCreateTraderPosition", args: [4n, DEMO_MIN_TRADE_SIZE / 2n] });
    assert.ok(result[0] > 0n);
  });
});
