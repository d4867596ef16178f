// The `trade` of an answer asked with `taker` (semantics §12), as the OpenAPI document states it and the route
// serializes it: the properties in the order the service writes them (a batch writes its bodies with JSON.stringify,
// the GET by this schema: both must give the same bytes), and the document's example of a trade.

/** The demo's trader (Hardhat's second account), who holds collateral of both demo groups and has approved none. */
export const DEMO_TAKER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const wei = { type: "string", pattern: "^(0|[1-9][0-9]*)$" } as const;
const address = { type: "string", pattern: "^0x[0-9a-fA-F]{40}$" } as const;

const transactionSchema = (what: string) =>
  ({
    type: "object",
    description: what,
    required: ["from", "to", "data", "value"],
    additionalProperties: false,
    properties: {
      from: { ...address, description: "The taker (EIP-55 checksummed): the transaction's sender" },
      to: { ...address, description: "The contract it calls" },
      data: { type: "string", pattern: "^0x([0-9a-f]{2})*$", description: "The call's data, ABI-encoded" },
      value: { type: "string", enum: ["0"], description: "No ether is sent" },
    },
  }) as const;

const callsSchema = {
  type: "array",
  description:
    "What a wallet signs, in order: approval.transaction (when approval is not null), then transaction, each as " +
    "{ to, data } (no value). It is the calls member of EIP-5792's wallet_sendCalls (version 2.0.0: from the taker, " +
    "chainId in hex, atomicRequired false) and what viem's sendCalls({ calls }) takes; to a wallet without EIP-5792, " +
    "send them one by one with eth_sendTransaction, each after the previous one's receipt",
  minItems: 1,
  maxItems: 2,
  items: {
    type: "object",
    required: ["to", "data"],
    additionalProperties: false,
    properties: {
      to: { ...address, description: "The contract it calls: the collateral token (the approval) or the market group (the trade)" },
      data: { type: "string", pattern: "^0x([0-9a-f]{2})*$", description: "The call's data, ABI-encoded" },
    },
  },
} as const;

const simulationSchema = {
  description:
    "The transaction run from the taker at the answer's block, in a block one above it timestamped when the next " +
    "block would plausibly come (the block's timestamp plus the time since the service saw it as the head, at least " +
    "1 s), after the approval where one is needed: both in order in one eth_simulateV1 where the node has it; on a " +
    "node without it, the transaction alone by eth_call (no gas then), and not run where an approval must come first. " +
    "A revert is not an error of the quote: the answer is still 200",
  oneOf: [
    {
      type: "object",
      title: "succeeds",
      required: ["ok"],
      additionalProperties: false,
      properties: {
        ok: { type: "boolean", const: true, description: "The transaction succeeds" },
        gas: { ...wei, description: "The gas it used, intrinsic gas included: what its receipt's gasUsed will say (eth_simulateV1 only)" },
      },
    },
    {
      type: "object",
      title: "reverts",
      required: ["ok", "revert"],
      additionalProperties: false,
      properties: {
        ok: { type: "boolean", const: false, description: "The transaction (or the approval before it) reverts" },
        revert: {
          type: "string",
          description:
            "The decoded error's name, as trace names a candidate's (TransactionExpired, PositionSizeBelowMin, " +
            "CollateralLimitReached, ERC20InsufficientBalance, ERC20InsufficientAllowance, ...), or the raw 0x revert data",
        },
        revertArgs: { type: "object", additionalProperties: { type: "string" }, description: "The decoded error's arguments by name, numbers as decimal strings" },
      },
    },
    {
      type: "object",
      title: "not run",
      required: ["ok", "reason"],
      additionalProperties: false,
      properties: {
        ok: { type: "null", description: "The transaction was not run" },
        reason: { type: "string", description: "Why not: the node has no eth_simulateV1 and the approval must come first" },
      },
    },
  ],
} as const;

export const tradeSchema = {
  type: "object",
  description:
    "With taker (semantics §12): the createTraderPosition transaction that opens maxSize, ready to sign from the " +
    "taker, with what it needs first and the outcome of running it at the answer's block",
  required: ["collateralLimit", "deadline", "transaction", "approval", "balance", "calls", "simulation"],
  additionalProperties: false,
  properties: {
    collateralLimit: {
      ...wei,
      description:
        "The collateral limit the transaction carries, in the token's own units: min(ceil(maxCollateral × (10000 + " +
        "slippageBps) / 10000), max(maxCollateral, floor(collateralAvailable / 10^(18 - collateralDecimals)))), never 0 " +
        "(0 is no limit to the market group: a limit that would be 0 is 1)",
    },
    deadline: { ...wei, description: "The transaction's deadline, unix seconds: the answer block's timestamp + deadlineSeconds" },
    transaction: transactionSchema("createTraderPosition((marketId, maxSize, collateralLimit, deadline)) to the market group"),
    approval: {
      type: ["object", "null"],
      description:
        "The ERC-20 approval to send first, when the taker's allowance of the collateral token to the market group, at " +
        "the block, is below collateralLimit; null otherwise (or when the group names no collateral token)",
      required: ["token", "spender", "allowance", "transaction"],
      additionalProperties: false,
      properties: {
        token: { ...address, description: "The collateral token" },
        spender: { ...address, description: "The market group" },
        allowance: { ...wei, description: "The taker's allowance to it now, token units" },
        transaction: transactionSchema("approve(marketAddress, collateralLimit) to the token"),
      },
    },
    balance: {
      type: ["object", "null"],
      description: "The taker's balance of the collateral token at the block, and what the transaction may take (null when the group names no token)",
      required: ["token", "available", "needed"],
      additionalProperties: false,
      properties: {
        token: { ...address, description: "The collateral token" },
        available: { ...wei, description: "The taker's balance, token units" },
        needed: { ...wei, description: "collateralLimit: the most the transaction takes" },
      },
    },
    calls: callsSchema,
    simulation: simulationSchema,
  },
} as const;

/** The trade of the LONG example (demo market 2, expectedPrice 1030, 1000 tokens) asked with the demo's trader. */
export const TAKER_TRADE = {
  collateralLimit: "23859238983135882751",
  deadline: "1767225909",
  transaction: {
    from: DEMO_TAKER,
    to: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    data: "0x7656fbeb000000000000000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000000000000a31062beeed7000000000000000000000000000000000000000000000000014b1d0b7188f76dff000000000000000000000000000000000000000000000000000000006955ba35",
    value: "0",
  },
  approval: {
    token: "0xa16E02E87b7454126E5E10d957A927A7F5B5d2be",
    spender: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    allowance: "0",
    transaction: {
      from: DEMO_TAKER,
      to: "0xa16E02E87b7454126E5E10d957A927A7F5B5d2be",
      data: "0x095ea7b30000000000000000000000005fbdb2315678afecb367f032d93f642f64180aa30000000000000000000000000000000000000000000000014b1d0b7188f76dff",
      value: "0",
    },
  },
  balance: { token: "0xa16E02E87b7454126E5E10d957A927A7F5B5d2be", available: "999999504884573117458526498", needed: "23859238983135882751" },
  calls: [
    {
      to: "0xa16E02E87b7454126E5E10d957A927A7F5B5d2be",
      data: "0x095ea7b30000000000000000000000005fbdb2315678afecb367f032d93f642f64180aa30000000000000000000000000000000000000000000000014b1d0b7188f76dff",
    },
    {
      to: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      data: "0x7656fbeb000000000000000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000000000000a31062beeed7000000000000000000000000000000000000000000000000014b1d0b7188f76dff000000000000000000000000000000000000000000000000000000006955ba35",
    },
  ],
  simulation: { ok: true, gas: "372433" },
} as const;
