// One search per distinct quote and block across replicas. A replica about to search asks Redis, in one script,
// for the answer another replica already kept, or else for the claim on the search (SET NX with an expiry): the
// claimer searches, keeps the answer (with a TTL of a few blocks) and publishes it; the others wait for it on the
// channel and, should the claim expire or its search fail, try once more and then search alone. Redis down or
// late: every replica searches alone, as with no Redis at all. Keys name the chain, the block's hash and the
// request, so an answer is only ever read at the very block it is about.
import { createHash, randomUUID } from "node:crypto";
import type { Searched } from "../answerAtBlock.ts";
import type { RedisLink } from "./redisLink.ts";
import { decodeSearched, encodeSearched } from "./searchedCodec.ts";

/** Where a quote's answer came from: its own search, another replica's, or its own with Redis out of the way. */
export type SharedFrom = "searched" | "replica" | "alone";

export interface SearchSharing {
  /** The answer of `key` at `blockHash` of `chainId`: another replica's, or `search()`'s (then offered to them). */
  share(at: SharedAt, search: () => Promise<Searched>, signal: AbortSignal): Promise<{ searched: Searched; from: SharedFrom }>;
  /** Whether an answer of each is kept (all false while Redis is down). */
  kept(ats: readonly SharedAt[]): Promise<boolean[]>;
  close(): Promise<void>;
}

export interface SharedAt {
  readonly chainId: number;
  readonly blockHash: string;
  readonly key: string;
}

export interface SharedSearchesOptions {
  /** How long a claim holds (ms): the others wait at most this long for the claimer's answer. */
  readonly claimMs: number;
  /** How long a kept answer lives (ms). */
  readonly answerTtlMs: number;
  /** Told of each quote's outcome (metrics). */
  readonly observe?: (from: SharedFrom) => void;
}

const PREFIX = "quoter:v1:";
const ANSWERS_CHANNEL = `${PREFIX}answers`;

// KEYS: the answer, the claim. ARGV: the claimer, the claim's expiry. {1, answer} | {2} (claimed) | {3, pttl}.
const CLAIM_OR_ANSWER = `
local answer = redis.call('GET', KEYS[1])
if answer then return {1, answer} end
if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then return {2} end
return {3, redis.call('PTTL', KEYS[2])}
`;

// KEYS: the answer, the claim. ARGV: the claimer, the answer ('' for none), its TTL, the channel, the id. Keeps the
// answer, lets go of the claim if it is still this replica's (it may have expired and been taken), publishes.
const OFFER = `
if ARGV[2] ~= '' then redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
redis.call('PUBLISH', ARGV[4], ARGV[5] .. string.char(10) .. ARGV[2])
return 1
`;

type Claim = { readonly kind: "answer"; readonly text: string } | { readonly kind: "claimed" } | { readonly kind: "wait"; readonly ms: number };

type Commands = {
  quoterClaimOrAnswer(answer: string, claim: string, replica: string, ms: number): Promise<[number, (string | number)?]>;
  quoterOffer(answer: string, claim: string, replica: string, text: string, ttlMs: number, channel: string, id: string): Promise<number>;
};

const idOf = (at: SharedAt) => `${at.chainId}:${at.blockHash}:${createHash("sha256").update(at.key).digest("base64url")}`;
const answerKey = (id: string) => `${PREFIX}answer:${id}`;
const claimKey = (id: string) => `${PREFIX}claim:${id}`;

export function createSharedSearches(link: RedisLink, { claimMs, answerTtlMs, observe }: SharedSearchesOptions): SearchSharing {
  const replica = randomUUID();
  const answers = listenForAnswers(link);
  link.client.defineCommand("quoterClaimOrAnswer", { numberOfKeys: 2, lua: CLAIM_OR_ANSWER });
  link.client.defineCommand("quoterOffer", { numberOfKeys: 2, lua: OFFER });

  const claimOrAnswer = (id: string) =>
    link.run(async (client): Promise<Claim> => {
      const [kind, value] = await (client as unknown as Commands).quoterClaimOrAnswer(answerKey(id), claimKey(id), replica, claimMs);
      return kind === 1 ? { kind: "answer", text: String(value) } : kind === 2 ? { kind: "claimed" } : { kind: "wait", ms: Number(value) };
    });

  /** Keeps and publishes what this replica's search found (or that it found nothing: the others stop waiting). */
  const offer = (id: string, searched: Searched | undefined) =>
    link.run((client) =>
      (client as unknown as Commands).quoterOffer(answerKey(id), claimKey(id), replica, searched === undefined ? "" : encodeSearched(searched), answerTtlMs, ANSWERS_CHANNEL, id),
    );

  async function searchAndOffer(id: string, search: () => Promise<Searched>) {
    let searched: Searched | undefined;
    try {
      searched = await search();
      return searched;
    } finally {
      void offer(id, searched);
    }
  }

  const told = (from: SharedFrom, searched: Searched) => {
    observe?.(from);
    return { searched, from };
  };

  return {
    async kept(ats) {
      const counted = await link.run((client) => client.mget(ats.map((at) => answerKey(idOf(at)))).then((texts) => texts.map((text) => text !== null)));
      return counted ?? ats.map(() => false);
    },
    async share(at, search, signal) {
      const id = idOf(at);
      for (let round = 0; round < 2; round++) {
        const claim = await claimOrAnswer(id);
        if (claim === undefined) break;
        const text = claim.kind === "answer" ? claim.text : claim.kind === "wait" ? await answers.of(id, claim.ms, signal) : undefined;
        const shared = text === undefined ? undefined : decodeSearched(text);
        if (shared !== undefined) return told("replica", shared);
        if (claim.kind === "claimed") return told("searched", await searchAndOffer(id, search));
      }
      return told("alone", await search());
    },
    async close() {
      answers.close();
    },
  };
}

/** The answers other replicas publish, for the quotes of this replica that wait for them. */
function listenForAnswers(link: RedisLink) {
  /** By id: told the answer's text, or undefined (its search found none). */
  const waiting = new Map<string, Set<(text: string | undefined) => void>>();
  void link.subscriber.subscribe(ANSWERS_CHANNEL).catch(() => undefined);
  link.subscriber.on("message", (channel: string, message: string) => {
    if (channel !== ANSWERS_CHANNEL) return;
    const split = message.indexOf("\n");
    const text = message.slice(split + 1);
    for (const told of waiting.get(message.slice(0, split)) ?? []) told(text === "" ? undefined : text);
  });
  return {
    /** The text published for `id`, or undefined once `ms` pass or it is published as none. */
    of(id: string, ms: number, signal: AbortSignal): Promise<string | undefined> {
      if (signal.aborted) return Promise.reject(signal.reason);
      return new Promise((resolve, reject) => {
        const listeners = waiting.get(id) ?? new Set();
        waiting.set(id, listeners);
        const leave = () => {
          clearTimeout(timer);
          signal.removeEventListener("abort", aborted);
          listeners.delete(finish);
          if (listeners.size === 0 && waiting.get(id) === listeners) waiting.delete(id);
        };
        const finish = (text: string | undefined) => {
          leave();
          resolve(text);
        };
        const aborted = () => {
          leave();
          reject(signal.reason);
        };
        const timer = setTimeout(() => finish(undefined), Math.max(1, ms));
        listeners.add(finish);
        signal.addEventListener("abort", aborted, { once: true });
        // Published between the claim's answer and this listener: kept already.
        void link.run((client) => client.get(answerKey(id))).then((text) => text && finish(text));
      });
    },
    close: () => waiting.clear(),
  };
}

/**
 * `search()` at `head`, shared across replicas when `sharing` is set; a quote answered by another replica's search
 * says so in its record (it made no RPC request).
 */
export async function shareSearch(
  sharing: SearchSharing | undefined,
  at: SharedAt,
  record: { replica?: boolean } | undefined,
  search: () => Promise<Searched>,
  signal: AbortSignal,
): Promise<Searched> {
  if (sharing === undefined) return search();
  const { searched, from } = await sharing.share(at, search, signal);
  if (from === "replica" && record) record.replica = true;
  return searched;
}
