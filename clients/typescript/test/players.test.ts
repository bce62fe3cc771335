// Signed-in players through the SDK: the bearer token on unary calls and streams (gRPC and the
// Connect port), guest sessions that refresh themselves, matchmaking with bots after a wait,
// and the finished rated table in the history, the profile and the leaderboard.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { Code, errorInfo, storedSession } from "../src/index.js";
import type { MatchWaiting, Session } from "../src/index.js";
import { connect } from "../src/node.js";
import type { NodeTarokClient, Protocol } from "../src/node.js";
import { playRandomly } from "./bots.js";
import { ServerHome } from "./server.js";
import type { Server } from "./server.js";

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("the call succeeded");
}

const secret = (): string => randomBytes(16).toString("hex");

describe("players: bearer tokens, sessions, matchmaking, history", () => {
  const home = new ServerHome();
  let server: Server;
  const clients: NodeTarokClient[] = [];

  const client = (protocol: Protocol = "grpc", options: Parameters<typeof connect>[1] = {}): NodeTarokClient => {
    const made = connect(protocol === "grpc" ? server.grpcUrl : server.httpUrl, { protocol, ...options });
    clients.push(made);
    return made;
  };

  before(async () => {
    server = await home.start();
  });

  after(async () => {
    for (const c of clients) c.close();
    await server.stop();
    home.remove();
  });

  test("a bad bearer token fails unary calls and streams, on both ports, never anonymously", async () => {
    const anonymous = client();
    const tableId = await anonymous.createTable({ variant: "slovenian", players: 4 });
    const watcher = await anonymous.spectate(tableId);
    for (const protocol of ["grpc", "connect", "grpc-web"] as const) {
      const bad = client(protocol, { bearer: "nonsense", retryForMs: 0 });
      const unary = errorInfo(await rejection(bad.ping()));
      assert.equal(unary.code, Code.Unauthenticated, protocol);
      assert.equal(unary.reason, "BAD_TOKEN", protocol);
      const stream = (async () => {
        for await (const _ of bad.raw.watchTable({ token: watcher.token, withViews: true })) return;
      })();
      const streamed = errorInfo(await rejection(stream));
      assert.equal(streamed.reason, "BAD_TOKEN", `${protocol}: a stream carries the bearer too`);
    }
  });

  test("a guest signs in, is the same player on a second device, and the session refreshes itself", async () => {
    const device = secret();
    const phone = client();
    const session = await phone.signInGuest(device, "Ana");
    assert.equal(session.created, true);
    assert.equal(session.player?.displayName, "Ana");
    assert.equal(session.player?.guest, true);
    const me = await phone.me();
    assert.equal(me.playerId, session.player?.playerId);

    // another device (the Connect port), the same secret: the same player
    const sessions: Session[] = [];
    // refreshing whenever less than 20 minutes are left: at once, as the session lives 15
    const laptop = client("connect", { refreshBeforeMs: 20 * 60_000, onSession: (s) => sessions.push(s) });
    const again = await laptop.signInGuest(device);
    assert.equal(again.created, false);
    assert.equal(again.player?.playerId, me.playerId);
    assert.equal(sessions.length, 1);
    // three calls at once: one refresh, used by all three
    const players = await Promise.all([laptop.me(), laptop.me(), laptop.me()]);
    assert.deepEqual(players.map((p) => p.playerId), [me.playerId, me.playerId, me.playerId]);
    assert.equal(sessions.length, 2, "one refresh for three calls");
    assert.equal(sessions[1]?.player?.playerId, me.playerId);

    // signed out: anonymous again, so GetMe needs a sign-in
    laptop.signOut();
    assert.equal(errorInfo(await rejection(laptop.me())).reason, "SIGN_IN_REQUIRED");
    // a refresh token kept across a reload gives the session back
    const back = await laptop.refreshSession(again.refreshToken);
    assert.equal(back.player?.playerId, me.playerId);
    assert.equal((await laptop.me()).playerId, me.playerId);
    // signing out while a refresh is on its way: the refreshed session is not taken up
    const racing: Session[] = [];
    const tablet = client("connect", { refreshBeforeMs: 20 * 60_000, onSession: (s) => racing.push(s) });
    await tablet.signInGuest(device);
    const call = tablet.me();
    tablet.signOut();
    assert.equal(errorInfo(await rejection(call)).reason, "SIGN_IN_REQUIRED");
    assert.equal(racing.length, 1);
    assert.equal(tablet.signedIn, false);
    // a session kept as text (a page reload) goes on in another client
    const reloaded = client("grpc-web");
    reloaded.resume(storedSession(back));
    assert.equal(reloaded.signedIn, true);
    assert.equal((await reloaded.me()).playerId, me.playerId);
  });

  test("play now: a lone guest gets bots after the wait, plays a rated hand, and finds it in the history with its rating", async () => {
    const ana = client("connect");
    const session = await ana.signInGuest(secret(), "Ana");
    const playerId = session.player?.playerId ?? "";
    const waiting: MatchWaiting[] = [];
    const { seat, found } = await ana.playNow(
      { variant: "slovenian", players: 4, rated: true, botsAfterMs: 300, name: "Ana" },
      (w) => waiting.push(w),
    );
    assert.equal(found.rated, true);
    assert.equal(seat.seat, 0, "the only person takes the first seat");
    assert.ok(waiting.length >= 1 && waiting[0]?.waiting === 1, "progress while waiting");
    assert.deepEqual((await ana.myTables()).map((t) => t.tableId), [seat.tableId]);
    const view = await seat.view();
    assert.deepEqual(view.seats.map((s) => s.bot !== ""), [false, true, true, true], "bots in the free seats");
    assert.ok((await playRandomly(seat)) > 0);

    // the history shows the table as soon as it is written (after the closing append)
    let played = (await ana.historyPage(10)).tables;
    for (let i = 0; i < 300 && played.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      played = (await ana.historyPage(10)).tables;
    }
    const [table] = played;
    assert.equal(table?.tableId, seat.tableId);
    assert.equal(table?.rated, true);
    assert.equal(table?.seat, 0);
    assert.equal(table?.seats.length, 4);
    assert.ok(table?.ratingAfter !== undefined && table.ratingAfter.games === 1 && table.ratingAfter.provisional);
    const history = [];
    for await (const t of ana.history(1)) history.push(t.tableId);
    assert.deepEqual(history, [seat.tableId]);

    const profile = await ana.profile();
    assert.equal(profile.tables, 1);
    const record = profile.variants.find((v) => v.variant === "slovenian" && v.players === 4);
    assert.equal(record?.rating?.ordinal, table?.ratingAfter?.ordinal);

    const board = await ana.leaderboard("slovenian", 4, 200);
    const entry = board.entries.find((e) => e.playerId === playerId);
    assert.equal(entry?.rating?.ordinal, table?.ratingAfter?.ordinal);

    // its whole log, for the replay, through the history
    const log = await (await ana.openPlayedTable(seat.tableId)).log();
    assert.equal(log.complete, true);
    const stranger = client("connect");
    await stranger.signInGuest(secret(), "Bo");
    assert.equal(errorInfo(await rejection(stranger.openPlayedTable(seat.tableId))).reason, "NOT_YOUR_TABLE");
  });

  test("cancelling play now leaves the queue", async () => {
    const bo = client();
    await bo.signInGuest(secret(), "Bo");
    const stop = new AbortController();
    const seen: MatchWaiting[] = [];
    const looking = (async () => {
      for await (const item of bo.findMatch({ variant: "slovenian", players: 3, name: "Bo", signal: stop.signal })) {
        if (item.item.case === "waiting") {
          seen.push(item.item.value);
          stop.abort();
        }
      }
    })();
    assert.equal(errorInfo(await rejection(looking)).code, Code.Canceled);
    assert.equal(seen.length, 1);
    // a second player in the same queue waits alone: the cancelled ticket is gone
    const cy = client();
    await cy.signInGuest(secret(), "Cy");
    const next = new AbortController();
    for await (const item of cy.findMatch({ variant: "slovenian", players: 3, maxWaitMs: 60_000, signal: next.signal })) {
      if (item.item.case !== "waiting") continue;
      if (item.item.value.waiting === 1) break;
    }
    next.abort();
  });
});
