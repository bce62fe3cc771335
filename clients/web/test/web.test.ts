// The web table's pure parts: its words (from the server's catalogues), seat names, score
// lines' sides, the discard count, the lobby's listing and the replay's moments.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { create } from "@bufbuild/protobuf";
import {
  AnalyseHandResponseSchema,
  CardAnalysisSchema,
  EventSchema,
  HandResultSchema,
  ScoreLineSchema,
  SettlementSchema,
} from "../../typescript/src/index.js";
import type { Event } from "../../typescript/src/index.js";
import { ROOT } from "../../typescript/test/server.js";
import { analysisNumber, trickAnalysis } from "../src/analysis.js";
import { chooseLocale, t, useCatalogues } from "../src/i18n.js";
import { isStale, OPEN_FOR_MS, seatLines, tableTitle } from "../src/listing.js";
import { BOT_LEVELS, seatNames } from "../src/names.js";
import { cardsToDiscard, credited, lineSide } from "../src/results.js";
import { replayOf } from "../src/steps.js";
import { LOCALE_DIR, po } from "./catalogue.js";

const SRC = join(ROOT, "clients", "web", "src");
const catalogues = po.webCatalogues(LOCALE_DIR);

/** Words the page looks up by a server id (rule options and their choices); the browser test
 * checks them against the server's rule sets. */
const BY_SERVER_ID = /^(option|choice)_/;

/** Every word the page's sources ask for: t("key") and the bot kinds' `bot_<kind>`. */
function usedKeys(): Set<string> {
  const keys = new Set<string>();
  for (const file of readdirSync(SRC).filter((f) => f.endsWith(".ts"))) {
    for (const m of readFileSync(join(SRC, file), "utf8").matchAll(/\bt\("([a-z0-9_]+)"/g)) keys.add(m[1] ?? "");
  }
  for (const kind of ["heuristic", "random", "pimc", ...BOT_LEVELS]) keys.add(`bot_${kind}`);
  return keys;
}

// Words that are the same in English and in the language (names, loan words, bare numbers).
const SAME_AS_ENGLISH: Record<string, string[]> = {
  sl: ["title", "partner", "radelci", "bot_numbered", "seconds", "talon", "choice_mond_skis_pagat"],
  de: ["lobby", "bot", "optional", "bot_numbered", "seconds", "talon"],
  cs: ["partner", "radelci", "bot_numbered", "seconds", "talon"],
  it: ["bot", "bot_tag", "no", "radelci", "bot_numbered", "seconds"],
  fr: ["bot_numbered", "seconds", "table", "tables", "radelci", "total", "points", "talon", "score",
    "choice_mond_skis_pagat", "choice_double"],
};

describe("the page's words", () => {
  test(".po text is read with contexts, continued lines, escapes and plural forms", () => {
    const entries = po.parsePo([
      'msgid ""', 'msgstr ""', '"Language: sl\\n"', "",
      "# a comment", 'msgctxt "taroky"', 'msgid "word.a"', 'msgstr "Ha"', '"lo \\"x\\""', "",
      'msgid "count.n"', 'msgid_plural "count.n"', 'msgstr[0] "{n} a"', 'msgstr[1] "{n} b"', "",
    ].join("\n"));
    assert.deepEqual(entries, [
      { context: "taroky", id: "word.a", strings: ['Halo "x"'] },
      { context: "", id: "count.n", plural: "count.n", strings: ["{n} a", "{n} b"] },
    ]);
  });

  test("every word the page uses is in all five catalogues with the same placeholders", () => {
    const used = usedKeys();
    assert.ok(used.size > 80, `${used.size} words`);
    for (const locale of po.LOCALES) {
      const words = catalogues[locale] ?? {};
      for (const key of used) {
        const en = catalogues.en?.[key] ?? "";
        assert.ok(words[key], `${locale}: web.${key} missing`);
        const holes = (s: string): string[] => [...s.matchAll(/\{\w+\}/g)].map((m) => m[0]).sort();
        assert.deepEqual(holes(words[key] ?? ""), holes(en), `${locale}: web.${key} placeholders`);
      }
      // no word in the catalogue that the page no longer uses
      assert.deepEqual(Object.keys(words).filter((k) => !used.has(k) && !BY_SERVER_ID.test(k)), [], `${locale}: unused web.* words`);
    }
  });

  test("every language has its own words, not copies of the English ones", () => {
    for (const [locale, same] of Object.entries(SAME_AS_ENGLISH)) {
      const copies = Object.keys(catalogues.en ?? {}).filter((k) => catalogues[locale]?.[k] === catalogues.en?.[k]);
      assert.deepEqual(copies.sort(), [...same].sort(), `${locale}: words equal to English`);
    }
  });

  test("the locale is the saved choice, else the browser's best supported language", () => {
    assert.equal(chooseLocale("sl", ["de-AT"]), "sl");
    assert.equal(chooseLocale("", ["es-ES", "de-AT", "it"]), "de");
    assert.equal(chooseLocale("", ["fr-FR", "de-AT"]), "fr");
    assert.equal(chooseLocale("", ["es"]), "en");
  });

  test("placeholders are filled, a missing word falls back to English", () => {
    useCatalogues({ en: { a: "Hand {n} of {of}", b: "only English" }, sl: { a: "Igra {n} od {of}" } }, "sl");
    assert.equal(t("a", { n: 1, of: 4 }), "Igra 1 od 4");
    assert.equal(t("b"), "only English");
    assert.equal(t("zzz"), "zzz");
  });
});

describe("names, sides and counts", () => {
  test("three bots of one kind get numbered names, a name used twice its seat", () => {
    useCatalogues(catalogues, "en");
    const bots = seatNames([
      { seat: 0, name: "Ana", bot: "" },
      { seat: 1, name: "Heuristic bot", bot: "heuristic" },
      { seat: 2, name: "Heuristic bot", bot: "heuristic" },
      { seat: 3, name: "Heuristic bot", bot: "heuristic" },
    ]);
    assert.deepEqual(bots, ["Ana", "Heuristic bot 1", "Heuristic bot 2", "Heuristic bot 3"]);
    const mixed = seatNames([
      { seat: 0, name: "Bo", bot: "" },
      { seat: 1, name: "Bo", bot: "" },
      { seat: 2, name: "Random bot", bot: "random" },
      { seat: 3, name: "", bot: "" },
    ]);
    assert.deepEqual(mixed, ["Bo (seat 1)", "Bo (seat 2)", "Random bot", "Seat 4"]);
    useCatalogues(catalogues, "sl");
    assert.deepEqual(seatNames([
      { seat: 0, name: "Heuristic bot", bot: "heuristic" },
      { seat: 1, name: "Heuristic bot", bot: "heuristic" },
    ]), ["Hevristični robot 1", "Hevristični robot 2"]);
  });

  test("the lobby's bot levels are named in every language, and seats of a level by its word", () => {
    assert.deepEqual([...BOT_LEVELS], ["easy", "medium", "hard", "expert"]);
    const words = new Set<string>();
    for (const locale of po.LOCALES) {
      useCatalogues(catalogues, locale);
      for (const level of BOT_LEVELS) words.add(seatNames([{ seat: 0, name: "", bot: level }])[0] ?? "");
    }
    assert.equal(words.size, BOT_LEVELS.length * po.LOCALES.length); // no level left as its id
    useCatalogues(catalogues, "sl");
    assert.deepEqual(seatNames([
      { seat: 0, name: "Expert bot", bot: "expert" },
      { seat: 1, name: "Expert bot", bot: "expert" },
      { seat: 2, name: "Easy bot", bot: "easy" },
    ]), ["Mojstrski robot 1", "Mojstrski robot 2", "Lahek robot"]);
  });

  test("a trick's analysis: the side's value after its last card, each card's cost to its own side", () => {
    const card = (trick: number, seat: number, code: string, value: number, best: number, exact = true) =>
      create(CardAnalysisSchema, { trick, seat, card: code, side: [0, 2], value, best, exact });
    const found = create(AnalyseHandResponseSchema, {
      dealNumber: 1, contract: "three", measure: "points",
      cards: [
        card(0, 0, "T21", 40, 40), card(0, 1, "H8", 40, 40), card(0, 2, "HK", 38, 40), card(0, 3, "H7", 38, 36),
        card(1, 1, "S8", 38, 42 + 1 / 3, false), card(1, 2, "S7", 37, 38, false),
      ],
    });
    const first = trickAnalysis(found, 0);
    assert.ok(first !== undefined);
    assert.deepEqual(first.side, [0, 2]);
    assert.equal(first.value, 38);
    assert.equal(first.top, 42 + 1 / 3);
    assert.equal(first.exact, true);
    // seat 2 (declarer side) lost 2 by its king; seat 3 (opponents) kept the side at 38, not 36
    assert.deepEqual([...first.costs], [["T21", 0], ["H8", 0], ["HK", 2], ["H7", 2]]);
    const second = trickAnalysis(found, 1);
    assert.equal(second?.exact, false);
    assert.equal(second?.costs.get("S8"), 0); // an opponent's card that lowered the side costs it nothing
    assert.equal(second?.costs.get("S7"), 1);
    assert.equal(trickAnalysis(found, 2), undefined);
    assert.deepEqual([40, 42 + 1 / 3, 36.5].map(analysisNumber), ["40", "42.3", "36.5"]);
  });

  test("a score line is for the seats it names, the defenders when they made it, else the declarer side", () => {
    const result = create(HandResultSchema, { declarer: 1, team: [1, 3] });
    const line = (init: Parameters<typeof create<typeof ScoreLineSchema>>[1]) => create(ScoreLineSchema, init);
    assert.deepEqual(lineSide(line({ item: "difference" }), result), { side: "declarers" });
    assert.deepEqual(lineSide(line({ params: { team: "opponents" } }), result), { side: "defenders" });
    assert.deepEqual(lineSide(line({ seats: [0, 2] }), result), { side: "defenders" });
    assert.deepEqual(lineSide(line({ seats: [3] }), result), { side: "declarers" });
    assert.deepEqual(lineSide(line({ seats: [0] }), create(HandResultSchema, {})), { seats: [0] });
  });

  test("a hand credits its settled amounts (radelci included), else its totals", () => {
    const settled = create(HandResultSchema, { totals: [70n, -70n], settled: create(SettlementSchema, { amounts: [140n, -140n] }) });
    assert.deepEqual(credited(settled, 3), [140n, -140n, 0n]);
    assert.deepEqual(credited(create(HandResultSchema, { totals: [5n, -5n] }), 2), [5n, -5n]);
  });

  test("the discard count is the cards beyond what the others hold", () => {
    assert.equal(cardsToDiscard(15, [12, 12, 15, 12], 2), 3);
    assert.equal(cardsToDiscard(13, [12, 12, 13, 12], 2), 1);
    assert.equal(cardsToDiscard(12, [12, 12, 12, 12], 0), 0);
  });
});

describe("the lobby's listing", () => {
  const seats = [
    { seat: 0, name: "Ana", free: false, bot: "" },
    { seat: 1, name: "Heuristic bot", free: false, bot: "heuristic" },
    { seat: 2, name: "Heuristic bot", free: false, bot: "heuristic" },
    { seat: 3, name: "", free: true, bot: "" },
  ];
  const listed = { tableId: "0a1b2c3d4e5f", displayName: "", seats, createdMs: 0, seating: true };

  test("an unnamed table is called after its first person, else after its game", () => {
    useCatalogues(catalogues, "en");
    assert.equal(tableTitle(listed, "Slovenian tarok"), "Ana's table");
    assert.equal(tableTitle({ ...listed, seats: seats.slice(1) }, "Slovenian tarok"), "Slovenian tarok table");
    assert.equal(tableTitle({ ...listed, displayName: "Friday" }, "x"), "Friday");
  });

  test("each seat is named, free seats say so", () => {
    useCatalogues(catalogues, "de");
    assert.deepEqual(seatLines(seats).map((s) => s.text), ["Ana", "Heuristik-Bot 1", "Heuristik-Bot 2", "frei"]);
  });

  test("long-open and long-running tables are left out", () => {
    assert.equal(isStale(listed, OPEN_FOR_MS - 1), false);
    assert.equal(isStale(listed, OPEN_FOR_MS + 1), true);
    assert.equal(isStale({ ...listed, seating: false }, OPEN_FOR_MS + 1), false);
    assert.equal(isStale({ ...listed, createdMs: undefined }, 1e15), false);
  });
});

describe("the replay's moments", () => {
  const ev = (body: Event["body"]): Event => create(EventSchema, { body });
  const move = (seat: number, moveId: string): Event => ev({ case: "moveMade", value: { seat, moveId } as never });

  test("a deal, each auction move, each trick (won by the next trick's leader) and the score", () => {
    const events = [
      ev({ case: "playerSeated", value: { seat: 0, name: "Ana" } as never }),
      ev({ case: "playerSeated", value: { seat: 1, name: "Random bot", bot: "random" } as never }),
      ev({ case: "handDealt", value: { dealNumber: 1, dealer: 1 } as never }),
      move(0, "bid:three"), move(1, "pass"),
      move(0, "play:T1"), move(1, "play:T2"),
      move(1, "play:T3"), move(0, "play:T4"),
      ev({ case: "handScored", value: { dealNumber: 1 } as never }),
    ];
    const replay = replayOf(events, 2);
    assert.deepEqual(replay.moments.map((m) => m.kind), ["deal", "move", "move", "trick", "trick", "scored"]);
    assert.equal(replay.hands, 1);
    assert.equal(replay.moments[1]?.auction.length, 1);
    assert.equal(replay.moments[3]?.winner, 1, "the second trick's leader won the first");
    assert.equal(replay.moments[4]?.winner, undefined);
    assert.deepEqual(replay.moments[4]?.plays.map((p) => p.moveId), ["play:T3", "play:T4"]);
    assert.equal(replay.moments[5]?.auction.length, 2);
    assert.equal(replay.seats[1]?.bot, "random");
  });
});
