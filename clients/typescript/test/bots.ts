// Random bots playing through the SDK.
import type { TarokClient, TarokSeat } from "../src/index.js";

/** Play every turn of `seat` with a random legal move until the table finishes. */
export async function playRandomly(seat: TarokSeat): Promise<number> {
  let moves = 0;
  for await (const view of seat.myTurns()) {
    const legal = view.hand?.legalMoves ?? [];
    const move = legal[Math.floor(Math.random() * legal.length)];
    if (move === undefined) throw new Error(`no legal move at version ${view.version}`);
    await seat.submit(move.id);
    moves++;
  }
  return moves;
}

/** Create a table, seat `players` random bots and play it to the end. */
export async function playTable(
  client: TarokClient,
  variant: string,
  players: number,
  hands: number,
): Promise<{ seats: TarokSeat[]; moves: number }> {
  const tableId = await client.createTable({ variant, players, hands });
  const seats: TarokSeat[] = [];
  for (let i = 0; i < players; i++) seats.push(await client.join(tableId, { name: `bot${i}` }));
  const moves = await Promise.all(seats.map(playRandomly));
  return { seats, moves: moves.reduce((a, b) => a + b, 0) };
}
