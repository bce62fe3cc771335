// The lobby, server-side bots and clocks through the SDK.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { errorInfo, TableStatus } from "../src/index.js";
import { connect } from "../src/node.js";
import type { NodeTarokClient } from "../src/node.js";
import { playRandomly } from "./bots.js";
import { ServerHome } from "./server.js";
import type { Server } from "./server.js";

describe("lobby, bots and clocks", () => {
  const home = new ServerHome();
  let server: Server;
  let client: NodeTarokClient;

  before(async () => {
    server = await home.start();
    client = connect(server.grpcUrl);
  });

  after(async () => {
    client.close();
    await server.stop();
    home.remove();
  });

  test("one seat against three server bots; the table is listed, private ones are not", async () => {
    const name = `ts lobby ${Math.random().toString(36).slice(2)}`;
    const bots = [1, 2, 3].map((seat) => ({ seat, bot: seat === 1 ? "heuristic" : "random" }));
    const tableId = await client.createTable({ variant: "slovenian", players: 4, displayName: name, bots });
    const hidden = await client.createTable({ variant: "slovenian", players: 4, private: true });
    const open = [];
    for await (const t of client.tables({ filter: "state = open", pageSize: 1 })) open.push(t);
    const listed = open.find((t) => t.tableId === tableId);
    assert.equal(listed?.displayName, name);
    assert.deepEqual(listed?.seats.map((s) => s.free), [true, false, false, false]);
    assert.ok(!open.some((t) => t.tableId === hidden), "a private table is not listed");

    const seat = await client.join(tableId, { name: "me" });
    assert.equal(seat.seat, 0);
    assert.ok((await playRandomly(seat)) > 0);
    assert.equal((await seat.view()).status, TableStatus.FINISHED);
    const finished = [];
    for await (const t of client.tables({ filter: 'variant = "slovenian" AND state = finished' })) {
      finished.push(t.tableId);
    }
    assert.ok(finished.includes(tableId));
  });

  test("a table with a clock finishes by itself when the person never moves", async () => {
    const bots = [1, 2, 3].map((seat) => ({ seat, bot: "random" }));
    const tableId = await client.createTable({ variant: "slovenian", players: 4, bots, timePerMoveMs: 300 });
    const seat = await client.join(tableId, { name: "absent" });
    let view = await seat.view();
    assert.equal(view.status, TableStatus.PLAYING);
    for (let i = 0; i < 1200 && view.status !== TableStatus.FINISHED; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100)); // polling, bounded at 120 s
      view = await seat.view();
    }
    assert.equal(view.status, TableStatus.FINISHED);
    const log = await seat.log();
    assert.ok(log.events.some((e) => e.body.case === "timedOut" && e.body.value.seat === 0));
  });

  test("a seat left before play is free, taken back with its token, and a rematch follows", async () => {
    const bots = [2, 3].map((seat) => ({ seat, bot: "random" }));
    const tableId = await client.createTable({ variant: "slovenian", players: 4, bots });
    const first = await client.join(tableId, { name: "first", seat: 0 });
    await first.leave();
    let seats = (await first.client.spectate(tableId).then((s) => s.view())).seats;
    assert.equal(seats[0]?.taken, false, "the left seat is free");
    const back = await first.rejoin("again");
    assert.equal(back.seat, 0);
    const revoked = await first.view().then(
      () => "",
      (err: unknown) => errorInfo(err).reason,
    );
    assert.equal(revoked, "TOKEN_REVOKED", "the old token no longer holds the seat");
    const other = await client.join(tableId, { name: "other" });
    assert.equal(other.seat, 1);
    await Promise.all([playRandomly(back), playRandomly(other)]);
    const next = await back.rematch();
    const again = await other.rematch();
    assert.equal(next.tableId, again.tableId, "one rematch table for everyone");
    assert.notEqual(next.tableId, tableId);
    assert.deepEqual([next.seat, again.seat], [0, 1]);
    seats = (await next.view()).seats;
    assert.deepEqual(seats.map((s) => s.bot), ["", "", "random", "random"]);
  });
});
