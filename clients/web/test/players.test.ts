// Players in headless Chromium: a guest signs in, presses *Play now*, gets bots after the wait,
// finishes a rated hand, and finds it in *My games* with its rating (history, ratings,
// leaderboard, replay); cancelling the search; the guest is the same player after signing out
// and in again; the pages in Slovenian keep no English. Screenshots go to test-artifacts/
// (TAROK_WEB_SCREENSHOTS=<dir> for the docs).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium } from "playwright-core";
import type { BrowserContext, Page } from "playwright-core";
import { ROOT, ServerHome } from "../../typescript/test/server.js";
import type { Server } from "../../typescript/test/server.js";
import { axeViolations, englishLeft, LEGAL, moveByKeyboard } from "./pages.js";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const ARTIFACTS = join(ROOT, "clients", "web", "test-artifacts");
const SHOTS = process.env.TAROK_WEB_SCREENSHOTS ? resolve(process.env.TAROK_WEB_SCREENSHOTS) : ARTIFACTS;
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync", "--lang=en-US"];
const FINISHED = '[data-testid="status"][data-status="FINISHED"]';

const missing = !existsSync(CHROMIUM) && process.env.TAROK_REQUIRE_BROWSER !== "1";
const skip = missing ? `no ${CHROMIUM}: apt-get install chromium` : false;

describe("players in Chromium: sign-in, Play now, My games", { skip }, () => {
  const home = new ServerHome();
  const profile = mkdtempSync(join(tmpdir(), "tarok-chromium-players-"));
  let server: Server;
  let context: BrowserContext;

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    mkdirSync(SHOTS, { recursive: true });
    server = await home.start(0, 0, ["--static-dir", join(ROOT, "clients", "web", "dist")]);
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM, headless: true, args: FLAGS, locale: "en-US", viewport: { width: 1100, height: 900 },
    });
  });

  after(async () => {
    await context?.close();
    await server?.stop();
    home.remove();
    rmSync(profile, { recursive: true, force: true });
  });

  async function lobby(locale = ""): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${server.httpUrl}/`);
    await page.evaluate((l) => localStorage.setItem("tarok.locale", l), locale);
    await page.goto(`${server.httpUrl}/`);
    await page.getByTestId("play-now").waitFor({ timeout: 30_000 });
    return page;
  }

  /** Play legal moves by keyboard until the table has finished; the moves made. */
  async function playToTheEnd(page: Page): Promise<number> {
    let moves = 0;
    for (;;) {
      await page.waitForFunction(
        ({ legal, finished }) => document.querySelector(finished) !== null || document.querySelector(legal) !== null,
        { legal: LEGAL, finished: FINISHED },
        { timeout: 60_000, polling: 100 },
      );
      if ((await page.locator(FINISHED).count()) > 0) return moves;
      if (await moveByKeyboard(page)) moves++;
    }
  }

  test("a guest presses Play now, gets bots after the wait, finishes a rated hand and finds it in My games with its rating", async () => {
    const page = await lobby();
    const errors: string[] = [];
    page.on("pageerror", (err) => errors.push(String(err)));
    await page.getByTestId("sign-in-guest").click();
    await page.getByTestId("signed-in-as").waitFor({ timeout: 30_000 });
    assert.equal(await page.getByTestId("signed-in-as").textContent(), "Signed in as Guest");
    const session = await page.evaluate(() => JSON.parse(localStorage.getItem("tarok.session") ?? "{}") as { playerId?: string });
    assert.ok(session.playerId, "the session is kept for reloads");
    assert.match(await page.evaluate(() => localStorage.getItem("tarok.device") ?? ""), /^[0-9a-f]{32}$/, "a device secret");
    assert.deepEqual(await axeViolations(page), [], "axe on the lobby with Play now");

    await page.selectOption('select[name="match_variant"]', "slovenian");
    await page.selectOption('select[name="match_players"]', "4");
    await page.selectOption('select[name="bots_after"]', "5");
    assert.equal(await page.locator('input[name="rated"]').isChecked(), true);
    await page.getByTestId("play-now").click();
    // progress while the queue is searched, then the table with bots in the free seats
    await page.getByText(/^Looking for players/).waitFor({ timeout: 30_000 });
    assert.equal(await page.getByTestId("cancel-match").isVisible(), true);
    await page.getByTestId("table-id").waitFor({ timeout: 60_000 });
    const tableId = (await page.getByTestId("table-id").textContent()) ?? "";
    const names = await page.locator(".seat strong").allTextContents();
    assert.deepEqual(names, ["Guest (you)", "Heuristic bot 1", "Heuristic bot 2", "Heuristic bot 3"]);
    assert.ok((await playToTheEnd(page)) > 0, "the guest made moves");

    // My games: the table (written right after the table closed), with the rating it gave
    await page.goto(`${server.httpUrl}/#/games`);
    const row = page.locator(`[data-testid="history-list"] li[data-table="${tableId}"]`);
    for (let attempt = 0; attempt < 60 && (await row.count()) === 0; attempt++) {
      await page.reload();
      await page.getByTestId("history").locator("h2").waitFor({ timeout: 30_000 });
      await page.waitForFunction(() => document.querySelector('[data-testid="history-list"] li, [data-testid="history"] p.muted') !== null,
        undefined, { timeout: 30_000 });
    }
    await row.waitFor({ timeout: 30_000 });
    const change = (await row.getByTestId("rating-change").textContent()) ?? "";
    const after = /→ (-?\d+\.\d) \(provisional\)$/.exec(change)?.[1];
    assert.ok(after !== undefined, `a provisional rating after the table: ${change}`);
    assert.match(change, /^Rating: 0\.0 \(provisional\) → /, "the first rating before the first rated table");
    assert.match((await row.locator("strong").textContent()) ?? "", /^Slovenian tarok · place [1-4] of 4$/);
    const rating = page.getByTestId("rating-slovenian-4");
    await rating.waitFor({ timeout: 30_000 });
    assert.equal(await rating.textContent(), `${after} (provisional)`, "the profile's rating is the history's");
    const mine = page.locator(`[data-testid="leaderboard-list"] tr[data-player="${session.playerId}"]`);
    await mine.waitFor({ timeout: 30_000 });
    assert.equal(await mine.locator("td").last().textContent(), `${after} (provisional)`, "the leaderboard's rating too");
    assert.deepEqual(await axeViolations(page), [], "axe on My games");
    await page.screenshot({ path: join(SHOTS, "web-my-games.png"), fullPage: true });

    // the replay of the table from the history
    await row.getByTestId(`replay-${tableId}`).click();
    await page.getByTestId("replay-position").waitFor({ timeout: 30_000 });
    assert.match((await page.getByTestId("replay-position").textContent()) ?? "", /^Step 1 of \d+$/);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("cancelling Play now; signing out and in again as the guest keeps the games; Slovenian words", async () => {
    const page = await lobby();
    await page.getByTestId("signed-in-as").waitFor({ timeout: 30_000 });
    const before = await page.evaluate(() => (JSON.parse(localStorage.getItem("tarok.session") ?? "{}") as { playerId?: string }).playerId);
    await page.selectOption('select[name="match_variant"]', "slovenian");
    await page.selectOption('select[name="match_players"]', "3");
    await page.selectOption('select[name="bots_after"]', "0");
    await page.getByTestId("play-now").click();
    await page.getByText(/^Looking for players: \d+ s, 1 waiting$/).waitFor({ timeout: 30_000 });
    await page.getByTestId("cancel-match").click();
    await page.getByText("Stopped looking.").waitFor({ timeout: 30_000 });
    assert.equal(await page.getByTestId("cancel-match").isVisible(), false);
    assert.equal(await page.getByTestId("play-now").isEnabled(), true);

    await page.getByTestId("sign-out").click();
    await page.getByTestId("sign-in-guest").waitFor({ timeout: 30_000 });
    await page.goto(`${server.httpUrl}/#/games`);
    await page.getByText("Sign in (as a guest is enough) to keep your games and ratings.").waitFor({ timeout: 30_000 });
    await page.getByTestId("sign-in-guest").click();
    await page.getByTestId("signed-in-as").waitFor({ timeout: 30_000 });
    const again = await page.evaluate(() => (JSON.parse(localStorage.getItem("tarok.session") ?? "{}") as { playerId?: string }).playerId);
    assert.equal(again, before, "the device's guest is the same player");
    // a kept session the server does not take any more: the page signs the guest in again
    await page.evaluate(() => {
      const kept = JSON.parse(localStorage.getItem("tarok.session") ?? "{}") as Record<string, unknown>;
      localStorage.setItem("tarok.session", JSON.stringify({ ...kept, sessionToken: "stale", refreshToken: "stale" }));
    });
    await page.goto(`${server.httpUrl}/`);
    await page.goto(`${server.httpUrl}/#/games`);
    await page.locator('[data-testid="history-list"] li').first().waitFor({ timeout: 30_000 });
    const fresh = await page.evaluate(() => JSON.parse(localStorage.getItem("tarok.session") ?? "{}") as { playerId?: string; sessionToken?: string });
    assert.equal(fresh.playerId, before);
    assert.notEqual(fresh.sessionToken, "stale");
    await page.close();

    const sl = await lobby("sl");
    assert.deepEqual(await englishLeft(sl, "sl"), [], "the lobby in Slovenian");
    await sl.goto(`${server.httpUrl}/#/games`);
    await sl.locator('[data-testid="history-list"] li').first().waitFor({ timeout: 30_000 });
    await sl.locator('[data-testid="leaderboard-list"] tr').first().waitFor({ timeout: 30_000 });
    // "Guest" is the player's name (chosen when the English page created it), not a word
    assert.deepEqual((await englishLeft(sl, "sl")).filter((text) => !/\bGuest\b/.test(text)), [], "My games in Slovenian");
    await sl.close();
  });
});

/** The local provider of test/idp.py (its issuer URL) and how to stop it. */
async function startProvider(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(join(ROOT, ".venv", "bin", "python"), [join(ROOT, "clients", "web", "test", "idp.py")],
    { stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`the provider did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const found = /issuer (\S+)/.exec(output);
      if (found?.[1] === undefined) return;
      clearTimeout(timer);
      resolveUrl(found[1]);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (chunk: Buffer) => { output += chunk.toString(); });
    child.on("exit", (code) => reject(new Error(`the provider exited with ${String(code)}:\n${output}`)));
  });
  return { url, stop: () => child.stdin.end() };
}

describe("sign in with an identity provider in Chromium (authorization code with PKCE)", { skip }, () => {
  const home = new ServerHome();
  const profile = mkdtempSync(join(tmpdir(), "tarok-chromium-oidc-"));
  const site = mkdtempSync(join(tmpdir(), "tarok-web-oidc-"));
  let provider: { url: string; stop: () => void };
  let server: Server;
  let context: BrowserContext;

  before(async () => {
    provider = await startProvider();
    // the page as an operator would serve it: the built table plus tarok-web.json
    cpSync(join(ROOT, "clients", "web", "dist"), site, { recursive: true });
    writeFileSync(join(site, "tarok-web.json"), JSON.stringify({
      identityProviders: [{ name: "Test ID", issuer: provider.url, clientId: "tarok-web" }],
    }));
    server = await home.start(0, 0,
      ["--static-dir", site, "--oidc-issuer", provider.url, "--oidc-audience", "tarok-web"]);
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM, headless: true, args: FLAGS, locale: "en-US", viewport: { width: 1100, height: 900 },
    });
  });

  after(async () => {
    await context?.close();
    await server?.stop();
    provider?.stop();
    home.remove();
    rmSync(profile, { recursive: true, force: true });
    rmSync(site, { recursive: true, force: true });
  });

  test("a guest signs in with the provider and keeps its player; signing in again from scratch is the same player", async () => {
    const page = await context.newPage();
    await page.goto(`${server.httpUrl}/`);
    await page.getByTestId("sign-in-guest").click();
    await page.getByTestId("signed-in-as").waitFor({ timeout: 30_000 });
    const stored = (): Promise<{ playerId?: string; guest?: boolean; displayName?: string }> =>
      page.evaluate(() => JSON.parse(localStorage.getItem("tarok.session") ?? "{}") as { playerId?: string });
    const guest = await stored();
    assert.equal(guest.guest, true);

    // to the provider and back: the code traded with the PKCE verifier, the account linked
    await page.locator('[data-provider="Test ID"]').click();
    await page.waitForFunction(() => {
      const s = JSON.parse(localStorage.getItem("tarok.session") ?? "{}") as { guest?: boolean };
      return s.guest === false;
    }, undefined, { timeout: 60_000 });
    await page.getByTestId("signed-in-as").waitFor({ timeout: 30_000 });
    const linked = await stored();
    assert.equal(linked.playerId, guest.playerId, "the guest's player, now with the provider's account");
    assert.equal(new URL(page.url()).search, "", "the code and state leave the address bar");
    const stats = await (await fetch(`${provider.url}/stats`)).json() as Record<string, number>;
    assert.deepEqual(stats, { authorized: 1, exchanged: 1, refused: 0 });

    // signed out, then in with the provider alone: the same player again
    await page.getByTestId("sign-out").click();
    await page.locator('[data-provider="Test ID"]').click();
    await page.getByTestId("signed-in-as").waitFor({ timeout: 60_000 });
    assert.equal((await stored()).playerId, guest.playerId);
    assert.equal((await stored()).displayName, "Guest", "the player keeps its name");
    await page.getByTestId("play-now").waitFor({ timeout: 30_000 });

    // a table in play, then another device (nothing kept) signed in with the provider takes
    // the player's seat there from My games
    await page.selectOption('select[name="match_variant"]', "slovenian");
    await page.selectOption('select[name="match_players"]', "4");
    await page.selectOption('select[name="bots_after"]', "5");
    await page.getByTestId("play-now").click();
    await page.getByTestId("table-id").waitFor({ timeout: 60_000 });
    const tableId = (await page.getByTestId("table-id").textContent()) ?? "";
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${server.httpUrl}/#/games`);
    await page.locator('[data-provider="Test ID"]').first().click();
    await page.getByTestId("signed-in-as").first().waitFor({ timeout: 60_000 });
    assert.equal((await stored()).playerId, guest.playerId);
    await page.getByTestId(`take-seat-${tableId}`).click();
    await page.getByTestId("table-id").waitFor({ timeout: 30_000 });
    assert.equal(await page.getByTestId("table-id").textContent(), tableId);
    assert.equal(await page.locator(".seat.me strong").textContent(), "Guest (you)", "the player's seat on this device");

    // an answer that is not to this page's request (another state) is refused, not traded
    await page.evaluate(() => sessionStorage.setItem("tarok.oidc", JSON.stringify({ state: "mine", verifier: "v",
      tokenEndpoint: "http://127.0.0.1:9/token", redirectUri: location.origin + "/", clientId: "tarok-web", token: "id_token", hash: "" })));
    await page.goto(`${server.httpUrl}/?code=stolen&state=theirs`);
    await page.getByText("The sign-in could not be checked. Please try again.").waitFor({ timeout: 30_000 });
    assert.equal(new URL(page.url()).search, "", "the code leaves the address bar");
    await page.close();
  });
});
