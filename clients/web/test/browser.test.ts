// The reference table in headless Chromium: create a table with three bots, play a whole hand
// by clicking legal moves, and check the score on the page against the table's log.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium } from "playwright-core";
import type { BrowserContext, Page } from "playwright-core";
import { ROOT, ServerHome } from "../../typescript/test/server.js";
import type { Server } from "../../typescript/test/server.js";
import type { Card } from "../../typescript/src/index.js";
import { rankText } from "../src/cards.js";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const ARTIFACTS = join(ROOT, "clients", "web", "test-artifacts");
const LEGAL = "main button.legal:not([disabled])";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

// CI (.ci/run) installs Debian's chromium and sets TAROK_REQUIRE_BROWSER=1; elsewhere the test
// is skipped when there is no browser.
const missing = !existsSync(CHROMIUM) && process.env.TAROK_REQUIRE_BROWSER !== "1";
const skip = missing ? `no ${CHROMIUM}: apt-get install chromium` : false;

describe("the web table in Chromium", { skip }, () => {
  const home = new ServerHome();
  const profile = mkdtempSync(join(tmpdir(), "tarok-chromium-"));
  let server: Server;
  let context: BrowserContext;

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    server = await home.start(0, 0, ["--static-dir", join(ROOT, "clients", "web", "dist")]);
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: FLAGS,
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

  interface LogJson {
    log: { complete?: boolean; events: { handScored?: { totals: string[] }; tableClosed?: { totals?: string[] } }[] };
  }

  /** Click random legal moves until the match is over; returns the number of clicks. */
  async function playToTheEnd(page: Page, restart?: () => Promise<void>): Promise<number> {
    let clicks = 0;
    let shot: "" | "play" | "trick" = "";
    for (;;) {
      await page.waitForFunction(
        (legal) =>
          document.querySelector('[data-testid="status"]')?.textContent === "match over" ||
          document.querySelector(legal) !== null,
        LEGAL,
        { timeout: 60_000, polling: 100 },
      );
      if ((await page.getByTestId("status").textContent()) === "match over") return clicks;
      // A photograph of the hand in play: the first turn in the play of the cards, replaced
      // by one with cards on the table when there is one.
      const { playing, cards } = await page.evaluate(() => ({
        playing: document.querySelector('[data-testid="phase"]')?.textContent === "Play",
        cards: document.querySelectorAll(".trick figure").length,
      }));
      if (playing && shot !== "trick" && (shot === "" || cards > 0)) {
        await page.screenshot({ path: join(ARTIFACTS, "hand.png"), fullPage: true });
        shot = cards > 0 ? "trick" : "play";
      }
      const moves = page.locator(LEGAL);
      const count = await moves.count();
      if (count === 0) continue;
      try {
        await moves.nth(Math.floor(Math.random() * count)).click({ timeout: 5_000 });
        clicks++;
      } catch {
        continue; // the page re-rendered under the click (a new view arrived): look again
      }
      // Restart after the person's first move: the match cannot be over then (the hand still
      // needs the person's cards), whereas after a few moves a bot's contract may already
      // have ended it, and a finished table's page rightly stops reconnecting.
      if (clicks === 1 && restart !== undefined) await restart();
    }
  }

  test("a person plays a whole hand against three bots in Chromium", async () => {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (err) => errors.push(String(err)));
    await page.goto(`${server.httpUrl}/`);
    await page.getByTestId("create-form").waitFor({ timeout: 30_000 });
    await page.fill('input[name="name"]', "Ana");
    await page.selectOption('select[name="variant"]', "slovenian");
    await page.selectOption('select[name="players"]', "4");
    await page.fill('input[name="hands"]', "1");
    await page.selectOption('select[name="bots"]', "3");
    await page.selectOption('select[name="bot"]', "heuristic");
    await page.screenshot({ path: join(ARTIFACTS, "lobby.png"), fullPage: true });
    await page.getByTestId("create").click();
    await page.getByTestId("table-id").waitFor({ timeout: 30_000 });

    // Mid-hand the server restarts on the same ports (same store and signing key): the page
    // shows that it is reconnecting, then carries on with the same seat.
    const restart = async (): Promise<void> => {
      const { port, httpUrl } = server;
      await server.stop();
      await page.getByText("reconnecting…").waitFor({ timeout: 60_000 });
      const httpPort = Number(new URL(httpUrl).port);
      server = await home.start(port, httpPort, ["--static-dir", join(ROOT, "clients", "web", "dist")]);
      await page.getByText("connected", { exact: true }).waitFor({ timeout: 60_000 });
    };
    const clicks = await playToTheEnd(page, restart);
    assert.ok(clicks > 0, "the person made moves");
    // (Every hand reaches the play of the cards except a thrown-in deal, which is redealt.)
    assert.ok(existsSync(join(ARTIFACTS, "hand.png")), "a hand in play was photographed");
    const tableId = (await page.getByTestId("table-id").textContent()) ?? "";
    const shown = await Promise.all(
      [0, 1, 2, 3].map(async (i) => Number(await page.getByTestId(`final-${i}`).textContent())),
    );
    await page.getByTestId("score-sheet").scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, "score.png"), fullPage: true });

    const { token } = await call<{ token: string }>("JoinTable", { tableId, spectator: true });
    const { log } = await call<LogJson>("GetTableLog", { token, format: "LOG_FORMAT_PROTO" });
    assert.ok(log.complete, "the finished table's log is complete");
    const scored = log.events.flatMap((e) => (e.handScored ? [e.handScored] : []));
    const closed = log.events.at(-1)?.tableClosed;
    assert.ok(scored.length >= 1 && closed !== undefined);
    const logged = [0, 1, 2, 3].map((i) => Number(closed.totals?.[i] ?? "0"));
    assert.deepEqual(shown, logged, "the page's final score is the log's");
    for (const [row, hand] of scored.entries()) {
      const running = await Promise.all(
        [0, 1, 2, 3].map(async (i) => Number(await page.getByTestId(`running-${row}-${i}`).textContent())),
      );
      assert.deepEqual(running, hand.totals.map(Number), `score sheet line ${row + 1}`);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(ARTIFACTS, "phone.png"), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page fits a phone's width (overflow ${overflow}px)`);
    // A rematch: the same seat at a new table with the same bots.
    await page.getByTestId("rematch").click();
    await page.waitForFunction(
      (old) => {
        const id = document.querySelector('[data-testid="table-id"]')?.textContent;
        return id !== undefined && id !== old;
      },
      tableId,
      { timeout: 60_000 },
    );
    await page.locator(LEGAL).first().waitFor({ timeout: 60_000 });
    assert.deepEqual(errors, []);
  });

  test("a person leaves a table before play and takes the seat back", async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.goto(`${server.httpUrl}/`);
    await page.getByTestId("create-form").waitFor({ timeout: 30_000 });
    // The language menu: every call then asks the server for its words in that language.
    const asked = page.waitForRequest(
      (r) => r.url().includes("/tarok.v1.TarokService/") && r.headers()["accept-language"] === "sl",
    );
    await page.selectOption('[data-testid="language"]', "sl");
    await asked;
    await page.getByTestId("create-form").waitFor({ timeout: 30_000 });
    await page.fill('input[name="name"]', "Bo");
    await page.selectOption('select[name="variant"]', "slovenian");
    await page.selectOption('select[name="players"]', "4");
    await page.selectOption('select[name="bots"]', "2");
    await page.getByTestId("create").click();
    const tableId = (await page.getByTestId("table-id").textContent()) ?? "";
    await page.getByText("Waiting for 1 more player.").waitFor({ timeout: 30_000 });
    await page.getByTestId("leave").click();
    await page.getByTestId("create-form").waitFor({ timeout: 30_000 });
    await page.locator(`[data-testid="open-tables"] [data-table="${tableId}"]`).waitFor();
    await page.goto(`${server.httpUrl}/#/table/${tableId}`);
    await page.getByText("You left this seat.").waitFor({ timeout: 30_000 });
    await page.getByTestId("take-back").click();
    await page.getByText("Waiting for 1 more player.").waitFor({ timeout: 30_000 });
    assert.equal(await page.getByTestId("take-back").count(), 0);
    assert.equal((await page.locator('.seat.me strong').textContent())?.startsWith("Bo"), true);
  });

  test("every card of every pack gets a short corner: numerals for taroks, ranks for suits", async () => {
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
  });
});
