"""The one write path: decide, append at the expected version (with the request id), decide
again when another writer was first, map what the store says to service errors.

Every use case that writes goes through `save` (any log: a table's, the lobby's, a
tournament's) or `save_table` (a table's log, with the cache and the metrics kept up to
date), so retrying, idempotency and the CONTENTION error exist once.

A decision is one of:
- `Append`: events to append at a version, and what to answer once they are appended;
- `Done`: nothing (more) to write, here is the answer (say, the seat is already free);
- `RETRY`: decide again at once (the decision was made on a state that may be stale).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Final, Generic, TypeVar

import structlog
from tarok_proto.tarok.v1 import events_pb2 as ev

from ...store import DuplicateRequest, NewEvent, VersionConflict
from .. import errors as e
from ..model import events
from ..model.commands import Batch
from ..model.fold import TableState
from .context import Context

T = TypeVar("T")

TABLE_BUSY = "the table is too busy: try again"
log = structlog.get_logger("tarok.tables")


@dataclass(frozen=True)
class Append(Generic[T]):
    """Append `events` at `version` of the log; `saved(new_version)` gives the answer."""

    version: int
    events: Sequence[NewEvent]
    saved: Callable[[int], Awaitable[T]]


@dataclass(frozen=True)
class Done(Generic[T]):
    """Nothing to write: `answer` is the reply as the log stands."""

    answer: T


class _Retry:
    """Decide again at once (counts as an attempt)."""


RETRY: Final = _Retry()

Decision = Append[T] | Done[T] | _Retry


def always(value: T) -> Callable[..., Awaitable[T]]:
    """A callback (`saved`, `lost`, `on_duplicate`) that answers `value` whatever it is told."""

    async def fixed(*_: object) -> T:
        return value

    return fixed


async def save(
    ctx: Context,
    log_id: str,
    decide: Callable[[int], Awaitable[Decision[T]]],
    *,
    retries: int,
    busy: str = TABLE_BUSY,
    on_duplicate: Callable[[int], Awaitable[T]] | None = None,
) -> T:
    """Decide (`decide(attempt)`, attempt 0 first) and append until an append succeeds or the
    decision is `Done`; ABORTED CONTENTION (`busy`) after `retries` attempts. A request id
    the log already holds answers through `on_duplicate(seq of the first)`."""
    for attempt in range(retries):
        decision = await decide(attempt)
        if isinstance(decision, Done):
            return decision.answer
        if isinstance(decision, _Retry):
            continue
        try:
            version = await ctx.store.append(log_id, decision.version, decision.events, ctx.clock())
        except DuplicateRequest as dup:
            if on_duplicate is None:
                raise
            return await on_duplicate(dup.seq)
        except VersionConflict:
            continue
        return await decision.saved(version)
    raise e.ServiceError(e.ABORTED, e.CONTENTION, busy)


TableDecision = Batch | Done[T]


async def save_table(
    ctx: Context,
    table_id: str,
    decide: Callable[[TableState, bool], Awaitable[TableDecision[T]]],
    answer: Callable[[Batch], T],
    *,
    request_id: str | None = None,
    table: TableState | None = None,
    fresh: bool = False,
    on_duplicate: Callable[[int], Awaitable[T]] | None = None,
    retries: int | None = None,
) -> T:
    """Append the batch `decide(table, fresh)` makes at that table's version and answer
    `answer(batch)`; the cache and the metrics learn of it.

    `table` is a state to decide on first (None: read it); unless it is `fresh` (just read)
    a ServiceError decided on it is not final: the table is read afresh and decided again.
    After another writer was first, the table is read afresh too. `decide` is told whether
    its state was just read.
    """
    state, is_fresh = table, fresh and table is not None

    async def attempt(number: int) -> Decision[T]:
        nonlocal state, is_fresh
        if state is None or number > 0:
            state, is_fresh = await ctx.cache.load(table_id), True
        before = state
        assert before is not None
        try:
            decided = await decide(before, is_fresh)
        except e.ServiceError:
            if is_fresh:
                raise
            state = None
            return RETRY
        if isinstance(decided, Done):
            return decided
        return table_append(ctx, before.version, decided, answer, request_id)

    return await save(
        ctx,
        table_id,
        attempt,
        retries=ctx.config.move_retries if retries is None else retries,
        on_duplicate=on_duplicate,
    )


def table_append(
    ctx: Context,
    version: int,
    batch: Batch,
    answer: Callable[[Batch], T],
    request_id: str | None = None,
) -> Append[T]:
    """The append of a table's `batch` decided at `version`: once written, the cache holds
    the table after it (and the snapshot of a hand it scored), the metrics count its events."""

    async def saved(new_version: int) -> T:
        assert new_version == batch.table.version
        await ctx.cache.appended(version, batch.table)
        ctx.metrics.appended(batch.table.variant.id, batch.payloads)
        if any(isinstance(p, ev.TableClosed) for p in batch.payloads):
            await _closed(ctx, batch.table)
        return answer(batch)

    return Append(version, events.encode(batch.payloads, request_id), saved)


async def _closed(ctx: Context, table: TableState) -> None:
    """Tell `ctx.table_closed` that the table closed; a failure there is logged, not raised
    (the move that closed the table is recorded and answered either way)."""
    try:
        await ctx.table_closed(table)
    except Exception:  # the hook's failure must not fail the move
        log.exception("table closed hook failed", table_id=table.table_id)


async def save_once(
    ctx: Context,
    log_id: str,
    append: Append[T],
    lost: Callable[[], Awaitable[T]],
    on_duplicate: Callable[[int], Awaitable[T]] | None = None,
) -> T:
    """Try `append` once; `lost()` answers when another writer was first (a table created
    by a retried request or another replica, a bot's move someone else already made)."""

    async def decide(attempt: int) -> Decision[T]:
        return append if attempt == 0 else Done(await lost())

    return await save(ctx, log_id, decide, retries=2, on_duplicate=on_duplicate)


async def record_once(
    ctx: Context, log_id: str, event: NewEvent, *, retries: int, busy: str
) -> None:
    """Append `event` at the end of a shared log (the lobby, the driven tables) once, however
    often it is retried: its request id makes a repeat a no-op."""

    async def decide(attempt: int) -> Decision[None]:
        return Append(await ctx.store.version(log_id), [event], always(None))

    await save(ctx, log_id, decide, retries=retries, busy=busy, on_duplicate=always(None))
