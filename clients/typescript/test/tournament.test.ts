// A remote TypeScript bot plays its tables of a tournament against two built-in bots.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { playTurn, TournamentStatus, tournamentTurns } from "../src/index.js";
import { connect } from "../src/node.js";
import { ServerHome } from "./server.js";
import type { Server } from "./server.js";

const home = new ServerHome();
const ORGANISER_KEY = "ts-test-organiser-key";
let server: Server | undefined;

after(async () => {
  await server?.stop();
  home.remove();
});

test("a remote TypeScript bot plays every table of its tournament", async () => {
  server = await home.start(0, 0, ["--organiser-key", ORGANISER_KEY, "--tournament-bot-share", "1"]);
  const client = connect(server.grpcUrl);
  try {
    const created = await client.tournaments.createTournament({
      organiserKey: ORGANISER_KEY,
      spec: {
        fullRotation: true, // the bot sits at every table (it is trusted to forget the deals)
        variant: "slovenian",
        players: 4,
        deals: 2,
        duplicate: true,
        timePerMove: { seconds: 60n },
        entrants: [{ name: "ts-bot" }, { name: "random", bot: "random" }, { name: "heur", bot: "heuristic" }],
      },
    });
    const token = created.entrantTokens[0]?.token;
    assert.ok(token !== undefined);
    let moves = 0;
    const tables = new Set<string>();
    for await (const turn of tournamentTurns(client, [token])) {
      const legal = turn.view?.hand?.legalMoves ?? [];
      const move = legal[Math.floor(Math.random() * legal.length)];
      assert.ok(move !== undefined, "a turn has legal moves");
      if ((await playTurn(client, turn, move.id)) !== undefined) moves++;
      tables.add(turn.tableId);
    }
    assert.ok(moves > 0);
    assert.equal(tables.size, created.games, "the bot sat at every table of the schedule");
    let info = await client.tournaments.getTournament({ tournamentId: created.tournamentId });
    for (let i = 0; i < 600 && info.tournament?.status !== TournamentStatus.FINISHED; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100)); // polling, bounded at 60 s
      info = await client.tournaments.getTournament({ tournamentId: created.tournamentId });
    }
    const standings = info.tournament?.standings ?? [];
    const mine = standings.find((s) => s.name === "ts-bot");
    assert.equal(info.tournament?.status, TournamentStatus.FINISHED);
    assert.equal(mine?.games, created.games);
    assert.equal(mine?.timeouts, 0);
  } finally {
    client.close();
  }
});
