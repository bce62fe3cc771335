// The page's own words in the chosen language. The words come from the server's catalogues
// (tarok_service/locales, the `web.*` entries), put into the bundle by build.mjs; words the
// server renders itself (contracts, phases, score lines, cards) arrive already translated.

export type Catalogue = Readonly<Record<string, string>>;
export type Catalogues = Readonly<Record<string, Catalogue>>;

export const LOCALES = ["en", "sl", "cs", "de", "it", "fr"] as const;
export const DEFAULT_LOCALE = "en";

let all: Catalogues = {};
let current = DEFAULT_LOCALE;

/** The best supported locale: the saved choice, else the first of the browser's languages
 * that is supported ("de-AT" -> "de"), else English. */
export function chooseLocale(saved: string, preferred: readonly string[]): string {
  for (const wanted of [saved, ...preferred]) {
    const base = wanted.toLowerCase().split(/[-_]/)[0] ?? "";
    if ((LOCALES as readonly string[]).includes(base)) return base;
  }
  return DEFAULT_LOCALE;
}

/** Use these catalogues, in this locale, for every later `t`. */
export function useCatalogues(catalogues: Catalogues, locale: string): void {
  all = catalogues;
  current = catalogues[locale] !== undefined ? locale : DEFAULT_LOCALE;
}

export function locale(): string {
  return current;
}

/** The word `key` (a `web.<key>` message) with its `{placeholders}` filled; English when the
 * locale lacks it, the key itself when no catalogue has it. */
export function t(key: string, values: Readonly<Record<string, string | number>> = {}): string {
  const template = all[current]?.[key] ?? all[DEFAULT_LOCALE]?.[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    values[name] === undefined ? whole : String(values[name]));
}

/** The word `key` when some catalogue has it, else `fallback`. */
export function wordOr(key: string, fallback: string): string {
  const word = t(key);
  return word === key ? fallback : word;
}
