// The reference table in headless Chromium: a person plays a whole hand by keyboard against
// three bots; a finished match with radelci shows its end-of-match row, fits a phone and
// replays; the page in Slovenian and German keeps no English; axe-core finds no serious
// violations. Screenshots go to test-artifacts/ (TAROK_WEB_SCREENSHOTS=<dir> for the docs).
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium } from "playwright-core";
import type { BrowserContext, Page } from "playwright-core";
import { ROOT, ServerHome } from "../../typescript/test/server.js";
import type { Server } from "../../typescript/test/server.js";
import type { Card } from "../../typescript/src/index.js";
import { rankText } from "../src/cards.js";
import { LOCALE_DIR, po } from "./catalogue.js";
import { axeViolations, englishLeft, LEGAL, moveByKeyboard } from "./pages.js";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const ARTIFACTS = join(ROOT, "clients", "web", "test-artifacts");
const SHOTS = process.env.TAROK_WEB_SCREENSHOTS ? resolve(process.env.TAROK_WEB_SCREENSHOTS) : ARTIFACTS;
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--lang=en-US",
];
const FINISHED = '[data-testid="status"][data-status="FINISHED"]';

// CI (.ci/run) installs Debian's chromium and sets TAROK_REQUIRE_BROWSER=1; elsewhere the test
// is skipped when there is no browser.
const missing = !existsSync(CHROMIUM) && process.env.TAROK_REQUIRE_BROWSER !== "1";
const skip = missing ? `no ${CHROMIUM}: apt-get install chromium` : false;

interface LogJson {
  log: {
    complete?: boolean;
    events: { handScored?: { totals: string[] }; tableClosed?: { totals?: string[]; adjustments?: { amounts?: string[] } } }[];
  };
}

describe("the web table in Chromium", { skip }, () => {
  const home = new ServerHome();
  const profile = mkdtempSync(join(tmpdir(), "tarok-chromium-"));
  let server: Server;
  let context: BrowserContext;
  /** A finished one-hand table with radelci left at its end (made by the radelci test). */
  let radelciTable = "";

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    mkdirSync(SHOTS, { recursive: true });
    server = await home.start(0, 0, ["--static-dir", join(ROOT, "clients", "web", "dist")]);
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: FLAGS,
      locale: "en-US",
      viewport: { width: 1100, height: 900 },
    });
  });

  after(async () => {
    await context?.close();
    await server?.stop();
    home.remove();
    rmSync(profile, { recursive: true, force: true });
  });

  /** A Connect JSON call to the server's HTTP port (what the page itself speaks). */
  async function call<T>(method: string, body: object): Promise<T> {
    const response = await fetch(`${server.httpUrl}/tarok.v1.TarokService/${method}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    assert.equal(response.status, 200, await response.clone().text());
    return (await response.json()) as T;
  }

  async function tableLog(tableId: string): Promise<LogJson["log"]> {
    const { token } = await call<{ token: string }>("JoinTable", { tableId, spectator: true });
    return (await call<LogJson>("GetTableLog", { token, format: "LOG_FORMAT_PROTO" })).log;
  }

  /** A table of four random bots, played to its end by the server; its id. */
  async function botTable(variant: string, hands = 1): Promise<string> {
    const bots = [0, 1, 2, 3].map((seat) => ({ seat, bot: "random" }));
    const { tableId } = await call<{ tableId: string }>("CreateTable", { variant, players: 4, hands, bots });
    for (let i = 0; i < 600; i++) {
      const log = await tableLog(tableId);
      if (log.complete) return tableId;
      await new Promise((r) => setImmediate(r));
    }
    throw new Error(`bot table ${tableId} did not finish`);
  }

  async function newPage(locale = ""): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${server.httpUrl}/`);
    await page.evaluate((l) => localStorage.setItem("tarok.locale", l), locale);
    await page.goto(`${server.httpUrl}/`);
    await page.getByTestId("create-form").waitFor({ timeout: 30_000 });
    return page;
  }

  /** Watch a table from the lobby's join form. */
  async function watch(page: Page, tableId: string): Promise<void> {
    await page.fill('input[name="table"]', tableId);
    await page.locator('form button[type="button"]').last().click();
    await page.getByTestId("score-sheet").waitFor({ timeout: 30_000 });
  }

  async function createWithBots(page: Page, name: string, bots: number, hands = 1,
    variant = "slovenian", players = 4): Promise<void> {
    await page.fill('input[name="name"]', name);
    await page.selectOption('select[name="variant"]', variant);
    await page.selectOption('select[name="players"]', String(players));
    await page.fill('input[name="hands"]', String(hands));
    await page.selectOption('select[name="bots"]', String(bots));
    await page.selectOption('select[name="bot"]', "medium");
    await page.getByTestId("create").click();
    await page.getByTestId("table-id").waitFor({ timeout: 30_000 });
  }

  /** Play legal moves by keyboard until `done` holds or the match is over; the moves made. */
  async function play(page: Page, done: () => Promise<boolean> = async () => false,
    restart?: () => Promise<void>, photograph = true): Promise<number> {
    let moves = 0;
    let shot = !photograph;
    for (;;) {
      await page.waitForFunction(
        ({ legal, finished }) => document.querySelector(finished) !== null || document.querySelector(legal) !== null,
        { legal: LEGAL, finished: FINISHED },
        { timeout: 60_000, polling: 100 },
      );
      if ((await page.locator(FINISHED).count()) > 0 || (await done())) return moves;
      const discard = await page.getByTestId("to-discard").textContent({ timeout: 100 }).catch(() => null);
      if (discard !== null) assert.match(discard, /[1-6]/, "the number of cards to lay away");
      // A photograph of the hand in play, once there are cards on the table.
      const { playing, cards } = await page.evaluate(() => ({
        playing: document.querySelector('[data-testid="phase"]')?.getAttribute("data-phase") === "tricks",
        cards: document.querySelectorAll(".trick figure").length,
      }));
      if (playing && cards > 0 && !shot) {
        assert.deepEqual(await axeViolations(page), [], "axe on the table in play");
        await page.screenshot({ path: join(SHOTS, "web-table.png"), fullPage: true });
        shot = true;
      }
      if (!(await moveByKeyboard(page))) continue; // the page re-rendered under the keys: look again
      moves++;
      // Restart after the person's first move: the match cannot be over then (the hand still
      // needs the person's cards), and a finished table's page rightly stops reconnecting.
      if (moves === 1 && restart !== undefined) await restart();
    }
  }

  test("a person plays a whole hand by keyboard against three bots", async () => {
    const page = await newPage();
    const errors: string[] = [];
    page.on("pageerror", (err) => errors.push(String(err)));
    assert.deepEqual(await axeViolations(page), [], "axe on the lobby");
    await page.screenshot({ path: join(ARTIFACTS, "lobby.png"), fullPage: true });
    await createWithBots(page, "Ana", 3);
    // Three bots of one kind, told apart.
    const names = await page.locator(".seat strong").allTextContents();
    assert.deepEqual(names, ["Ana (you)", "Medium bot 1", "Medium bot 2", "Medium bot 3"]);

    // Mid-hand the server restarts on the same ports (same store and signing key): the page
    // shows that it is reconnecting, then carries on with the same seat.
    const restart = async (): Promise<void> => {
      const { port, httpUrl } = server;
      await server.stop();
      await page.locator('[data-online="false"]').waitFor({ timeout: 60_000 });
      server = await home.start(port, Number(new URL(httpUrl).port), ["--static-dir", join(ROOT, "clients", "web", "dist")]);
      await page.locator('[data-online="true"]').waitFor({ timeout: 60_000 });
    };
    const moves = await play(page, undefined, restart);
    assert.ok(moves > 0, "the person made moves by keyboard");
    const tableId = (await page.getByTestId("table-id").textContent()) ?? "";
    const shown = await Promise.all([0, 1, 2, 3].map(async (i) => Number(await page.getByTestId(`final-${i}`).textContent())));
    const log = await tableLog(tableId);
    assert.ok(log.complete, "the finished table's log is complete");
    const scored = log.events.flatMap((e) => (e.handScored ? [e.handScored] : []));
    const closed = log.events.at(-1)?.tableClosed;
    assert.ok(scored.length >= 1 && closed !== undefined);
    assert.deepEqual(shown, [0, 1, 2, 3].map((i) => Number(closed.totals?.[i] ?? "0")), "the page's final score is the log's");
    for (const [row, hand] of scored.entries()) {
      const running = await Promise.all(
        [0, 1, 2, 3].map(async (i) => Number(await page.getByTestId(`running-${row}-${i}`).textContent())));
      assert.deepEqual(running, hand.totals.map(Number), `score sheet line ${row + 1}`);
    }
    // The replay of the hand just played, at its third trick.
    await page.getByTestId("replay").click();
    await page.getByTestId("replay-position").waitFor({ timeout: 30_000 });
    for (let i = 0; i < 60 && (await page.locator('[data-testid="replay"] h2').textContent())?.endsWith("trick 3") !== true; i++) {
      await page.keyboard.press("ArrowRight");
    }
    await page.locator('[data-testid="replay-analysis"][data-value]').waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(SHOTS, "web-replay.png"), fullPage: true });
    await page.goBack();
    await page.getByTestId("rematch").waitFor({ timeout: 30_000 });
    // A rematch: the same seat at a new table with the same bots.
    await page.getByTestId("rematch").click();
    await page.waitForFunction((old) => {
      const id = document.querySelector('[data-testid="table-id"]')?.textContent;
      return id !== undefined && id !== old;
    }, tableId, { timeout: 60_000 });
    await page.locator(LEGAL).first().waitFor({ timeout: 60_000 });
    assert.deepEqual(errors, []);
  });

  test("in French, a person plays a five-player French Tarot hand by keyboard against four bots", async () => {
    const page = await newPage("fr");
    const errors: string[] = [];
    page.on("pageerror", (err) => errors.push(String(err)));
    assert.equal(await page.evaluate(() => document.documentElement.lang), "fr");
    assert.deepEqual(await englishLeft(page, "fr"), [], "the lobby");
    await createWithBots(page, "Aurélie", 4, 1, "french_tarot", 5);
    assert.equal(await page.locator(".seat strong").count(), 5);
    const moves = await play(page, undefined, undefined, false);
    assert.ok(moves > 0, "the person made moves by keyboard");
    const tableId = (await page.getByTestId("table-id").textContent()) ?? "";
    const log = await tableLog(tableId);
    assert.ok(log.complete, "the finished table's log is complete");
    const closed = log.events.at(-1)?.tableClosed;
    assert.ok(closed !== undefined);
    const shown = await Promise.all([0, 1, 2, 3, 4].map(async (i) => Number(await page.getByTestId(`final-${i}`).textContent())));
    assert.deepEqual(shown, [0, 1, 2, 3, 4].map((i) => Number(closed.totals?.[i] ?? "0")), "the page's final score is the log's");
    assert.equal(shown.reduce((a, b) => a + b, 0), 0, "French Tarot scores add up to zero");
    assert.deepEqual(await englishLeft(page, "fr"), [], "the finished table");
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("a finished match with radelci: the end-of-match row, a phone's width, the replay", async () => {
    let closedTotals: number[] = [];
    for (let attempt = 0; attempt < 10 && radelciTable === ""; attempt++) {
      const tableId = await botTable("slovenian");
      const closed = (await tableLog(tableId)).events.at(-1)?.tableClosed;
      if ((closed?.adjustments?.amounts ?? []).some((a) => Number(a) !== 0)) {
        radelciTable = tableId;
        closedTotals = [0, 1, 2, 3].map((i) => Number(closed?.totals?.[i] ?? "0"));
      }
    }
    assert.ok(radelciTable, "a one-hand match of random bots left radelci");
    const page = await newPage();
    await watch(page, radelciTable);
    await page.getByTestId("end-of-match").waitFor({ timeout: 30_000 });
    const number = async (id: string): Promise<number> => Number(await page.getByTestId(id).textContent());
    for (const seat of [0, 1, 2, 3]) {
      const hand = await number(`delta-0-${seat}`);
      const end = await number(`settlement-${seat}`);
      const final = await number(`final-${seat}`);
      assert.equal(final, closedTotals[seat], `seat ${seat + 1}'s total is the log's`);
      assert.equal(hand + end, final, `seat ${seat + 1}: the rows add up to the total`);
      assert.equal(await number(`running-0-${seat}`) + end, final);
    }
    const sides = await page.locator('[data-testid="score-lines"] td.side').allTextContents();
    assert.ok(sides.length > 0 && sides.every((s) => s !== ""), `each score line says whom it is for: ${sides}`);
    assert.deepEqual(await axeViolations(page), [], "axe on the finished table");
    await page.getByTestId("score-sheet").screenshot({ path: join(SHOTS, "web-score.png") });

    // A phone: the sheet shows every player's column without scrolling sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    const fit = await page.evaluate(() => {
      const sheet = document.querySelector<HTMLElement>('[data-testid="score-sheet"]');
      const heads = [...document.querySelectorAll('[data-testid="score-sheet"] > table > thead th')].map((th) => th.getBoundingClientRect());
      return {
        page: document.documentElement.scrollWidth - window.innerWidth,
        sheet: sheet === null ? 1 : sheet.scrollWidth - sheet.clientWidth,
        outside: heads.filter((r) => r.left < 0 || r.right > window.innerWidth + 0.5).length,
        columns: heads.length,
      };
    });
    assert.deepEqual(fit, { page: 0, sheet: 0, outside: 0, columns: 6 }, "the sheet fits a 390px phone");
    await page.getByTestId("score-sheet").screenshot({ path: join(SHOTS, "web-phone.png") });
    await page.setViewportSize({ width: 1100, height: 900 });

    // The replay: forwards and backwards by keyboard, the deal, the auction and the tricks.
    await page.getByTestId("replay").click();
    await page.getByTestId("replay-position").waitFor({ timeout: 30_000 });
    const position = async (): Promise<string> => (await page.getByTestId("replay-position").textContent()) ?? "";
    const total = Number(/(\d+)$/.exec(await position())?.[1]);
    assert.ok(total > 10, `${total} steps`);
    assert.equal(await page.getByTestId("replay").getAttribute("data-kind"), "deal");
    await page.keyboard.press("ArrowRight");
    assert.equal(await position(), `Step 2 of ${total}`);
    assert.equal(await page.getByTestId("replay").getAttribute("data-kind"), "move");
    await page.keyboard.press("ArrowLeft");
    assert.equal(await position(), `Step 1 of ${total}`);
    // the buttons are reachable by Tab and work with Enter
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press("Tab");
      if (await page.evaluate(() => document.activeElement?.getAttribute("data-step") === "next")) break;
    }
    await page.keyboard.press("Enter");
    assert.equal(await position(), `Step 2 of ${total}`);
    while ((await page.getByTestId("replay").getAttribute("data-kind")) !== "trick") await page.keyboard.press("ArrowRight");
    assert.equal(await page.locator('[data-testid="replay-trick"] figure').count(), 4, "a trick of four cards");
    // the hand's analysis (AnalyseHand) at this trick: the side's perfect-play value, each card's cost
    await page.locator('[data-testid="replay-analysis"][data-value]').waitFor({ timeout: 60_000 });
    assert.match((await page.getByTestId("replay-analysis").textContent()) ?? "", /^Perfect play from here: /);
    assert.equal(await page.locator('[data-testid="replay-trick"] figure[data-cost]').count(), 4, "each card's cost");
    await page.keyboard.press("ArrowRight");
    assert.deepEqual(await axeViolations(page), [], "axe on the replay");
    await page.screenshot({ path: join(ARTIFACTS, "replay.png"), fullPage: true });
    await page.keyboard.press("End");
    assert.equal(await page.getByTestId("replay").getAttribute("data-kind"), "scored");
    await page.close();
  });

  test("every rule option and choice of every rule set has a name in all six languages", async () => {
    interface Options { variants: { id: string; options: { name: string; allowed: string[] }[] }[] }
    const { variants } = await call<Options>("ListVariants", {});
    const catalogues = po.webCatalogues(LOCALE_DIR);
    const missing: string[] = [];
    for (const option of variants.flatMap((v) => v.options)) {
      const keys = [`option_${option.name}`, ...option.allowed
        .filter((a) => !a.includes("..") && !/^(true|false|[\d/]+)$/.test(a)).map((a) => `choice_${a}`)];
      for (const locale of po.LOCALES) for (const key of keys) if (!catalogues[locale]?.[key]) missing.push(`${locale}: ${key}`);
    }
    assert.deepEqual([...new Set(missing)], []);
  });

  for (const locale of ["sl", "de", "fr"]) {
    test(`in ${locale} no English is left: lobby, table, finished table, replay`, async () => {
      const page = await newPage(locale);
      assert.equal(await page.evaluate(() => document.documentElement.lang), locale);
      assert.deepEqual(await englishLeft(page, locale), [], "the lobby");
      // the rules options of every rule set, opened
      await page.locator("details summary").click();
      for (const variant of await page.locator('select[name="variant"] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))) {
        await page.selectOption('select[name="variant"]', variant);
        const shown = (await page.locator(".options .field > span").allTextContents()).filter((s) => /^[a-z0-9]+( [a-z0-9]+)+$/.test(s));
        assert.deepEqual(shown, [], `${variant}: options named by their ids`);
        assert.deepEqual(await englishLeft(page, locale), [], `the lobby's ${variant} options`);
      }
      await page.locator("details summary").click();
      const name = { sl: "Mojca", de: "Jörg" }[locale] ?? "Aurélie";
      await createWithBots(page, name, 3);
      await play(page, async () => (await page.getByTestId("facts").count()) > 0 && (await page.locator(".trick figure").count()) > 0);
      assert.deepEqual(await englishLeft(page, locale), [], "the table in play");
      if (locale === "sl") await page.screenshot({ path: join(SHOTS, "web-sl.png"), fullPage: true });
      if (radelciTable) {
        await page.goto(`${server.httpUrl}/`);
        await page.getByTestId("create-form").waitFor({ timeout: 30_000 });
        await watch(page, radelciTable);
        await page.getByTestId("end-of-match").waitFor({ timeout: 30_000 });
        assert.deepEqual(await englishLeft(page, locale), [], "the finished table");
        await page.getByTestId("replay").click();
        await page.getByTestId("replay-position").waitFor({ timeout: 30_000 });
        for (const key of ["ArrowRight", "End", "ArrowLeft", "ArrowLeft"]) {
          await page.keyboard.press(key);
          assert.deepEqual(await englishLeft(page, locale), [], `the replay after ${key}`);
        }
      }
      await page.close();
    });
  }

  test("the declarer is told how many cards are still to lay away", async () => {
    // Where a deal puts each position of the card order: a bot table dealt the deck in order.
    interface Deck { variants: { id: string; rules: { deck: Card[] }[] }[] }
    const deck = (await call<Deck>("ListVariants", {})).variants.find((v) => v.id === "slovenian")?.rules[0]?.deck ?? [];
    const identity = deck.map((c) => c.code);
    const bots = (kind: string, seats: number[]) => seats.map((seat) => ({ seat, bot: kind }));
    const probe = await call<{ tableId: string }>("CreateTable", {
      variant: "slovenian", players: 4, hands: 1, bots: bots("random", [0, 1, 2, 3]), presetDeals: [{ cards: identity }] });
    let dealt: { cards: { code: string }[] }[] = [];
    for (let i = 0; i < 600 && dealt.length === 0; i++) {
      const log = await tableLog(probe.tableId);
      if (log.complete) dealt = (log.events as { handDealt?: { hands: typeof dealt } }[]).find((e) => e.handDealt)?.handDealt?.hands ?? [];
      else await new Promise((r) => setImmediate(r));
    }
    const at = (seat: number): number[] => (dealt[seat]?.cards ?? []).map((c) => identity.indexOf(c.code));
    // Seat 1 (the person) gets the twelve highest taroks; each bot one low tarok and the rest.
    const order = [...identity];
    const strong = identity.filter((c) => /^T\d+$/.test(c)).slice(-12);
    const rest = identity.filter((c) => !strong.includes(c));
    at(0).forEach((position, i) => { order[position] = strong[i] ?? ""; });
    const others = [...at(1), ...at(2), ...at(3)].sort((a, b) => a - b);
    const talon = identity.map((_, i) => i).filter((i) => !at(0).includes(i) && !others.includes(i));
    [at(1)[0], at(2)[0], at(3)[0], ...others.filter((i) => ![at(1)[0], at(2)[0], at(3)[0]].includes(i)), ...talon]
      .forEach((position, i) => { if (position !== undefined) order[position] = rest[i] ?? ""; });
    assert.deepEqual([...order].sort(), [...identity].sort(), "a whole deck");
    const { tableId } = await call<{ tableId: string }>("CreateTable", {
      variant: "slovenian", players: 4, hands: 1, bots: bots("heuristic", [1, 2, 3]), presetDeals: [{ cards: order }] });

    const page = await newPage();
    await page.fill('input[name="name"]', "Dora");
    await page.fill('input[name="table"]', tableId);
    await page.fill('input[name="seat"]', "1");
    await page.locator('form button[type="submit"]').last().click();
    await page.getByTestId("table-id").waitFor({ timeout: 30_000 });
    // Bid the first game offered, take the first talon group, then lay away by keyboard.
    const seen: number[] = [];
    for (let moves = 0; moves < 40 && (seen.length === 0 || seen.at(-1) !== 1); moves++) {
      await page.waitForFunction((legal) => document.querySelector(legal) !== null, LEGAL, { timeout: 60_000, polling: 100 });
      const phase = await page.getByTestId("phase").getAttribute("data-phase");
      if (phase === "tricks" || phase === "announce") break;
      const count = await page.getByTestId("to-discard").textContent({ timeout: 200 }).catch(() => null);
      if (count !== null) seen.push(Number(/(\d+)/.exec(count)?.[1]));
      if (count !== null && seen.length === 1) await page.screenshot({ path: join(ARTIFACTS, "discard.png"), fullPage: true });
      const wanted = phase === "bidding" ? 'button[data-move^="bid:"]' : "button.legal";
      await moveByKeyboard(page, wanted);
    }
    // as many as the talon gave (three for "three", one for "one"), one fewer after each
    const first = seen[0] ?? 0;
    assert.ok(first >= 1 && first <= 3, `cards to lay away: ${seen}`);
    assert.deepEqual(seen, Array.from({ length: first }, (_, i) => first - i), "counted down to the last card");
    await page.close();
  });

  test("a person leaves a table before play and takes the seat back; the lobby shows who sits where", async () => {
    const page = await newPage();
    await page.fill('input[name="name"]', "Bo");
    await page.selectOption('select[name="variant"]', "slovenian");
    await page.selectOption('select[name="players"]', "4");
    await page.selectOption('select[name="bots"]', "2");
    await page.getByTestId("create").click();
    const tableId = (await page.getByTestId("table-id").textContent()) ?? "";
    await page.getByText("free seats: 1").waitFor({ timeout: 30_000 });
    await page.getByTestId("leave").click();
    await page.getByTestId("create-form").waitFor({ timeout: 30_000 });
    const row = page.locator(`[data-testid="open-tables"] [data-table="${tableId}"]`);
    await row.waitFor();
    assert.equal(await row.locator("strong").textContent(), "Slovenian tarok table", "a title, not the table id");
    assert.deepEqual(await row.locator(".lobby-seats li").allTextContents(), ["free", "free", "Medium bot 1", "Medium bot 2"]);
    assert.deepEqual(await axeViolations(page), [], "axe on the lobby with tables");
    await page.goto(`${server.httpUrl}/#/table/${tableId}`);
    await page.getByText("You left this seat.").waitFor({ timeout: 30_000 });
    await page.getByTestId("take-back").click();
    await page.getByText("free seats: 1").waitFor({ timeout: 30_000 });
    assert.equal(await page.getByTestId("take-back").count(), 0);
    assert.equal((await page.locator(".seat.me strong").textContent())?.startsWith("Bo"), true);
    await page.goto(`${server.httpUrl}/`);
    await row.waitFor();
    assert.equal(await row.locator("strong").textContent(), "Bo's table");
    await page.close();
  });

  test("every card of every pack gets a short corner, and long names are never cut", async () => {
    interface Deck { variants: { id: string; rules: { deck: Card[] }[] }[] }
    const { variants } = await call<Deck>("ListVariants", {});
    assert.ok(variants.length >= 5);
    for (const variant of variants) {
      for (const card of variant.rules.flatMap((r) => r.deck)) {
        const corner = rankText({ ...card, pack: card.pack ?? 0 });
        assert.ok(corner.length > 0 && !corner.includes("("), `${variant.id} ${card.code}: ${corner}`);
        if (card.suit !== "T" && card.suit !== "F") assert.ok(corner.length <= 2, `${card.code}: ${corner}`);
      }
    }
    const slovenian = variants.find((v) => v.id === "slovenian")?.rules[0]?.deck ?? [];
    const trumps = slovenian.filter((c) => c.suit === "T").map((c) => rankText(c));
    assert.deepEqual(trumps.slice(0, 4), ["I", "II", "III", "IIII"]);
    assert.equal(trumps[13], "XIV");
    assert.equal(trumps[20], "XXI");
    // Bolognese trumps have names ("Bagatto", "Moro 1"): the replay's deal shows all of them.
    const tableId = await botTable("tarocco_bolognese");
    for (const locale of ["en", "it", "de"]) {
      const page = await newPage(locale);
      await page.goto(`${server.httpUrl}/#/replay/${tableId}`);
      await page.getByTestId("replay-position").waitFor({ timeout: 30_000 });
      const cut = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>(".card .corner")]
        .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().bottom > (el.parentElement?.getBoundingClientRect().bottom ?? 0))
        .map((el) => el.textContent));
      assert.ok((await page.locator(".card").count()) >= 40, "the deal's cards are shown");
      assert.deepEqual(cut, [], `${locale}: card names shown whole`);
      await page.close();
    }
  });
});
