// The trader's wallet, spoken to as EIP-1193 says (one `request({ method, params })`, events by `on`): the wallets
// of the browser found by EIP-6963 (each announces itself, with its name and icon, when the page asks), or the one
// a wallet older than EIP-6963 puts at window.ethereum when none announces. A wallet is chosen by its button and
// connected by "Connect wallet" (eth_requestAccounts); its account becomes the taker of every request the page makes
// (the taker field, which every request reads). The page holds no keys: the wallet signs, or refuses.
import { $ } from "./dom.js";

/** The wallets found: `{ info: { uuid, name, icon }, provider }`, in the order they announced themselves. */
const wallets = [];
/** The wallet chosen, its account once connected, and the chain it said it is on (hex). */
export const wallet = { chosen: null, account: "", chainId: "" };
/** Who wants to know when the account or the chain changes (the trade panels' buttons, the quote). */
const followers = [];

export const onWalletChange = (follower) => followers.push(follower);
const changed = (what) => followers.forEach((follower) => follower(what));

/** The chain id as EIP-1193 and EIP-5792 write it: hex, no leading zeros. */
export const chainHex = (chainId) => `0x${BigInt(chainId).toString(16)}`;

/** A request to the chosen wallet. */
export const ask = (method, params = []) => wallet.chosen.provider.request({ method, params });

/** Lists the wallets as they announce themselves, asks them to, and wires "Connect wallet". */
export function discoverWallets() {
  window.addEventListener("eip6963:announceProvider", (event) => {
    const { info, provider } = event.detail ?? {};
    if (!info || !provider || typeof provider.request !== "function" || wallets.some((w) => w.info.uuid === info.uuid)) return;
    wallets.push({ info, provider });
    listWallets();
  });
  window.dispatchEvent(new Event("eip6963:requestProvider"));
  $("wallet-connect").addEventListener("click", () => void connect());
  listWallets();
}

/** One button per wallet (the window.ethereum one when no wallet announced); the one chosen is pressed. */
function listWallets() {
  const found = wallets.length > 0 ? wallets : window.ethereum ? [{ info: { uuid: "window.ethereum", name: "Browser wallet", icon: "" }, provider: window.ethereum }] : [];
  if (!found.includes(wallet.chosen) && !wallet.account) wallet.chosen = found[0] ?? null;
  const list = $("wallet-list");
  list.replaceChildren(...found.map((entry) => walletButton(entry)));
  $("wallet-connect").disabled = wallet.chosen === null;
  if (!wallet.account) say(found.length === 0 ? "No wallet found in this browser: install one, or sign the trade's calls elsewhere." : `Choose a wallet, then connect it.`);
}

function walletButton(entry) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "wallet-choice secondary";
  button.setAttribute("aria-pressed", String(entry === wallet.chosen));
  if (entry.info.icon) {
    const icon = document.createElement("img");
    Object.assign(icon, { src: entry.info.icon, alt: "", width: 20, height: 20 });
    button.append(icon);
  }
  button.append(entry.info.name);
  button.addEventListener("click", () => {
    if (entry === wallet.chosen) return;
    forget();
    wallet.chosen = entry;
    listWallets();
  });
  return button;
}

/** The account and chain of the wallet chosen before, no longer followed. */
function forget() {
  const provider = wallet.chosen && wallet.chosen.provider;
  if (provider && typeof provider.removeListener === "function") {
    provider.removeListener("accountsChanged", accountsChanged);
    provider.removeListener("chainChanged", chainChanged);
  }
  Object.assign(wallet, { account: "", chainId: "" });
  changed("account");
}

/** eth_requestAccounts: the wallet asks its user; the first account it gives is the taker from then on. */
async function connect() {
  const { provider, info } = wallet.chosen;
  try {
    const accounts = await ask("eth_requestAccounts");
    if (typeof provider.on === "function") {
      provider.on("accountsChanged", accountsChanged);
      provider.on("chainChanged", chainChanged);
    }
    wallet.chainId = await ask("eth_chainId");
    accountsChanged(accounts);
    // Connected on another chain than the form's: the switch is asked at once (and again before sending).
    await switchChain($("chainId").value).catch((error) => say(`${connectedWords()} ${error.message}`));
  } catch (error) {
    say(error && error.code === 4001 ? `${info.name} refused to connect.` : `${info.name} did not connect: ${error && error.message ? error.message : error}`);
  }
}

function accountsChanged(accounts) {
  wallet.account = Array.isArray(accounts) && accounts.length > 0 ? String(accounts[0]) : "";
  if (wallet.account && $("taker")) $("taker").value = wallet.account;
  say(wallet.account ? connectedWords() : `${wallet.chosen.info.name} has no account connected.`);
  changed("account");
}

function chainChanged(chainId) {
  wallet.chainId = String(chainId);
  if (wallet.account) say(connectedWords());
  changed("chain");
}

const connectedWords = () => `Connected: ${wallet.account} in ${wallet.chosen.info.name}, on chain ${BigInt(wallet.chainId || "0")}.`;

function say(words) {
  $("wallet-status").textContent = words;
}

/**
 * Makes the wallet's chain `chainId` (decimal): nothing when it is on it already, else wallet_switchEthereumChain.
 * Throws, in words naming the chain to pick, when the wallet refuses or cannot switch.
 */
export async function switchChain(chainId) {
  const wanted = chainHex(chainId);
  wallet.chainId = await ask("eth_chainId");
  if (BigInt(wallet.chainId) === BigInt(wanted)) return;
  try {
    await ask("wallet_switchEthereumChain", [{ chainId: wanted }]);
    wallet.chainId = await ask("eth_chainId");
  } catch {
    // Refused, or a wallet that cannot switch (or does not know the chain): the trader does it by hand.
  }
  if (BigInt(wallet.chainId) !== BigInt(wanted)) {
    throw new Error(`The wallet is on chain ${BigInt(wallet.chainId)}: pick chain ${BigInt(wanted)} (the quote's) in ${wallet.chosen.info.name}, then try again.`);
  }
  chainChanged(wallet.chainId);
}
