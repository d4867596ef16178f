// The reference market group's trading surface (semantics §9, §10, §13) on the embedded EVM, on groups with 18- and
// 6-decimal collateral: createTraderPosition and modifyTraderPosition with the collateral they move (token balances
// before and after), their limits, deadlines and minimum size, quoteModifyTraderPosition against what the modify then
// does, the position's accounting against the rule of docs/semantics.md §8 computed here, the ERC-721 side, and each
// error by its selector, computed from its signature here (not from the generated ABI).
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import fc from "fast-check";
import { decodeErrorResult, getAddress, keccak256, maxUint256, parseEventLogs, toHex, type Address, type Hex } from "viem";
import { collateralTokenAbi, marketGroupAbi, positionHolderAbi, positionHolderBytecode } from "../../src/generated/contracts.ts";
import { minedReceipt } from "../support/receipts.ts";
import { configOf, MarketGroupHarness, revertData, reverted } from "./marketGroupHarness.ts";
import { E18, YES_NO, wholeRange } from "./poolModel.ts";

/** The harness groups' minimum trade size: 10^12 wei. */
const MIN_TRADE_SIZE = 10n ** 12n;
const COLLATERAL_ROUNDING = 2n;

/** The selector of an error, from its signature: the first 4 bytes of its keccak-256. */
const selectorOf = (signature: string): Hex => keccak256(toHex(signature)).slice(0, 10) as Hex;

const SIGNATURES = {
  TransactionExpired: "TransactionExpired(uint256,uint256)",
  DeltaTradeIsZero: "DeltaTradeIsZero()",
  PositionSizeBelowMin: "PositionSizeBelowMin()",
  CollateralLimitReached: "CollateralLimitReached(int256,int256)",
  NotAccountOwner: "NotAccountOwner(uint256,address)",
  InvalidPositionKind: "InvalidPositionKind()",
  InvalidTransferRecipient: "InvalidTransferRecipient(address)",
  TokenDoesNotExist: "TokenDoesNotExist(uint256)",
} as const;

/** Asserts `action` reverts with `name`'s selector (computed from its signature) and, decoded, with `args`. */
async function assertReverts(action: () => Promise<unknown>, name: keyof typeof SIGNATURES, args: readonly unknown[]) {
  const data = await revertData(action());
  assert.equal(data.slice(0, 10), selectorOf(SIGNATURES[name]), `${name}'s selector`);
  const decoded = decodeErrorResult({ abi: marketGroupAbi, data });
  assert.deepEqual({ errorName: decoded.errorName, args: decoded.args ?? [] }, { errorName: name, args });
}

const scaleOf = (decimals: number) => 10n ** BigInt(18 - decimals);
const ceilDiv = (a: bigint, b: bigint) => (a >= 0n ? (a + b - 1n) / b : -(-a / b));
const floorDiv = (a: bigint, b: bigint) => (a >= 0n ? a / b : -((-a + b - 1n) / b));
const abs = (a: bigint) => (a < 0n ? -a : a);

const groups: Record<number, MarketGroupHarness> = {};
let chainGroup: MarketGroupHarness;
before(async () => {
  chainGroup = await MarketGroupHarness.start(undefined, 18, MIN_TRADE_SIZE);
  groups[18] = chainGroup;
  groups[6] = await MarketGroupHarness.start(chainGroup.chain, 6, MIN_TRADE_SIZE);
});

const trader = () => chainGroup.chain.traderClient.account.address;

/** A market (whole range, L = 10^20 unless given) on `h`, and its range's prices. */
async function market(h: MarketGroupHarness, liquidity = 10n ** 20n) {
  const id = await h.createMarket(configOf(wholeRange(YES_NO, liquidity)));
  const [data] = await h.getMarket(id);
  return { id, min: data.minPriceD18, max: data.maxPriceD18 };
}

/**
 * What docs/semantics.md §8 says a trade of `position` to `sizeAfter` moves, computed here from the position's
 * virtual tokens and the loss L of the change, quoted as a new position of that size at the same state.
 */
async function expectedChange(h: MarketGroupHarness, positionId: bigint, sizeAfter: bigint) {
  const p = await h.position(positionId);
  const [data] = await h.getMarket(p.marketId);
  const [m, M] = [data.minPriceD18, data.maxPriceD18];
  const size = p.vBaseAmount - p.borrowedVBase;
  const quote = p.vQuoteAmount - p.borrowedVQuote;
  const loss = size > 0n ? -(quote + (size * m) / E18) : size < 0n ? ceilDiv(-size * M, E18) - quote : -quote;
  const change = sizeAfter - size;
  const L = (await h.quote(p.marketId, change)).requiredCollateral - COLLATERAL_ROUNDING;
  const [held, traded] = [abs(size), abs(change)];
  let lossAfter = loss + L;
  let closePnL = 0n;
  if (size !== 0n && size > 0n === change > 0n) {
    closePnL = (held * L) / traded - loss;
  } else if (size !== 0n) {
    lossAfter -= ((held < traded ? held : traded) * (M - m)) / E18;
    closePnL = (held * (M - m)) / E18 - ceilDiv(held * L, traded) - loss;
    if (closePnL < -loss) closePnL = -loss;
    if (traded <= held && lossAfter > loss) lossAfter = loss;
  }
  const delta = sizeAfter === 0n ? lossAfter - p.depositedCollateralAmount : lossAfter + COLLATERAL_ROUNDING - p.depositedCollateralAmount;
  return { delta, closePnL, lossAfter, m, M };
}

/** Trader's collateral balance change over `action`, in token units (positive: the trader received). */
async function traderBalanceChange(h: MarketGroupHarness, action: () => Promise<unknown>): Promise<{ trader: bigint; group: bigint }> {
  const [traderBefore, groupBefore] = [await h.collateralBalance(trader()), await h.collateralBalance(h.address)];
  await action();
  return { trader: (await h.collateralBalance(trader())) - traderBefore, group: (await h.collateralBalance(h.address)) - groupBefore };
}

for (const decimals of [18, 6]) {
  describe(`positions on a ${decimals}-decimal group`, () => {
    const scale = scaleOf(decimals);
    const h = () => groups[decimals]!;

    test("createTraderPosition mints token total supply + 1 to the sender and takes ceil(requiredCollateral / 10^(18-d)) units by transferFrom; the position holds the quote's requiredCollateral and its virtual tokens as the rule says", async () => {
      const { id, min, max } = await market(h());
      for (const size of [3n * E18, -(2n * E18) - 12_345n]) {
        const { requiredCollateral } = await h().quote(id, size);
        const supply = await h().chain.publicClient.readContract({ address: h().address, abi: marketGroupAbi, functionName: "totalSupply" });
        let positionId = 0n;
        const moved = await traderBalanceChange(h(), async () => (positionId = await h().open(id, size)));
        assert.equal(positionId, supply + 1n);
        assert.equal(await h().ownerOf(positionId), trader());
        assert.equal(moved.trader, -ceilDiv(requiredCollateral, scale), "the trader paid the requirement rounded up to token units");
        assert.equal(moved.group, ceilDiv(requiredCollateral, scale));
        const p = await h().position(positionId);
        const loss = requiredCollateral - COLLATERAL_ROUNDING;
        assert.deepEqual(p, {
          id: positionId,
          kind: 2,
          marketId: id,
          depositedCollateralAmount: requiredCollateral,
          // A LONG owes the quote tokens whose loss at the minimum price is the quote's; a SHORT holds those whose loss at the maximum is.
          borrowedVQuote: size > 0n ? loss + (size * min) / E18 : 0n,
          borrowedVBase: size < 0n ? -size : 0n,
          vQuoteAmount: size < 0n ? ceilDiv(-size * max, E18) - loss : 0n,
          vBaseAmount: size > 0n ? size : 0n,
          uniswapPositionId: 0n,
          isSettled: false,
        });
        assert.equal(await h().positionSize(positionId), size);
      }
    });

    test("quoteModifyTraderPosition equals what modifyTraderPosition then does at the same state (collateral delta, fill price, price after) and the rule computed here; the collateral moves in rounded up, out rounded down", async () => {
      const { id } = await market(h());
      const positionId = await h().open(id, 4n * E18);
      // Add, reduce, flip long to short, add to the short, flip back, close, reopen.
      for (const sizeAfter of [6n * E18, 5n * E18 + 777n, -(3n * E18), -(5n * E18), 2n * E18, 0n, -(E18)]) {
        const quoted = await h().quoteModify(positionId, sizeAfter);
        const expected = await expectedChange(h(), positionId, sizeAfter);
        assert.equal(quoted.collateralDelta, expected.delta, `delta to ${sizeAfter}`);
        assert.equal(quoted.closePnL, expected.closePnL, `closePnL to ${sizeAfter}`);
        const sizeBefore = await h().positionSize(positionId);
        let logs: Awaited<ReturnType<MarketGroupHarness["modify"]>> = [];
        const moved = await traderBalanceChange(h(), async () => (logs = await h().modify(positionId, sizeAfter)));
        const [trade] = parseEventLogs({ abi: marketGroupAbi, logs, eventName: "Trade" });
        assert.deepEqual(
          [trade!.args.collateralDelta, trade!.args.fillPrice, trade!.args.price18DigitsAfter, trade!.args.sizeDelta, trade!.args.positionId],
          [quoted.collateralDelta, quoted.fillPrice, quoted.priceAfter, sizeAfter - sizeBefore, positionId],
        );
        assert.equal(await h().referencePrice(id), quoted.priceAfter);
        const units = quoted.collateralDelta > 0n ? -ceilDiv(quoted.collateralDelta, scale) : floorDiv(-quoted.collateralDelta, scale);
        assert.equal(moved.trader, units, `the trader's balance, to ${sizeAfter}`);
        assert.equal(moved.group, -units);
        assert.equal(await h().positionSize(positionId), sizeAfter);
        const p = await h().position(positionId);
        assert.equal(p.depositedCollateralAmount, sizeAfter === 0n ? 0n : (expected.lossAfter > 0n ? expected.lossAfter : 0n) + COLLATERAL_ROUNDING);
        assert.ok(p.vBaseAmount === 0n || p.borrowedVBase === 0n, "one side of the base token");
        assert.ok(p.vQuoteAmount === 0n || p.borrowedVQuote === 0n, "one side of the quote token");
      }
    });

    test("close (size 0) returns deposited + closePnL, rounded down to token units, and leaves an empty trader position still owned; flip long to short holds borrowed base and quote", async () => {
      const { id } = await market(h());
      const positionId = await h().open(id, 5n * E18);
      // Someone else's LONG moves the price up: the position is in profit.
      await h().open(id, 3n * E18, h().chain.walletClient);
      const { depositedCollateralAmount } = await h().position(positionId);
      const quoted = await h().quoteModify(positionId, 0n);
      assert.ok(quoted.closePnL > 0n, "the price rose: a profit");
      assert.equal(quoted.collateralDelta, -(depositedCollateralAmount + quoted.closePnL));
      const moved = await traderBalanceChange(h(), () => h().modify(positionId, 0n));
      assert.equal(moved.trader, (depositedCollateralAmount + quoted.closePnL) / scale);
      assert.deepEqual(await h().position(positionId), {
        id: positionId, kind: 2, marketId: id, depositedCollateralAmount: 0n, borrowedVQuote: 0n, borrowedVBase: 0n,
        vQuoteAmount: 0n, vBaseAmount: 0n, uniswapPositionId: 0n, isSettled: false,
      });
      assert.equal(await h().ownerOf(positionId), trader());

      const flipped = await h().open(id, 2n * E18);
      await h().modify(flipped, -(3n * E18));
      const p = await h().position(flipped);
      assert.deepEqual([p.vBaseAmount, p.borrowedVBase, p.vQuoteAmount > 0n, p.borrowedVQuote], [0n, 3n * E18, true, 0n]);
      assert.equal(await h().positionSize(flipped), -(3n * E18));
    });

    test("collateral limits of a modify, in token units, signed: ceil(delta / 10^(18-d)) passes and one unit less reverts CollateralLimitReached(delta, limit * 10^(18-d)), for a deposit and for a withdrawal; 0 is no limit", async () => {
      const { id } = await market(h());
      const positionId = await h().open(id, 4n * E18);
      for (const sizeAfter of [7n * E18, 2n * E18]) {
        const { collateralDelta } = await h().quoteModify(positionId, sizeAfter);
        assert.ok(sizeAfter > 4n * E18 ? collateralDelta > 0n : collateralDelta < 0n, "a deposit, then a withdrawal");
        const limit = ceilDiv(collateralDelta, scale);
        const tight = limit - 1n === 0n ? -1n : limit - 1n;
        await assertReverts(() => h().simulateModify(positionId, sizeAfter, tight), "CollateralLimitReached", [collateralDelta, tight * scale]);
        await h().simulateModify(positionId, sizeAfter, 0n);
        await h().simulateModify(positionId, sizeAfter, limit + 1n);
        await h().modify(positionId, sizeAfter, limit);
      }
    });
  });
}

describe("reverts of the trading surface, each by its selector", () => {
  test("TransactionExpired(deadline, blockTime) when the block's timestamp is past the deadline, for create and modify; a deadline equal to it passes", async () => {
    const h = chainGroup;
    const { id } = await market(h);
    const positionId = await h.open(id, E18);
    const deadline = (await h.latestTimestamp()) + 100n;
    await h.setNextBlockTimestamp(deadline + 1n);
    await assertReverts(() => h.trade(id, E18, 0n, h.chain.traderClient, deadline), "TransactionExpired", [deadline, deadline + 1n]);
    const later = (await h.latestTimestamp()) + 100n;
    await h.setNextBlockTimestamp(later + 1n);
    await assertReverts(() => h.modify(positionId, 2n * E18, 0n, h.chain.traderClient, later), "TransactionExpired", [later, later + 1n]);
    const exact = (await h.latestTimestamp()) + 100n;
    await h.setNextBlockTimestamp(exact);
    await h.modify(positionId, 2n * E18, 0n, h.chain.traderClient, exact);
  });

  test("DeltaTradeIsZero() for a new size of 0 and for a modify to the same size; the quote of no change reverts InvalidData as a quote of size 0", async () => {
    const h = chainGroup;
    const { id } = await market(h);
    await assertReverts(() => h.simulateTrade(id, 0n), "DeltaTradeIsZero", []);
    const positionId = await h.open(id, E18);
    await assertReverts(() => h.simulateModify(positionId, E18), "DeltaTradeIsZero", []);
    assert.deepEqual(await reverted(h.quoteModify(positionId, E18)), { errorName: "InvalidData", args: ["size is zero"] });
  });

  test("PositionSizeBelowMin() on a create below minTradeSize, on a new size below it and on a change below it; quotes are not limited by it", async () => {
    const h = chainGroup;
    const { id } = await market(h);
    for (const size of [MIN_TRADE_SIZE - 1n, -(MIN_TRADE_SIZE - 1n), 10n ** 6n]) {
      await assertReverts(() => h.simulateTrade(id, size), "PositionSizeBelowMin", []);
      assert.ok((await h.quote(id, size)).requiredCollateral > 0n, "the quote of the same size succeeds");
    }
    await h.simulateTrade(id, MIN_TRADE_SIZE);
    const positionId = await h.open(id, E18);
    // The new size is below the minimum (not 0): refused, however large the change.
    await assertReverts(() => h.simulateModify(positionId, MIN_TRADE_SIZE - 1n), "PositionSizeBelowMin", []);
    await assertReverts(() => h.simulateModify(positionId, -(MIN_TRADE_SIZE - 1n)), "PositionSizeBelowMin", []);
    // The change is below the minimum: refused, whatever the new size.
    await assertReverts(() => h.simulateModify(positionId, E18 + MIN_TRADE_SIZE - 1n), "PositionSizeBelowMin", []);
    await assertReverts(() => h.simulateModify(positionId, E18 - 10n ** 6n), "PositionSizeBelowMin", []);
    // Closing (0) is never below the minimum; the quotes of the refused changes succeed.
    await h.simulateModify(positionId, 0n);
    for (const size of [MIN_TRADE_SIZE - 1n, E18 + MIN_TRADE_SIZE - 1n, E18 - 10n ** 6n]) await h.quoteModify(positionId, size);
  });

  test("NotAccountOwner(positionId, sender) for the quote and the modify from another account, and for a position never created; the owner's transfer moves the right", async () => {
    const h = chainGroup;
    const { id } = await market(h);
    const positionId = await h.open(id, E18);
    const other = h.chain.walletClient.account;
    await assertReverts(() => h.quoteModify(positionId, 2n * E18, other), "NotAccountOwner", [positionId, other.address]);
    await assertReverts(() => h.simulateModify(positionId, 2n * E18, 0n, other), "NotAccountOwner", [positionId, other.address]);
    await assertReverts(() => h.quoteModify(10n ** 9n, E18), "NotAccountOwner", [10n ** 9n, trader()]);
    await h.sendAs(h.chain.traderClient, h.address, marketGroupAbi, "transferFrom", [trader(), other.address, positionId]);
    assert.equal(await h.ownerOf(positionId), other.address);
    await assertReverts(() => h.quoteModify(positionId, 2n * E18), "NotAccountOwner", [positionId, trader()]);
    await h.quoteModify(positionId, 2n * E18, other);
  });

  test("ownerOf of a position never created reverts TokenDoesNotExist(tokenId), not OpenZeppelin's error; getPosition is a zero struct and getPositionSize 0", async () => {
    const h = chainGroup;
    for (const tokenId of [0n, 10n ** 9n, maxUint256]) {
      await assertReverts(() => h.ownerOf(tokenId), "TokenDoesNotExist", [tokenId]);
      assert.deepEqual(await h.position(tokenId), {
        id: 0n, kind: 0, marketId: 0n, depositedCollateralAmount: 0n, borrowedVQuote: 0n, borrowedVBase: 0n,
        vQuoteAmount: 0n, vBaseAmount: 0n, uniswapPositionId: 0n, isSettled: false,
      });
      assert.equal(await h.positionSize(tokenId), 0n);
    }
  });

  test("a contract that does not accept the token (onERC721Received) gets InvalidTransferRecipient(itself) on create and on a safe transfer; one that accepts gets its position", async () => {
    const h = chainGroup;
    const { id } = await market(h);
    const holders: Record<string, Address> = {};
    for (const accepts of [true, false]) {
      const hash = await h.chain.walletClient.deployContract({ abi: positionHolderAbi, bytecode: positionHolderBytecode, args: [accepts] });
      holders[String(accepts)] = getAddress((await minedReceipt(h.chain.publicClient, hash)).contractAddress!);
      await h.sendAs(h.chain.walletClient, h.collateral, collateralTokenAbi, "transfer", [holders[String(accepts)], 10n ** 24n]);
    }
    const open = (holder: Address) => h.sendAs(h.chain.walletClient, holder, positionHolderAbi, "open", [h.address, id, E18]);
    await assertReverts(() => open(holders.false!), "InvalidTransferRecipient", [holders.false]);
    const [trade] = parseEventLogs({ abi: marketGroupAbi, logs: await open(holders.true!), eventName: "Trade" });
    assert.equal(await h.ownerOf(trade!.args.positionId), holders.true);
    const mine = await h.open(id, E18);
    await assertReverts(
      () => h.sendAs(h.chain.traderClient, h.address, marketGroupAbi, "safeTransferFrom", [trader(), holders.false, mine]),
      "InvalidTransferRecipient",
      [holders.false],
    );
    await h.sendAs(h.chain.traderClient, h.address, marketGroupAbi, "safeTransferFrom", [trader(), holders.true, mine]);
    assert.equal(await h.ownerOf(mine), holders.true);
  });

  test("InvalidPositionKind() for a liquidity position (createLiquidityPosition): its owner's quote and modify refuse it", async () => {
    const h = chainGroup;
    const { id } = await market(h);
    const [data] = await h.getMarket(id);
    const owner = h.chain.walletClient;
    const range = { lowerTick: data.baseAssetMinPriceTick, upperTick: data.baseAssetMaxPriceTick };
    await h.provide({ marketId: id, amountBaseToken: E18, amountQuoteToken: E18, collateralAmount: E18, ...range, minAmountBaseToken: 0n, minAmountQuoteToken: 0n }, owner);
    const positionId = await h.chain.publicClient.readContract({ address: h.address, abi: marketGroupAbi, functionName: "totalSupply" });
    const p = await h.position(positionId);
    assert.deepEqual([p.kind, p.marketId, await h.ownerOf(positionId), await h.positionSize(positionId)], [1, id, owner.account.address, -p.borrowedVBase]);
    await assertReverts(() => h.quoteModify(positionId, E18, owner.account), "InvalidPositionKind", []);
    await assertReverts(() => h.simulateModify(positionId, E18, 0n, owner.account), "InvalidPositionKind", []);
  });
});

describe("monotonicity of a modify's collateral (semantics §13: the search's range is an interval)", () => {
  test("random positions and trades: adding needs no less the more is added; a reduce or a close never needs collateral; past the close, a flip needs no less the further it goes; so { t : delta(t) <= budget } is an interval from 0 for any budget >= 0", async () => {
    const h = chainGroup;
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 10n ** 16n, max: 2n * 10n ** 19n }),
        fc.constantFrom(1n, -1n),
        fc.array(fc.bigInt({ min: 1n, max: 10_000n }), { minLength: 6, maxLength: 6 }),
        fc.integer({ min: 0, max: 2 }),
        async (held, sign, permyriads, noise) => {
          const { id } = await market(h, 10n ** 20n);
          const positionId = await h.open(id, sign * held);
          // Another account moves the price first (or not): the position is in profit or at a loss.
          if (noise > 0) await h.open(id, (noise === 1 ? 1n : -1n) * 4n * E18, h.chain.walletClient);
          const deltaOf = async (t: bigint, direction: bigint) => {
            try {
              return (await h.quoteModify(positionId, sign * held + direction * t)).collateralDelta;
            } catch (error) {
              await reverted(Promise.reject(error)); // a revert (out of range), not a failure of the call
              return undefined;
            }
          };
          const sizes = (top: bigint) => [...new Set(permyriads.map((p) => (top * p) / 10_000n).filter((t) => t > 0n))].sort((a, b) => (a < b ? -1 : 1));
          // Adding.
          let previous: bigint | undefined;
          for (const t of sizes(3n * held)) {
            const delta = await deltaOf(t, sign);
            if (delta === undefined) break;
            if (previous !== undefined) assert.ok(delta >= previous, `adding ${t}: ${delta} < ${previous}`);
            previous = delta;
            checked++;
          }
          // Against: reduce and close, then flip.
          const against: [bigint, bigint][] = [];
          for (const t of [...sizes(held), held, ...sizes(3n * held).map((t) => held + t)]) {
            const delta = await deltaOf(t, -sign);
            if (delta === undefined) continue;
            against.push([t, delta]);
            if (t <= held) assert.ok(delta <= 0n, `a reduce of ${t} of ${held} needs ${delta}`);
            checked++;
          }
          against.sort(([a], [b]) => (a < b ? -1 : 1));
          const flips = against.filter(([t]) => t >= held);
          for (let i = 1; i < flips.length; i++) assert.ok(flips[i]![1] >= flips[i - 1]![1], `flip ${flips[i]![0]}: ${flips[i]![1]} < ${flips[i - 1]![1]}`);
          // The interval: below any size that fits a budget >= 0, every size fits it.
          for (let i = 0; i < against.length; i++) {
            const budget = against[i]![1] > 0n ? against[i]![1] : 0n;
            for (let j = 0; j < i; j++) assert.ok(against[j]![1] <= budget, `${against[j]![0]} needs more than ${against[i]![0]}`);
          }
        },
      ),
      { numRuns: 60 },
    );
    assert.ok(checked > 200, `only ${checked} quotes checked`);
  });
});

describe("the trading surface's signatures (semantics §9)", () => {
  test("quoteModifyTraderPosition is not view (it is simulated, from the owner), modifyTraderPosition takes its struct, both as the real group's", () => {
    const fn = (name: string) => marketGroupAbi.find((item) => item.type === "function" && item.name === name) as unknown as { stateMutability: string; inputs: { type: string; components?: { name: string; type: string }[] }[]; outputs: { type: string }[] };
    const quote = fn("quoteModifyTraderPosition");
    assert.equal(quote.stateMutability, "nonpayable");
    assert.deepEqual(quote.inputs.map((input) => input.type), ["uint256", "int256"]);
    assert.deepEqual(quote.outputs.map((output) => output.type), ["int256", "int256", "uint256", "uint256"]);
    const modify = fn("modifyTraderPosition");
    assert.deepEqual(modify.inputs[0]!.components!.map(({ name, type }) => `${type} ${name}`), ["uint256 positionId", "int256 size", "int256 deltaCollateralLimit", "uint256 deadline"]);
    assert.equal(keccak256(toHex("modifyTraderPosition((uint256,int256,int256,uint256))")).slice(0, 10), "0x6774530a", "the selector a trade's data starts with");
  });
});
