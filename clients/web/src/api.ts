// The connection to the server (Connect protocol on its HTTP port) and the seats this browser holds.
import type { Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { errorInfo, storedSession, TarokClient } from "../../typescript/src/index.js";
import type { VariantInfo } from "../../typescript/src/index.js";
import { h } from "./dom.js";
import { chooseLocale, locale, t } from "./i18n.js";

/** The server: the page's own origin (tarok serve hosts the page), or `?server=URL`. */
export function serverUrl(): string {
  return new URLSearchParams(location.search).get("server") ?? location.origin;
}

type Listener = (online: boolean) => void;
const listeners = new Set<Listener>();

/** Be told when the connection drops (false) and when an answer arrives again (true). */
export function onConnection(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function connectionOk(): void {
  for (const listener of listeners) listener(true);
}

/** Languages the page and the server's words come in, each named in itself; "" follows the
 * browser's own preference. */
export const LANGUAGES: Record<string, string> = {
  en: "English",
  sl: "Slovenščina",
  cs: "Čeština",
  de: "Deutsch",
  it: "Italiano",
  fr: "Français",
};
const LOCALE_KEY = "tarok.locale";

/** The language to show: the one chosen in the menu, else the browser's best supported one. */
export function pageLocale(): string {
  return chooseLocale(localStorage.getItem(LOCALE_KEY) ?? "", navigator.languages);
}

/** The page's language, sent as Accept-Language with every call (the server picks its words). */
const withLocale: Interceptor = (next) => async (req) => {
  req.header.set("accept-language", locale());
  return next(req);
};

/** A language menu; choosing reloads the page so every view comes in the new language. */
export function languageMenu(): HTMLElement {
  const current = localStorage.getItem(LOCALE_KEY) ?? "";
  const select = h(
    "select",
    { "aria-label": t("language"), "data-testid": "language" },
    h("option", { value: "", selected: current === "" }, t("language_auto")),
    Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code, selected: code === current }, name)),
  );
  select.addEventListener("change", () => {
    localStorage.setItem(LOCALE_KEY, select.value);
    location.reload();
  });
  return select;
}

export const client = new TarokClient(createConnectTransport({ baseUrl: serverUrl(), interceptors: [withLocale] }), {
  retryForMs: 10 * 60_000,
  // each new session (sign-in or refresh) is kept for reloads (account.ts: SESSION_KEY)
  onSession: (session) => localStorage.setItem("tarok.session", JSON.stringify(storedSession(session))),
  onRetry: () => {
    for (const listener of listeners) listener(false);
  },
});

let variants: Promise<VariantInfo[]> | undefined;
/** The server's words for its error reasons ("reason.NOT_YOUR_TURN"), once the rule sets came. */
let reasons: ReadonlyMap<string, string> = new Map();

/** The rule sets the server offers, in the page's language (asked once). */
export function variantList(): Promise<VariantInfo[]> {
  variants ??= client.variants().then((found) => {
    reasons = vocabulary(found[0]);
    return found;
  }, (err: unknown) => {
    variants = undefined;
    throw err;
  });
  return variants;
}

/** An error as a person reads it: the server's words for its reason in the page's language,
 * else the reason (or status) and the server's message. */
export function errorText(err: unknown): string {
  const info = errorInfo(err);
  return reasons.get(`reason.${info.reason}`) ?? `${info.reason || info.codeName}: ${info.message}`;
}

/** Labels of a rule set's vocabularies in the page's language, by "kind.id" ("contract.beggar"). */
export function vocabulary(variant: VariantInfo | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const v of variant?.vocabularies ?? []) for (const term of v.terms) out.set(`${v.kind}.${term.id}`, term.label);
  return out;
}

/** A rule set by its id, in the page's language (undefined when unknown or the server cannot
 * be asked). */
export async function variantInfo(id: string): Promise<VariantInfo | undefined> {
  try {
    return (await variantList()).find((v) => v.id === id);
  } catch {
    return undefined;
  }
}

/** A seat whose token this browser keeps, to come back to it (reload, lost connection). */
export interface SavedSeat {
  readonly tableId: string;
  readonly token: string;
  readonly seat: number | undefined;
  readonly name: string;
  readonly variant: string;
  readonly savedAt: number;
}

const KEY = "tarok.seats";

export function savedSeats(): SavedSeat[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(parsed) ? (parsed as SavedSeat[]) : [];
  } catch {
    return [];
  }
}

/** Remember a seat (replacing an older token for the same seat of the same table). */
export function saveSeat(seat: SavedSeat): void {
  const same = (s: SavedSeat): boolean =>
    s.token === seat.token || (s.tableId === seat.tableId && s.seat !== undefined && s.seat === seat.seat);
  const others = savedSeats().filter((s) => !same(s));
  localStorage.setItem(KEY, JSON.stringify([seat, ...others].slice(0, 100)));
}

export function forgetTable(tableId: string): void {
  localStorage.setItem(KEY, JSON.stringify(savedSeats().filter((s) => s.tableId !== tableId)));
}
