// Sending a trade's calls (semantics §12: the approval when there is one, then the trade, each `{ to, data }`) from
// the connected wallet: one wallet_sendCalls (EIP-5792, version 2.0.0) where the wallet takes it, so that the trader
// confirms once, followed by wallet_getCallsStatus until the batch is final; else one eth_sendTransaction per call,
// each after the previous one's receipt (an approval must be mined before the trade that spends it is estimated).
// Whatever fails is said in words and nothing is sent after it: a refusal in the wallet, a revert (decoded by the
// errors the service decodes a trace's reverts by), a failed receipt, the wallet's chain changed meanwhile.
import { apiBase } from "./form.js";
import { simulationWords } from "./trade.js";
import { ask, chainHex, wallet } from "./wallet.js";

/** How often and how long the page asks for a batch's status or a transaction's receipt. */
const POLL_MS = 500;
const POLL_LIMIT = 600;

/** What a wallet answers for a method it does not have: EIP-1193's 4200, JSON-RPC's -32601, EIP-5792's 5700/5710. */
const UNSUPPORTED = new Set([4200, -32601, 5700, 5710]);

/** A failure the trader reads: its words are the message. */
export class SendFailure extends Error {}

/** The calls a wallet signs, in order: the answer's own (the approval's, when there is one, then the trade's). */
export const callsOf = (trade) => trade.calls;

/**
 * Sends `calls` from the wallet's account on `chainId` (decimal); the receipts of the calls, in order, and how they
 * went (`batch`: one wallet_sendCalls; `one by one`). `progress(words)` hears each step.
 */
export async function sendTrade(calls, chainId, progress) {
  const from = wallet.account;
  const chain = chainHex(chainId);
  await sameChain(chain);
  const atomic = await atomicBatches(from, chain);
  let sent;
  try {
    progress(`Confirm the trade in your wallet: ${atomic || calls.length === 1 ? "one confirmation for all its calls" : "it may ask you to confirm each call"}.`);
    sent = await ask("wallet_sendCalls", [{ version: "2.0.0", from, chainId: chain, atomicRequired: false, calls }]);
  } catch (error) {
    if (!UNSUPPORTED.has(error && error.code)) throw await inWords(error, "the batch");
    return { how: "one by one", receipts: await oneByOne(calls, from, chain, progress) };
  }
  progress("Sent: waiting for the wallet to report the calls mined.");
  return { how: "batch", receipts: await batchReceipts(typeof sent === "string" ? sent : sent.id, calls.length) };
}

/**
 * Whether the wallet says (EIP-5792's wallet_getCapabilities) that it sends batches on `chain` atomically: then the
 * trader confirms once. A wallet that does not answer may still take wallet_sendCalls (it is asked anyway, with
 * atomicRequired false, and falls back to one transaction after the other only where it has no wallet_sendCalls).
 */
async function atomicBatches(from, chain) {
  try {
    const capabilities = await ask("wallet_getCapabilities", [from, [chain]]);
    const status = capabilities && capabilities[chain] && capabilities[chain].atomic && capabilities[chain].atomic.status;
    return status === "supported" || status === "ready";
  } catch {
    return false;
  }
}

/** The wallet's chain is still the quote's: checked before each step, so that nothing goes to another chain. */
async function sameChain(chain) {
  const now = await ask("eth_chainId");
  if (BigInt(now) !== BigInt(chain)) throw new SendFailure(`The wallet changed to chain ${BigInt(now)}, not the quote's ${BigInt(chain)}: nothing more was sent.`);
}

/** wallet_getCallsStatus until final (EIP-5792: 100 pending, 200 confirmed, 400 to 600 failed): its receipts. */
async function batchReceipts(id, count) {
  for (let polls = 0; polls < POLL_LIMIT; polls++) {
    const status = await ask("wallet_getCallsStatus", [id]);
    const code = Number(status.status);
    if (code >= 200 && code < 300) {
      const receipts = (status.receipts ?? []).filter(Boolean);
      failedReceipt(receipts);
      if (receipts.length < count) throw new SendFailure(`The wallet reports ${receipts.length} receipts for ${count} calls: check the account's transactions before trying again.`);
      return receipts;
    }
    if (code >= 400) {
      const words = { 4: "the wallet did not send them", 5: "they reverted on chain: nothing changed", 6: "some reverted on chain and others went through" }[Math.floor(code / 100)];
      throw new SendFailure(`The batch failed (status ${code}): ${words ?? "the wallet says it failed"}.`);
    }
    await pause();
  }
  throw new SendFailure("The wallet has not reported the batch final yet: check the account's transactions before trying again.");
}

/** eth_sendTransaction per call, each after the previous one's receipt, the chain checked before each. */
async function oneByOne(calls, from, chain, progress) {
  const receipts = [];
  for (const [index, call] of calls.entries()) {
    if (index > 0) await sameChain(chain);
    const step = calls.length > 1 ? `call ${index + 1} of ${calls.length}${index === 0 ? " (the approval)" : " (the trade)"}` : "the trade";
    progress(`Confirm ${step} in your wallet.`);
    let hash;
    try {
      hash = await ask("eth_sendTransaction", [{ from, to: call.to, data: call.data }]);
    } catch (error) {
      throw await inWords(error, step, index);
    }
    progress(`Sent ${step} (${hash}): waiting for its receipt.`);
    const receipt = await minedReceipt(hash);
    failedReceipt([receipt]);
    receipts.push(receipt);
  }
  return receipts;
}

async function minedReceipt(hash) {
  for (let polls = 0; polls < POLL_LIMIT; polls++) {
    const receipt = await ask("eth_getTransactionReceipt", [hash]);
    if (receipt) return receipt;
    await pause();
  }
  throw new SendFailure(`No receipt for ${hash} yet: check it before trying again.`);
}

function failedReceipt(receipts) {
  const failed = receipts.find((receipt) => receipt.status !== "0x1" && receipt.status !== 1 && receipt.status !== "success");
  if (failed) throw new SendFailure(`Transaction ${failed.transactionHash} reverted on chain (its receipt's status is ${failed.status}): nothing more was sent.`);
}

const pause = () => new Promise((resolve) => setTimeout(resolve, POLL_MS));

/** A wallet's error in words: a refusal, a revert (decoded as a trace's), or what the wallet said. */
async function inWords(error, step, index = 0) {
  const earlier = index > 0 ? " The calls before it were sent and mined." : "";
  if (error && error.code === 4001) return new SendFailure(`You rejected ${step} in the wallet: ${index > 0 ? `it was not sent.${earlier}` : "nothing was sent."}`);
  const data = revertData(error);
  if (data) {
    const revert = await decodeRevert(data);
    return new SendFailure(`${simulationWords({ simulation: { ok: false, ...revert }, approval: null }).replace("The transaction would revert", `${step[0].toUpperCase()}${step.slice(1)} reverts`)} Nothing more was sent.${earlier}`);
  }
  return new SendFailure(`The wallet did not send ${step}: ${error && error.message ? error.message : error}.${earlier}`);
}

/** The revert data a wallet's error carries, where wallets put it (`data`, `data.data`, `data.originalError.data`). */
function revertData(error) {
  const candidates = [error && error.data, error && error.data && error.data.data, error && error.data && error.data.originalError && error.data.originalError.data];
  return candidates.find((value) => typeof value === "string" && /^0x[0-9a-fA-F]{8}/.test(value));
}

let knownErrors;

/** `{ revert, revertArgs }` as the service's trace has it: the error by its selector, its static arguments read. */
async function decodeRevert(data) {
  knownErrors ??= fetch(`${apiBase()}/explorer/errors.json`).then((response) => response.json()).catch(() => []);
  const error = (await knownErrors).find((known) => known.selector === data.slice(0, 10).toLowerCase());
  if (!error) return { revert: data };
  const args = {};
  error.inputs.forEach((input, index) => {
    const word = data.slice(10 + 64 * index, 74 + 64 * index);
    if (word.length === 64 && /^u?int\d*$|^address$|^bool$/.test(input.type)) args[input.name] = wordValue(input.type, BigInt(`0x${word}`));
  });
  return Object.keys(args).length > 0 ? { revert: error.name, revertArgs: args } : { revert: error.name };
}

function wordValue(type, word) {
  if (type === "address") return `0x${word.toString(16).padStart(40, "0")}`;
  if (type === "bool") return String(word !== 0n);
  // A signed argument is sign-extended to the whole word.
  return String(type.startsWith("int") && word >= 2n ** 255n ? word - 2n ** 256n : word);
}
