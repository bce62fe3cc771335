// Random bots this page plays for the empty seats of a table it created.
import { errorInfo } from "../../typescript/src/index.js";
import type { TarokSeat } from "../../typescript/src/index.js";
import { client, saveSeat, savedSeats } from "./api.js";

const running = new Set<string>();

async function play(seat: TarokSeat): Promise<void> {
  for await (const view of seat.myTurns()) {
    const legal = view.hand?.legalMoves ?? [];
    const move = legal[Math.floor(Math.random() * legal.length)];
    if (move === undefined) continue;
    try {
      await seat.submit(move.id, { expectedVersion: view.version });
    } catch (err) {
      if (errorInfo(err).reason !== "STALE_VERSION") throw err;
    }
  }
}

function run(seat: TarokSeat): void {
  if (running.has(seat.token)) return;
  running.add(seat.token);
  play(seat)
    .catch((err: unknown) => console.error("bot stopped", errorInfo(err)))
    .finally(() => running.delete(seat.token));
}

/** Take `count` seats of a new table for random bots and play them. */
export async function addBots(tableId: string, variant: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const name = `bot ${i + 1}`;
    const seat = await client.join(tableId, { name });
    saveSeat({ tableId, token: seat.token, seat: seat.seat, name, variant, bot: true, savedAt: Date.now() });
    run(seat);
  }
}

/** Play the bots of a table again after a reload. */
export function resumeBots(tableId: string): void {
  for (const saved of savedSeats()) {
    if (saved.tableId === tableId && saved.bot) {
      run(client.seatWithToken(saved.tableId, saved.token, saved.seat));
    }
  }
}
