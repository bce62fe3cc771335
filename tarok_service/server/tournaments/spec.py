"""Validating a tournament's spec: INVALID_ARGUMENT naming the offending field."""

from __future__ import annotations

from tarok_proto.tarok.v1 import tournaments_pb2 as tm

from ...bots.configured import entrant_bot
from ...engine.options import OptionError
from ...variants.registry import find_variant
from .. import errors as e
from ..usecases.botseats import check_bot
from ..usecases.limits import check_name
from .log import schedule_of

MAX_ENTRANTS = 64
MAX_DEALS = 10_000
MAX_GAMES = 100_000
MAX_SECONDS_PER_MOVE = 3600
MAX_PARALLEL = 256
MAX_CHECK_IN = 3600
DEFAULT_PARALLEL = 8
DEFAULT_MAX_TIMEOUTS = 3
DEFAULT_CHECK_IN = 60


def validated(spec: tm.TournamentSpec, max_games: int = MAX_GAMES) -> tm.TournamentSpec:
    """A copy of `spec` with options resolved, defaults filled in (so GetTournament shows
    the rules in force) and entrant names filled in, or an error; at most `max_games` tables."""
    out = tm.TournamentSpec()
    out.CopyFrom(spec)
    _variant_and_options(out)
    _entrants(out)
    if not 1 <= out.deals <= MAX_DEALS:
        raise e.invalid("spec.deals", f"deals must be in 1..{MAX_DEALS}")
    seconds = out.time_per_move.ToNanoseconds() / 1e9
    if not 0 <= seconds <= MAX_SECONDS_PER_MOVE:
        raise e.invalid(
            "spec.time_per_move", f"time_per_move must be in 0..{MAX_SECONDS_PER_MOVE} s"
        )
    if out.max_timeouts < 0:
        raise e.invalid("spec.max_timeouts", "max_timeouts must be >= 0")
    if not 0 <= out.parallel_tables <= MAX_PARALLEL:
        raise e.invalid("spec.parallel_tables", f"parallel_tables must be in 0..{MAX_PARALLEL}")
    check_in = out.check_in.ToNanoseconds() / 1e9
    if not 0 <= check_in <= MAX_CHECK_IN:
        raise e.invalid("spec.check_in", f"check_in must be in 0..{MAX_CHECK_IN} s")
    out.max_timeouts = out.max_timeouts or DEFAULT_MAX_TIMEOUTS
    out.parallel_tables = out.parallel_tables or DEFAULT_PARALLEL
    if not check_in:
        out.check_in.FromSeconds(DEFAULT_CHECK_IN)
    try:
        games = len(schedule_of(out))
    except ValueError as err:
        raise e.invalid("spec.entrants", str(err)) from None
    limit = min(max_games, MAX_GAMES)
    if games > limit:
        raise e.ServiceError(
            e.RESOURCE_EXHAUSTED,
            e.TOO_MANY_TABLES,
            f"{games} tables is more than this server's limit of {limit}",
            {"field": "spec.deals", "limit": str(limit)},
        )
    return out


def _variant_and_options(spec: tm.TournamentSpec) -> None:
    try:
        variant = find_variant(spec.variant)
    except KeyError as err:
        raise e.invalid("spec.variant", str(err.args[0]), e.UNKNOWN_VARIANT) from None
    try:
        rules = variant.make_rules(spec.players, dict(spec.options))
    except OptionError as err:
        if err.field == "players":
            raise e.invalid("spec.players", str(err), e.BAD_PLAYER_COUNT) from None
        raise e.invalid(f"spec.options.{err.field}", str(err), e.BAD_OPTION) from None
    spec.options.clear()
    spec.options.update({k: _text(v) for k, v in rules.options.items()})


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _entrants(spec: tm.TournamentSpec) -> None:
    if not 1 <= len(spec.entrants) <= MAX_ENTRANTS:
        raise e.invalid("spec.entrants", f"give 1 to {MAX_ENTRANTS} entrants")
    names: set[str] = set()
    for i, entrant in enumerate(spec.entrants):
        field = f"spec.entrants[{i}]"
        if entrant.bot:
            check_bot(f"{field}.bot", entrant.bot)
        _bot_options(entrant, field)
        name = check_name(entrant.name, f"{field}.name")
        entrant.name = name or f"{entrant.bot or 'remote'}-{i + 1}"
        if entrant.name in names:
            raise e.invalid(f"{field}.name", f"two entrants are called {entrant.name!r}")
        names.add(entrant.name)


def _bot_options(entrant: tm.Entrant, field: str) -> None:
    """Options only for built-in bots, and only ones the bot takes."""
    if not entrant.bot_options:
        return
    if not entrant.bot:
        raise e.invalid(f"{field}.bot_options", "a remote entrant has no bot options")
    try:
        entrant_bot(entrant.bot, entrant.bot_options)
    except (TypeError, ValueError) as err:
        raise e.invalid(f"{field}.bot_options", f"bad options for {entrant.bot}: {err}") from None
