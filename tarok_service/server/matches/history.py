"""History: every finished table a signed-in player sat at, in the player's own log.

When a table closes, the replica that wrote its last event appends one TablePlayed to the
`history.<player id>` log of each signed-in player at it (once: the table id is the entry's
request id). The history is listed newest first, paged as AIP-158.

That append follows the table's closing append: a replica that dies (or a store that fails)
between the two leaves a finished table out of its players' histories. `catch_up` mends that
when the player next reads their history or profile: the player's own index of tables
(`usecases/mytables.py`, written before each seat was taken) names every table they sat at,
and a finished one missing from the history is recorded then (its ratings too, once; the
rating change of such a late entry is not shown, since the ratings before it are not kept).
"""

from __future__ import annotations

from collections import Counter

from tarok_proto.tarok.v1 import match_service_pb2 as ms
from tarok_proto.tarok.v1 import matches_pb2 as mt

from ...competition import Rated
from .. import errors as e
from ..model.events import timestamp
from ..model.fold import FINISHED, TableState
from ..usecases import lobby, mytables
from ..usecases.context import Context
from ..usecases.write import record_once
from . import logs
from .ratings import RatingBook, rate_table, skill

DEFAULT_PAGE = 20
MAX_PAGE = 100
APPEND_RETRIES = 16
PAGE_KIND = "history"  # what a history page token is bound to
CATCH_UP = 50  # the player's newest tables checked against the history on each read


def placings(totals: tuple[int, ...]) -> list[int]:
    """1 for the best total; equal totals share a placing."""
    return [1 + sum(other > mine for other in totals) for mine in totals]


def played(
    table: TableState, at: float, changes: dict[str, tuple[Rated, Rated]]
) -> dict[str, mt.TablePlayed]:
    """Player id -> the TablePlayed of a finished table for that player."""
    totals = table.match.totals
    places = placings(totals)
    seats = [
        mt.PlayedSeat(
            seat=seat,
            name=table.seats[seat] or "",
            bot=table.bots[seat],
            player_id=table.player_ids[seat],
            score=totals[seat],
            placing=places[seat],
        )
        for seat in range(table.players)
    ]
    out: dict[str, mt.TablePlayed] = {}
    for seat, pid in enumerate(table.player_ids):
        if not pid:
            continue
        entry = mt.TablePlayed(
            table_id=table.table_id,
            variant=table.variant.id,
            players=table.players,
            finished=timestamp(at),
            seats=seats,
            seat=seat,
            score=totals[seat],
            placing=places[seat],
            rated=table.rated,
            hands=table.match.played,
        )
        if pid in changes:
            before, after = changes[pid]
            entry.rating_before.CopyFrom(skill(before))
            entry.rating_after.CopyFrom(skill(after))
        out[pid] = entry
    return out


async def record(ctx: Context, book: RatingBook, table: TableState) -> None:
    """What a closed table leaves in the players' logs: the ratings (a rated table), then
    an entry in each signed-in player's history."""
    if table.tournament_id or not any(table.player_ids):
        return
    changes: dict[str, tuple[Rated, Rated]] = {}
    if table.rated and not table.closed_by:  # a table an operator ended is not rated
        changes = await rate_table(ctx, book, table)
    for pid, entry in played(table, ctx.clock(), changes).items():
        event = logs.encode([entry], f"played:{table.table_id}")[0]
        busy = "the player's history is too busy: try again"
        await record_once(ctx, logs.history_log(pid), event, retries=APPEND_RETRIES, busy=busy)


async def catch_up(ctx: Context, book: RatingBook, player_id: str) -> int:
    """Record each finished table among the player's newest `CATCH_UP` that its history is
    missing (see the module's text); how many were recorded."""
    recorded = {t.table_id for t in await played_tables(ctx, player_id)}
    mended = 0
    for table_id in await mytables.tables_of(ctx, player_id, CATCH_UP):
        if table_id in recorded:
            continue
        try:
            table = await ctx.cache.load(table_id)
        except e.ServiceError:
            continue  # gone, or never written (the seat was not taken)
        if table.status == FINISHED and player_id in table.player_ids:
            await record(ctx, book, table)
            mended += 1
    return mended


async def list_history(
    ctx: Context, player_id: str, request: ms.ListHistoryRequest
) -> ms.ListHistoryResponse:
    """One page of the player's history, newest first."""
    if request.page_size < 0:
        raise e.invalid("page_size", "page_size must not be negative")
    size = min(request.page_size or DEFAULT_PAGE, MAX_PAGE)
    log_id = logs.history_log(player_id)
    upto = lobby.read_token(request.page_token, PAGE_KIND)
    if not request.page_token:
        upto = await ctx.store.version(log_id)
    start = max(0, upto - size)
    stored = await ctx.store.read(log_id, start, upto - start) if upto > 0 else []
    out = ms.ListHistoryResponse()
    for item in reversed(stored):
        body = logs.decode(item)
        if isinstance(body, mt.TablePlayed):
            out.tables.append(body)
    if start > 0:
        out.next_page_token = lobby.page_token(start, PAGE_KIND)
    return out


async def played_tables(ctx: Context, player_id: str) -> list[mt.TablePlayed]:
    """Every entry of the player's history, oldest first."""
    stored = await ctx.store.read(logs.history_log(player_id), 0)
    bodies = [logs.decode(s) for s in stored]
    return [b for b in bodies if isinstance(b, mt.TablePlayed)]


async def profile(
    ctx: Context, book: RatingBook, player_id: str, display_name: str
) -> ms.GetProfileResponse:
    """The player's name, tables per variant and player count, and ratings."""
    tables = await played_tables(ctx, player_id)
    counts = Counter((t.variant, t.players) for t in tables)
    out = ms.GetProfileResponse(player_id=player_id, display_name=display_name, tables=len(tables))
    for (variant, players), count in sorted(counts.items()):
        row = out.variants.add(variant=variant, players=players, tables=count)
        known = await book.load(variant, players)
        if player_id in known.rated:
            row.rating.CopyFrom(skill(known.rated[player_id]))
    return out


async def sat_at(ctx: Context, player_id: str, table_id: str) -> bool:
    """Whether the table is in the player's history."""
    rid = f"played:{table_id}"
    return await ctx.store.find_request(logs.history_log(player_id), rid) is not None
