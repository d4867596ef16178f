// The test's own answers to a held position's quote (semantics §13), read by its own viem client at one block, never
// through the service: each candidate trade t quoted by quoteModifyTraderPosition(positionId, current ± t) from the
// owner, classified by §4's rules (reverted, the signed delta over the budget, past expectedPrice; short of the price
// below). The bisection as §4 writes it over §13's range; the exact maximum by doubling from DUST, then halving.
import type { Address } from "viem";
import type { EmbeddedChain } from "../../src/devchain/chain.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";

export type HeldAsk = {
  readonly group: Address;
  readonly positionId: bigint;
  readonly expectedPrice: bigint;
  readonly budget: bigint;
  readonly blockNumber: bigint;
};

type Quoted = { delta: bigint; closePnL: bigint; fillPrice: bigint; priceAfter: bigint };
type Class = "short" | "feasible" | "too-large";

/** What the position is at the block, read by the test: owner, market, size, the market's price. */
export async function heldAt(chain: EmbeddedChain, ask: HeldAsk) {
  const { publicClient } = chain;
  const at = { address: ask.group, abi: marketGroupAbi, blockNumber: ask.blockNumber } as const;
  const owner = await publicClient.readContract({ ...at, functionName: "ownerOf", args: [ask.positionId] });
  const position = await publicClient.readContract({ ...at, functionName: "getPosition", args: [ask.positionId] });
  const current = await publicClient.readContract({ ...at, functionName: "getPositionSize", args: [ask.positionId] });
  const price = await publicClient.readContract({ ...at, functionName: "getReferencePrice", args: [position.marketId] });
  return { owner: owner as Address, marketId: position.marketId, current, price, long: ask.expectedPrice > price };
}

/** The quote of trade `t` (unsigned, in the ask's direction) at the block, from the owner; undefined when it reverts. */
export async function quoteTrade(chain: EmbeddedChain, ask: HeldAsk, t: bigint): Promise<Quoted | undefined> {
  const held = await heldAt(chain, ask);
  return quoteOf(chain, ask, held, t);
}

async function quoteOf(chain: EmbeddedChain, ask: HeldAsk, held: Awaited<ReturnType<typeof heldAt>>, t: bigint): Promise<Quoted | undefined> {
  try {
    const { result } = await chain.publicClient.simulateContract({
      account: held.owner,
      address: ask.group,
      abi: marketGroupAbi,
      functionName: "quoteModifyTraderPosition",
      args: [ask.positionId, held.current + (held.long ? t : -t)],
      blockNumber: ask.blockNumber,
    });
    const [delta, closePnL, fillPrice, priceAfter] = result;
    return { delta, closePnL, fillPrice, priceAfter };
  } catch {
    return undefined;
  }
}

function classify(ask: HeldAsk, held: Awaited<ReturnType<typeof heldAt>>, quote: Quoted | undefined): Class {
  if (quote === undefined || quote.delta > ask.budget) return "too-large";
  if (held.long) return quote.priceAfter > ask.expectedPrice ? "too-large" : quote.priceAfter <= held.price ? "short" : "feasible";
  return quote.priceAfter < ask.expectedPrice ? "too-large" : quote.priceAfter >= held.price ? "short" : "feasible";
}

/** §4's bisection over §13's range [0, budget / price (+ |current| against the position)]: its best trade, unsigned. */
export async function bisectionOfPosition(chain: EmbeddedChain, ask: HeldAsk, maxIterations = 10): Promise<bigint | undefined> {
  const held = await heldAt(chain, ask);
  const against = held.long ? held.current < 0n : held.current > 0n;
  let low = 0n;
  let high = (ask.budget * 10n ** 18n) / held.price + (against ? (held.current < 0n ? -held.current : held.current) : 0n);
  let best: bigint | undefined;
  for (let i = 0; i < maxIterations && high - low > 1n; i++) {
    const middle = (low + high) / 2n;
    const outcome = classify(ask, held, await quoteOf(chain, ask, held, middle));
    if (outcome === "too-large") high = middle;
    else low = middle;
    if (outcome === "feasible") best = middle;
  }
  return best;
}

/**
 * The largest trade >= DUST that is not too large, unsigned: feasible trades form one interval (semantics §8, §13),
 * so this is what the exact search must answer; undefined when DUST itself is too large.
 */
export async function maximumOfPosition(chain: EmbeddedChain, ask: HeldAsk): Promise<bigint | undefined> {
  const held = await heldAt(chain, ask);
  const tooLarge = async (t: bigint) => classify(ask, held, await quoteOf(chain, ask, held, t)) === "too-large";
  const DUST = 10n ** 6n;
  if (await tooLarge(DUST)) return undefined;
  let low = DUST;
  let high = DUST * 2n;
  while (!(await tooLarge(high))) [low, high] = [high, high * 2n];
  while (high - low > 1n) {
    const middle = (low + high) / 2n;
    if (await tooLarge(middle)) high = middle;
    else low = middle;
  }
  return low;
}

/** Whether trade `t` meets every rule (the exact answer's, and none above it). */
export async function feasibleTrade(chain: EmbeddedChain, ask: HeldAsk, t: bigint): Promise<boolean> {
  const held = await heldAt(chain, ask);
  return classify(ask, held, await quoteOf(chain, ask, held, t)) === "feasible";
}
