// Who plays on this device: a guest (a device secret kept in localStorage) or a player signed
// in with an identity provider (oidc.ts). The session is kept across reloads and refreshed by
// the SDK before it expires; every call of the page then carries `authorization: Bearer`.
import { Code, errorInfo } from "../../typescript/src/index.js";
import type { StoredSession } from "../../typescript/src/index.js";
import { client, errorText } from "./api.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { finishProviderSignIn, ProviderProblem, providers, startProviderSignIn } from "./oidc.js";
import type { Provider } from "./oidc.js";

/** A failed sign-in as a person reads it. */
function problemText(err: unknown): string {
  if (!(err instanceof ProviderProblem)) return errorText(err);
  return err.kind === "state" ? t("sign_in_state") : err.kind === "refused" ? t("sign_in_refused") : t("sign_in_unavailable");
}

/** The guest's secret on this device: whoever has it signs in as the guest. */
const DEVICE_KEY = "tarok.device";
/** The current session (see api.ts, which writes each new one here). */
export const SESSION_KEY = "tarok.session";
const NAME_KEY = "tarok.name";

type Listener = () => void;
const listeners = new Set<Listener>();

/** Be told when the player signs in or out. */
export function onAccount(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function changed(): void {
  for (const listener of listeners) listener();
}

/** The signed-in player of this page, if any. */
export function account(): StoredSession | undefined {
  try {
    const stored = JSON.parse(localStorage.getItem(SESSION_KEY) ?? "null") as StoredSession | null;
    return stored !== null && stored.refreshExpires > Date.now() && stored.playerId ? stored : undefined;
  } catch {
    return undefined;
  }
}

/** A new device secret: 32 random hex digits (128 bits) from the browser's CSPRNG. */
function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function deviceSecret(): string {
  let secret = localStorage.getItem(DEVICE_KEY);
  if (secret === null || secret.length < 22) {
    secret = newSecret();
    localStorage.setItem(DEVICE_KEY, secret);
  }
  return secret;
}

/** At start: finish a sign-in coming back from an identity provider, else go on with the
 * session kept from before. */
export async function startAccount(): Promise<string> {
  let problem = "";
  try {
    const token = await finishProviderSignIn();
    if (token !== undefined) {
      const kept = account();
      // a guest who signs in with a provider links it and keeps its history
      if (kept?.guest === true) {
        client.resume(kept);
        try {
          await client.linkIdentity(token);
        } catch {
          // the account is another player's already: sign in as that one
        }
      }
      await client.signIn(token, "", document.documentElement.lang);
    }
  } catch (err) {
    problem = problemText(err);
  }
  const kept = account();
  if (kept !== undefined) {
    client.resume(kept);
    // a session the server no longer takes (its secret changed, the player was suspended,
    // the store was reset) would fail every call: drop it, and sign the guest in again
    try {
      await client.players.getMe({}, { timeoutMs: 10_000 });
    } catch (err) {
      if (errorInfo(err).code === Code.Unauthenticated) {
        localStorage.removeItem(SESSION_KEY);
        client.signOut();
        if (kept.guest) {
          try {
            await signInAsGuest(kept.displayName);
          } catch (again) {
            problem = errorText(again);
          }
        }
      }
    }
  }
  return problem;
}

/** Sign in as this device's guest (the same player on every later visit). */
export async function signInAsGuest(name = ""): Promise<StoredSession | undefined> {
  const wanted = name || localStorage.getItem(NAME_KEY) || t("guest_name");
  await client.signInGuest(deviceSecret(), wanted.slice(0, 40), document.documentElement.lang);
  changed();
  return account();
}

/** The signed-in player, signing in as the guest first when nobody is. */
export async function ensureSignedIn(name = ""): Promise<StoredSession | undefined> {
  return account() ?? (await signInAsGuest(name));
}

export function signOut(): void {
  localStorage.removeItem(SESSION_KEY);
  client.signOut();
  changed();
}

/** A seat for the replay of a finished table of the player's (any device), else a spectator's. */
export async function playedTable(tableId: string): Promise<ReturnType<typeof client.spectate>> {
  if (account() !== undefined) {
    try {
      return await client.openPlayedTable(tableId);
    } catch {
      // not one of the player's tables: watch it as anyone may
    }
  }
  return client.spectate(tableId);
}

/** The account's part of the page's bar: who is signed in, *My games*, sign in and out. */
export function accountBar(): HTMLElement {
  const bar = h("span", { class: "account", "data-testid": "account" });
  const status = h("span", { class: "error", role: "alert" });
  let known: Provider[] = [];
  const render = (): void => {
    const me = account();
    if (me !== undefined) {
      fill(bar,
        h("span", { "data-testid": "signed-in-as" }, t("signed_in_as", { name: me.displayName || t("guest") })),
        me.guest ? h("span", { class: "muted" }, ` (${t("guest")})`) : null,
        " ",
        h("a", { href: "#/games", "data-testid": "my-games" }, t("my_games")),
        " ",
        h("button", { type: "button", class: "link", "data-testid": "sign-out", onclick: signOut }, t("sign_out")),
        // a guest signing in with a provider links the account and keeps its games
        me.guest ? providerButtons() : null,
        status);
      return;
    }
    fill(bar,
      h("button", { type: "button", "data-testid": "sign-in-guest", onclick: () => void signIn() }, t("sign_in_guest")),
      providerButtons(),
      status);
  };
  const providerButtons = (): HTMLElement[] =>
    known.map((p) => h("button", { type: "button", "data-provider": p.name, onclick: () => void provider(p) },
      t("sign_in_with", { provider: p.name })));
  const signIn = async (): Promise<void> => {
    try {
      await signInAsGuest();
    } catch (err) {
      status.textContent = errorText(err);
    }
  };
  const provider = async (p: Provider): Promise<void> => {
    try {
      await startProviderSignIn(p);
    } catch (err) {
      status.textContent = problemText(err);
    }
  };
  render();
  // the bar goes away with its page: it stops listening at the next change
  const stop = onAccount(() => (bar.isConnected ? render() : stop()));
  void providers().then((found) => {
    known = found;
    render();
  });
  return bar;
}
