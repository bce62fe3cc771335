// The server's gettext catalogues (tarok_service/locales/<locale>/LC_MESSAGES/tarok.po) read
// into plain objects, for the web table's bundle (build.mjs) and its tests: the page's own
// words are the catalogues' `web.*` entries, so there is one copy of every translation.
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const LOCALES = ["en", "sl", "cs", "de", "it", "fr"];
export const WEB_PREFIX = "web.";

/** A quoted .po string's text, its escapes undone. */
function unquote(text) {
  return JSON.parse(text.replace(/\\(?!["\\nt])/g, "\\\\"));
}

/** Every entry of a .po text: {context, id, strings} (strings[0] for singular entries). */
export function parsePo(text) {
  const entries = [];
  let entry = { context: "", id: "", strings: [] };
  let field = null;
  const flush = () => {
    if (entry.id) entries.push(entry);
    entry = { context: "", id: "", strings: [] };
    field = null;
  };
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) {
      if (line === "") flush();
      continue;
    }
    const found = /^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*")$/.exec(line);
    if (found) {
      const [, keyword, index, quoted] = found;
      if (keyword === "msgctxt" && (entry.id || entry.strings.length)) flush();
      if (keyword === "msgid" && entry.strings.length) flush();
      field = keyword === "msgctxt" ? ["context"] : keyword === "msgid" ? ["id"]
        : keyword === "msgid_plural" ? ["plural"] : ["strings", Number(index ?? 0)];
      append(entry, field, unquote(quoted));
    } else if (line.startsWith('"') && field !== null) {
      append(entry, field, unquote(line));
    } else {
      throw new Error(`cannot read .po line: ${raw}`);
    }
  }
  flush();
  return entries;
}

function append(entry, field, text) {
  if (field[0] === "strings") entry.strings[field[1]] = (entry.strings[field[1]] ?? "") + text;
  else entry[field[0]] = (entry[field[0]] ?? "") + text;
}

/** The .po file of a locale under the locales directory. */
export function poPath(localeDir, locale) {
  return join(localeDir, locale, "LC_MESSAGES", "tarok.po");
}

/** Every entry of one locale's catalogue. */
export function readCatalogue(localeDir, locale) {
  return parsePo(readFileSync(poPath(localeDir, locale), "utf8"));
}

/** The page's own words per locale: { en: { lobby_title: "...", ... }, sl: {...}, ... }. */
export function webCatalogues(localeDir) {
  const out = {};
  for (const locale of LOCALES) {
    out[locale] = {};
    for (const e of readCatalogue(localeDir, locale)) {
      if (!e.context && e.id.startsWith(WEB_PREFIX) && e.strings[0]) {
        out[locale][e.id.slice(WEB_PREFIX.length)] = e.strings[0];
      }
    }
  }
  return out;
}
