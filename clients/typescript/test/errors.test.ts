// errorInfo(), request ids and idempotent submits against a live server.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Code, errorInfo, newRequestId } from "../src/index.js";
import { connect } from "../src/node.js";
import type { NodeTarokClient } from "../src/node.js";
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

describe("errors and idempotency", () => {
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

  test("request ids are 128-bit random hex", () => {
    const ids = new Set(Array.from({ length: 1000 }, newRequestId));
    assert.equal(ids.size, 1000);
    for (const id of ids) assert.match(id, /^[0-9a-f]{32}$/);
  });

  test("an unknown table is NOT_FOUND with reason TABLE_NOT_FOUND", async () => {
    const info = errorInfo(await rejection(client.join("no-such-table")));
    assert.equal(info.code, Code.NotFound);
    assert.equal(info.codeName, "NotFound");
    assert.equal(info.reason, "TABLE_NOT_FOUND");
    assert.equal(info.domain, "tarok.v1");
    assert.equal(info.metadata.table_id, "no-such-table");
  });

  test("an unknown variant is INVALID_ARGUMENT with reason UNKNOWN_VARIANT", async () => {
    const info = errorInfo(await rejection(client.createTable({ variant: "snap", players: 4 })));
    assert.equal(info.code, Code.InvalidArgument);
    assert.equal(info.reason, "UNKNOWN_VARIANT");
  });

  test("a forged token is UNAUTHENTICATED BAD_TOKEN", async () => {
    const tableId = await client.createTable({ variant: "slovenian", players: 4 });
    const seat = client.seatWithToken(tableId, "forged", 0);
    const info = errorInfo(await rejection(seat.view()));
    assert.equal(info.code, Code.Unauthenticated);
    assert.equal(info.reason, "BAD_TOKEN");
  });

  test("an illegal move is refused with a stable reason and nothing is written", async () => {
    const tableId = await client.createTable({ variant: "slovenian", players: 4 });
    const seats = await Promise.all([0, 1, 2, 3].map((seat) => client.join(tableId, { seat })));
    const view = await seats[0]!.view();
    const turn = view.hand?.turn;
    assert.ok(turn !== undefined);
    const other = seats[(turn + 1) % 4]!;
    const info = errorInfo(await rejection(other.submit("pass")));
    assert.equal(info.code, Code.FailedPrecondition);
    assert.equal(info.reason, "NOT_YOUR_TURN");
    assert.equal((await other.view()).version, view.version);
  });

  test("a repeated request id makes the move once and returns the first answer", async () => {
    const tableId = await client.createTable({ variant: "slovenian", players: 4 });
    const seats = await Promise.all([0, 1, 2, 3].map((seat) => client.join(tableId, { seat })));
    const view = await seats[0]!.view();
    const seat = seats[view.hand!.turn!]!;
    const move = (await seat.view()).hand!.legalMoves[0]!;
    const requestId = newRequestId();
    const first = await seat.submit(move.id, { requestId });
    const again = await seat.submit(move.id, { requestId });
    assert.equal(again.version, first.version);
    assert.equal((await seat.view()).version, first.version);
    const stale = errorInfo(
      await rejection(seat.submit(move.id, { expectedVersion: view.version })),
    );
    assert.equal(stale.code, Code.Aborted);
    assert.equal(stale.reason, "STALE_VERSION");
  });
});
