"""The lobby: public tables listed in one log of the event store, paged and filtered.

Creating a public table appends a `TableListed` entry to the `LOBBY` log (before the table's
own first event, so a listed id whose table is missing is simply skipped). `ListTables` reads
that log in order from the page token's position and describes each table from its state
(through the table cache), so every replica answers the same way from the store alone.

Filters follow AIP-160 in a small subset: terms `name = value` joined by `AND`, with the
names `variant`, `players` and `state` (`open`, `playing`, `finished`).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator
from dataclasses import dataclass

from tarok_proto.tarok.v1 import events_pb2 as ev
from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from ...store import NewEvent
from .. import errors as e
from ..model.events import timestamp
from ..model.fold import FINISHED, PLAYING, SEATING, TableState
from ..model.wire import option_text
from ..present.views import STATUS
from .context import Context
from .limits import MAX_PAGE_TOKEN, too_long
from .write import record_once

LOBBY = "lobby"
LISTED = "TableListed"
DEFAULT_PAGE = 50
MAX_PAGE = 500
SCAN_CHUNK = 200
MAX_SCAN = 5000  # lobby entries one call examines at most (a shorter page then says so)
APPEND_RETRIES = 32
MAX_POSITION = 18  # digits of a lobby position in a page token (fits a signed 64-bit seq)
STATES = {"open": SEATING, "playing": PLAYING, "finished": FINISHED}
FILTER_NAMES = ("variant", "players", "state")
MAX_FILTER = 256  # characters of a filter (three terms fit many times over)
_TOKEN_PREFIX = "t1:"


@dataclass(frozen=True)
class Filter:
    """What ListTables keeps (None: anything)."""

    variant: str | None = None
    players: int | None = None
    state: str | None = None

    def keeps_entry(self, entry: ev.TableListed) -> bool:
        return (self.variant is None or entry.variant == self.variant) and (
            self.players is None or entry.players == self.players
        )

    def keeps(self, table: TableState) -> bool:
        return self.state is None or table.status == self.state


def parse_filter(text: str) -> Filter:
    """A Filter from AIP-160 text (INVALID_ARGUMENT naming `filter` otherwise), read in one
    pass over at most `MAX_FILTER` characters."""
    if len(text) > MAX_FILTER:
        raise too_long("filter", MAX_FILTER)
    values = dict(_terms(text))
    players = values.get("players")
    if players is not None and not (players.isascii() and players.isdigit()):
        raise e.invalid("filter", "players must be a number")
    if players is not None and len(players) > 3:
        raise e.invalid("filter", "players must be a small number")
    state = values.get("state")
    if state is not None and state not in STATES:
        raise e.invalid("filter", "state must be open, playing or finished")
    return Filter(
        values.get("variant"),
        int(players) if players is not None else None,
        STATES[state] if state is not None else None,
    )


def _terms(text: str) -> Iterator[tuple[str, str]]:
    """The `name = value` terms of a filter joined by `AND` (a scanner: linear in the text)."""
    bad = e.invalid("filter", "filter terms are variant = ..., players = N, state = ...")
    end = len(text)
    at = _skip_spaces(text, 0)
    while at < end:
        start = at
        while at < end and (text[at].isalnum() or text[at] == "_"):
            at += 1
        name = text[start:at]
        if name not in FILTER_NAMES:
            raise bad
        at = _skip_spaces(text, at)
        if at >= end or text[at] != "=":
            raise bad
        at = _skip_spaces(text, at + 1)
        if at < end and text[at] == '"':
            close = text.find('"', at + 1)
            if close < 0:
                raise bad
            value, at = text[at + 1 : close], close + 1
        else:
            start = at
            while at < end and (text[at].isalnum() or text[at] in "_.-"):
                at += 1
            value = text[start:at]
            if not value:
                raise bad
        yield name, value
        spaced = _skip_spaces(text, at)
        if spaced == end:
            return
        if spaced == at or not text.startswith("AND", spaced):
            raise bad
        at = _skip_spaces(text, spaced + 3)
        if at == spaced + 3 or at == end:
            raise bad  # AND needs spaces around it and a term after it


def _skip_spaces(text: str, at: int) -> int:
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def page_token(after: int, filter_text: str) -> str:
    """An opaque token: the lobby position to continue after, bound to the filter."""
    raw = f"{_TOKEN_PREFIX}{after}:{filter_text}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def read_token(token: str, filter_text: str) -> int:
    """The position in a page token (INVALID_ARGUMENT if it is not one of ours for this filter)."""
    if not token:
        return 0
    if len(token) > MAX_PAGE_TOKEN + 4 * MAX_FILTER // 3 + 4:
        raise e.invalid("page_token", "page_token is not valid")
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
    except (binascii.Error, ValueError):
        raise e.invalid("page_token", "page_token is not valid") from None
    head, _, rest = raw.partition(":")
    position, _, used = rest.partition(":")
    if (
        f"{head}:" != _TOKEN_PREFIX
        or not (position.isascii() and position.isdigit() and len(position) <= MAX_POSITION)
        or used != filter_text
    ):
        raise e.invalid("page_token", "page_token is not valid for this filter")
    return int(position)


async def list_table(ctx: Context, table_id: str, variant: str, players: int) -> None:
    """Record a public table in the lobby (once, however often it is retried)."""
    entry = ev.TableListed(table_id=table_id, variant=variant, players=players)
    event = NewEvent(LISTED, entry.SerializeToString(), f"list:{table_id}")
    await record_once(
        ctx, LOBBY, event, retries=APPEND_RETRIES, busy="the lobby is too busy: try again"
    )


async def list_tables(ctx: Context, request: svc.ListTablesRequest) -> svc.ListTablesResponse:
    """One page of the lobby (see the module docstring)."""
    if request.page_size < 0:
        raise e.invalid("page_size", "page_size must not be negative")
    size = min(request.page_size or DEFAULT_PAGE, MAX_PAGE)
    wanted = parse_filter(request.filter)
    position = read_token(request.page_token, request.filter)
    out = svc.ListTablesResponse()
    scanned = 0
    while len(out.tables) < size and scanned < MAX_SCAN:
        stored = await ctx.store.read(LOBBY, position, SCAN_CHUNK)
        if not stored:
            return out  # the end of the lobby: no next page
        for item in stored:
            scanned += 1
            position = item.seq
            entry = ev.TableListed.FromString(item.payload)
            if not wanted.keeps_entry(entry):
                continue
            table = await _load(ctx, entry.table_id)
            if table is not None and wanted.keeps(table) and not await expired(ctx, table):
                out.tables.append(summary(table, item.created_at))
                if len(out.tables) == size:
                    break
    if await ctx.store.version(LOBBY) > position:
        out.next_page_token = page_token(position, request.filter)
    return out


async def expired(ctx: Context, table: TableState) -> bool:
    """Whether an open table has waited for players longer than the configured time since
    its last event (abandoned: no longer listed nor joinable)."""
    ttl = ctx.config.open_table_ttl_seconds
    if table.status != SEATING or ttl <= 0:
        return False
    last = await ctx.store.read(table.table_id, table.version - 1, 1)
    return bool(last) and ctx.clock() - last[0].created_at > ttl


async def check_open(ctx: Context, table: TableState) -> None:
    """FAILED_PRECONDITION TABLE_EXPIRED for an abandoned open table."""
    if await expired(ctx, table):
        raise e.precondition(e.TABLE_EXPIRED, "the table waited too long for players and expired")


async def _load(ctx: Context, table_id: str) -> TableState | None:
    try:
        return await ctx.cache.load(table_id)
    except e.ServiceError as err:
        if err.reason == e.TABLE_NOT_FOUND:
            return None  # listed, but its creation failed
        raise


def summary(table: TableState, created: float) -> svc.TableSummary:
    """A table as the lobby shows it."""
    out = svc.TableSummary(
        table_id=table.table_id,
        display_name=table.display_name,
        variant=table.variant.id,
        players=table.players,
        status=STATUS[table.status],
        hands=table.hands,
        hands_played=table.match.played,
        create_time=timestamp(created),
        rematch_of=table.rematch_of,
        rated=table.rated,
    )
    out.options.update({k: option_text(v) for k, v in table.rules.options.items()})
    for seat, name in enumerate(table.seats):
        out.seats.add(seat=seat, name=name or "", free=name is None, bot=table.bots[seat])
    if table.time_per_move:
        out.time_per_move.FromNanoseconds(int(table.time_per_move * 1e9))
    return out
