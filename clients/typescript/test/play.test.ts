// Full tables of every variant and player count, four (or more) random bots through the SDK.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { TableStatus } from "../src/index.js";
import type { TarokSeat } from "../src/index.js";
import { connect } from "../src/node.js";
import type { NodeTarokClient } from "../src/node.js";
import { playTable } from "./bots.js";
import { ServerHome } from "./server.js";
import type { Server } from "./server.js";

/** The final view and the complete log agree: every hand scored, every move recorded once. */
async function checkFinished(seats: TarokSeat[], hands: number, moves: number): Promise<void> {
  const seat = seats[0];
  assert.ok(seat !== undefined);
  const view = await seat.view();
  assert.equal(view.status, TableStatus.FINISHED);
  assert.equal(view.handsPlayed, hands);
  const log = await seat.log();
  assert.ok(log.complete, "a finished table's log is complete");
  const scored = log.events.flatMap((e) => (e.body.case === "handScored" ? [e.body.value] : []));
  assert.equal(scored.filter((h) => !h.result?.redeal).length, hands);
  const made = log.events.filter((e) => e.body.case === "moveMade").length;
  assert.equal(made, moves, "every submitted move is in the log exactly once");
  const closed = log.events.at(-1)?.body;
  assert.equal(closed?.case, "tableClosed");
  assert.deepEqual(closed.value.totals, view.totals, "the view's totals are the closing totals");
  const versions = log.events.map((e) => e.version);
  assert.deepEqual(versions, versions.map((_, i) => BigInt(i + 1)), "log versions are 1..n");
}

describe("a table over each protocol of the HTTP port", () => {
  const home = new ServerHome();
  let server: Server;

  before(async () => {
    server = await home.start();
  });

  after(async () => {
    await server.stop();
    home.remove();
  });

  for (const protocol of ["connect", "grpc-web"] as const) {
    for (const binary of [true, false]) {
      test(`${protocol} (${binary ? "binary" : "JSON"})`, async () => {
        const client = connect(server.httpUrl, { protocol, binary });
        try {
          const { seats, moves } = await playTable(client, "slovenian", 4, 1);
          await checkFinished(seats, 1, moves);
        } finally {
          client.close();
        }
      });
    }
  }
});

describe("random bots play every variant through the SDK (gRPC)", () => {
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

  test("the server hosts the variants", async () => {
    const variants = await client.variants();
    assert.ok(variants.length >= 5, `variants: ${variants.map((v) => v.id).join(", ")}`);
  });

  test("every variant and player count plays to the end", async () => {
    const variants = await client.variants();
    for (const variant of variants) {
      for (const players of variant.playerCounts) {
        const hands = players === variant.playerCounts[0] ? 2 : 1;
        const { seats, moves } = await playTable(client, variant.id, players, hands);
        await checkFinished(seats, hands, moves);
      }
    }
  });
});
