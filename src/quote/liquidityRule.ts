// Which liquidity a new LP position's search quotes next (semantics §14): contracts/LiquiditySearch.sol's rule, step
// for step, so that the service replays the searcher's choices and refuses any difference. A bracket (lo fits, hi
// does not; lo 0 and hi 2^128 stand for none quoted) narrowed by candidates aimed through the requirement's
// near-linearity in L, safeguarded: strides that double leave one side, and a two-sided step that did not halve the
// bracket, or a bracket whose sides' requirements differ by no more than the roundings' jitter, is bisected. Pure.

/** The largest liquidity a v3 position takes. */
export const MAX_LIQUIDITY = (1n << 128n) - 1n;
/** Wei the mint's roundings move a requirement by: a bracket whose sides differ by no more is bisected. */
const JITTER = 4n;

export type LiquidityRule = {
  readonly lo: bigint;
  readonly loRequired: bigint;
  readonly loQuoted: boolean;
  readonly hi: bigint;
  readonly hiRequired: bigint;
  readonly hiQuoted: boolean;
  readonly stride: bigint;
  readonly lastWidth: bigint;
  readonly count: number;
};

export const NEW_RULE: LiquidityRule = { lo: 0n, loRequired: 0n, loQuoted: false, hi: MAX_LIQUIDITY + 1n, hiRequired: 0n, hiQuoted: false, stride: 1n, lastWidth: 0n, count: 0 };

const min = (a: bigint, b: bigint) => (a < b ? a : b);
const max = (a: bigint, b: bigint) => (a > b ? a : b);

/** The next liquidity with the rule's state after choosing it; none once the bracket is one apart. */
export function nextLiquidity(rule: LiquidityRule, budget: bigint, first: bigint): { readonly liquidity: bigint; readonly rule: LiquidityRule } | undefined {
  if (rule.count === 0) return { liquidity: min(max(first, 1n), MAX_LIQUIDITY), rule };
  if (rule.hi - rule.lo <= 1n) return undefined;
  const aim = aimOf(rule, budget);
  if (rule.loQuoted && rule.hiQuoted) {
    const width = rule.hi - rule.lo;
    const slow = (rule.lastWidth !== 0n && 2n * width > rule.lastWidth) || rule.hiRequired - rule.loRequired <= JITTER;
    return { liquidity: slow ? rule.lo + width / 2n : min(max(aim, rule.lo + 1n), rule.hi - 1n), rule: { ...rule, lastWidth: width } };
  }
  const { stride } = rule;
  const next = { ...rule, stride: min(2n * stride, MAX_LIQUIDITY) };
  if (rule.loQuoted) return { liquidity: min(max(aim, rule.lo + stride), rule.hi - 1n), rule: next };
  const down = rule.hi > stride ? rule.hi - stride : 1n;
  return { liquidity: max(min(aim, down), 1n), rule: next };
}

/** A candidate's requirement taken: it fits the budget (the new lo) or not (the new hi). */
export function learn(rule: LiquidityRule, liquidity: bigint, required: bigint, budget: bigint): LiquidityRule {
  const counted = { ...rule, count: rule.count + 1 };
  return required <= budget ? { ...counted, lo: liquidity, loRequired: required, loQuoted: true } : { ...counted, hi: liquidity, hiRequired: required, hiQuoted: true };
}

/** Where the requirement meets the budget: interpolated between the sides, else scaled from the one quoted. */
function aimOf(rule: LiquidityRule, budget: bigint): bigint {
  if (rule.loQuoted && rule.hiQuoted) return rule.lo + ((budget - rule.loRequired) * (rule.hi - rule.lo)) / (rule.hiRequired - rule.loRequired);
  if (rule.hiQuoted) return (rule.hi * budget) / rule.hiRequired;
  if (rule.loRequired === 0n) return 2n * rule.lo;
  // Exact here; on chain a result past 2^256 is 2^256 - 1: both are past any bracket, which clamps them alike.
  return (rule.lo * budget) / rule.loRequired;
}
