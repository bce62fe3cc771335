// Bots keep playing through a server restart: watches resume from the last version and
// submits are retried with their request id.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { TableStatus } from "../src/index.js";
import type { TarokSeat } from "../src/index.js";
import { connect } from "../src/node.js";
import { ServerHome } from "./server.js";
import type { Server } from "./server.js";

const home = new ServerHome();
let server: Server | undefined;

after(async () => {
  await server?.stop();
  home.remove();
});

test("a table finishes although the server restarts mid-hand", async () => {
  server = await home.start();
  const port = server.port;
  let retries = 0;
  const client = connect(server.grpcUrl, {
    retryForMs: 120_000,
    onRetry: () => {
      retries++;
    },
  });
  try {
    const tableId = await client.createTable({ variant: "slovenian", players: 4, hands: 2 });
    const seats = await Promise.all([0, 1, 2, 3].map((seat) => client.join(tableId, { seat })));
    let moves = 0;
    let restarted: Promise<void> | undefined;
    const restart = async (): Promise<void> => {
      await server?.stop();
      server = await home.start(port);
    };
    const play = async (seat: TarokSeat): Promise<number> => {
      let made = 0;
      for await (const view of seat.myTurns()) {
        const legal = view.hand?.legalMoves ?? [];
        const move = legal[Math.floor(Math.random() * legal.length)]!;
        await seat.submit(move.id);
        made++;
        if (++moves === 12) restarted = restart();
      }
      return made;
    };
    const made = await Promise.all(seats.map(play));
    await restarted;
    assert.ok(retries > 0, "the restart was noticed and retried");
    const view = await seats[0]!.view();
    assert.equal(view.status, TableStatus.FINISHED);
    const log = await seats[0]!.log();
    const recorded = log.events.filter((e) => e.body.case === "moveMade").length;
    assert.equal(recorded, made.reduce((a, b) => a + b, 0));
  } finally {
    client.close();
  }
});
