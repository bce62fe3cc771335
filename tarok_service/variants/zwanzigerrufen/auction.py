"""The combined Zwanzigerrufen auction: games, additions and kontras in one round.

A turn is either a pass ("Naprej") or one or more statements ended by `end`: first, if he
may, a higher game (`bid:<game>`), then any additions for his own side
(`announce:absolut|pagat|valat`) and kontras on single items (`kontra:<item>`). Three turns in
a row that were passes end the auction. Every move is checked by `check`, which returns the
stable reason code of the first restriction broken (None when legal).
"""

from __future__ import annotations

from collections.abc import Callable

from ...engine import kontra as k
from ...engine import moves as m
from ...engine.cards import TAROK, Card, tarock40
from ...engine.fastcopy import evolve
from ...engine.moves import Move, MoveKind
from ...engine.trickplay import start_tricks
from ...engine.view import Fact
from . import data as d
from .state import CALLED, ZwanzigerState

CODES = tarock40().codes

CANDIDATES: tuple[Move, ...] = (
    Move(MoveKind.PASS),
    Move(MoveKind.END),
    *(Move(MoveKind.BID, g) for g in d.GAMES),
    *(Move(MoveKind.ANNOUNCE, a) for a in d.ADDITIONS),
    *(Move(MoveKind.KONTRA, i) for i in d.KONTRA_ITEMS),
)


def called_tarok(hand: tuple[Card, ...]) -> Card | None:
    """XX, or the highest of XIX-XVI not in the caller's hand; None if he holds them all."""
    for rank in d.CALLABLE_RANKS:
        card = Card(TAROK, rank)
        if card not in hand:
            return card
    return None


def suit_cards(hand: tuple[Card, ...]) -> int:
    return sum(1 for c in hand if not c.is_tarok)


def must_kontra(s: ZwanzigerState, seat: int) -> bool:
    """An opponent of the caller holding the trull must kontra the game (unless it is already
    kontra'd or a valat has been announced)."""
    return (
        s.game == d.CALL
        and not s.playing_side(seat)
        and all(c in s.hands[seat] for c in d.TRULL_CARDS)
        and s.level(d.GAME) == 0
        and s.rules.num("max_kontra") > 0
        and not s.valat_announced()
    )


def check(s: ZwanzigerState, seat: int, move: Move) -> str | None:
    """The reason `move` is not allowed for `seat` now, or None when it is legal."""
    rule = _CHECKS.get(move.kind)
    return m.Reason.WRONG_PHASE if rule is None else rule(s, seat, move.value)


def _check_pass_move(s: ZwanzigerState, seat: int, value: str) -> str | None:
    return m.Reason.TURN_ALREADY_STARTED if s.speaking else _check_pass(s, seat)


def _check_end_move(s: ZwanzigerState, seat: int, value: str) -> str | None:
    return _check_end(s, seat)


def _check_pass(s: ZwanzigerState, seat: int) -> str | None:
    if not s.game:
        return m.Reason.FOREHAND_MUST_ANNOUNCE
    if must_kontra(s, seat):
        return m.Reason.TRULL_HOLDER_MUST_KONTRA
    return None


def _check_end(s: ZwanzigerState, seat: int) -> str | None:
    if not s.speaking:
        return m.Reason.NOTHING_SAID_THIS_TURN
    if must_kontra(s, seat):
        return m.Reason.TRULL_HOLDER_MUST_KONTRA
    return None


def _check_bid(s: ZwanzigerState, seat: int, game: str) -> str | None:
    if game not in d.GAMES:
        return m.Reason.UNKNOWN_MOVE
    if s.speaking:
        return m.Reason.TURN_ALREADY_STARTED
    if game == d.CALL and seat != s.forehand:
        return m.Reason.CALL_FOREHAND_ONLY
    if seat in s.accepted:
        return m.Reason.ALREADY_ACCEPTED_THE_GAME
    if s.game and d.GAME_RANK[game] <= d.GAME_RANK[s.game]:
        return m.Reason.BID_TOO_LOW
    hand = s.hands[seat]
    if game == d.CALL and called_tarok(hand) is None:
        return m.Reason.NO_TAROK_TO_CALL
    if game == d.COLOUR_SOLO and suit_cards(hand) < s.rules.num("colour_solo_min_suits"):
        return m.Reason.COLOUR_SOLO_NEEDS_SUIT_CARDS
    return None


def _check_addition(s: ZwanzigerState, seat: int) -> str | None:
    """Restrictions shared by announcements and kontras."""
    if not s.game:
        return m.Reason.NO_GAME_ANNOUNCED_YET
    if must_kontra(s, seat):
        return m.Reason.TRULL_HOLDER_MUST_KONTRA
    return None


def _check_announce(s: ZwanzigerState, seat: int, addition: str) -> str | None:
    if addition not in d.ADDITIONS:
        return m.Reason.UNKNOWN_MOVE
    reason = _check_addition(s, seat)
    if reason is not None:
        return reason
    if s.valat_announced():
        return m.Reason.ONLY_KONTRA_ON_VALAT
    own = s.playing_side(seat)
    if s.announcer(d.item_id(addition, own)) is not None:
        return m.Reason.ALREADY_ANNOUNCED
    if addition == d.ABSOLUT and not own and s.level(d.GAME) == 0:
        return m.Reason.ABSOLUT_NEEDS_KONTRA
    if addition == d.PAGAT_ITEM and s.game == d.COLOUR_SOLO:
        return m.Reason.NOT_IN_COLOUR_SOLO
    if addition == d.PAGAT_ITEM and d.TRULL_CARDS[0] not in s.hands[seat]:
        return m.Reason.PAGAT_NOT_HELD
    return None


def _check_kontra(s: ZwanzigerState, seat: int, item: str) -> str | None:
    if item not in d.KONTRA_ITEMS:
        return m.Reason.UNKNOWN_MOVE
    if not s.game:
        return m.Reason.NO_GAME_ANNOUNCED_YET
    if must_kontra(s, seat):
        return None if item == d.GAME else m.Reason.TRULL_HOLDER_MUST_KONTRA
    if item != d.GAME and s.announcer(item) is None:
        return m.Reason.NOT_ANNOUNCED
    if s.valat_announced() and d.base_addition(item) != d.VALAT:
        return m.Reason.ONLY_KONTRA_ON_VALAT
    level, top = s.level(item), s.rules.num("max_kontra")
    if level >= top:
        return m.Reason.KONTRA_LIMIT_REACHED
    owner = s.playing_side(seat) == d.owned_by_playing_side(item)
    if not k.can_raise(level, owner, top):
        return m.Reason.KONTRA_BY_WRONG_SIDE
    return None


# The check of each move kind, by kind (a dict: enum members are slow to look up one by one).
_CHECKS: dict[str, Callable[[ZwanzigerState, int, str], str | None]] = {
    MoveKind.PASS: _check_pass_move,
    MoveKind.END: _check_end_move,
    MoveKind.BID: _check_bid,
    MoveKind.ANNOUNCE: _check_announce,
    MoveKind.KONTRA: _check_kontra,
}


def legal(s: ZwanzigerState) -> list[Move]:
    """Every move the player to move may make now."""
    assert s.turn is not None
    seat = s.turn
    return [mv for mv in CANDIDATES if check(s, seat, mv) is None]


def apply(s: ZwanzigerState, move: Move) -> ZwanzigerState:
    """The state after a legal auction move: a pass or `end` passes the turn on, a statement
    leaves it with the speaker."""
    assert s.turn is not None
    seat = s.turn
    statement = _STATEMENTS.get(move.kind)
    if statement is not None:
        return evolve(statement(s, seat, move.value), speaking=True)
    if move.kind == MoveKind.END:
        return evolve(s, speaking=False, turn=s.next_seat(seat))
    # a pass
    if s.passes + 1 == s.players - 1:
        return start_tricks(s, s.forehand, passes=0, accepted=s.accepted | {seat})
    return evolve(s, passes=s.passes + 1, accepted=s.accepted | {seat}, turn=s.next_seat(seat))


def _new_game(s: ZwanzigerState, seat: int, game: str) -> ZwanzigerState:
    """A higher game wipes out the earlier game's additions and kontras."""
    called = called_tarok(s.hands[seat]) if game == d.CALL else None
    partner = next((i for i, h in enumerate(s.hands) if called in h), None)
    facts = [*s.facts, Fact(seat, MoveKind.BID, game)]
    if called is not None:
        facts.append(Fact(seat, CALLED, CODES[called]))
    return evolve(
        s,
        game=game,
        declarer=seat,
        called=called,
        partner=partner,
        announced=(),
        levels=(),
        passes=0,
        facts=tuple(facts),
    )


def _announce(s: ZwanzigerState, seat: int, addition: str) -> ZwanzigerState:
    item = d.item_id(addition, s.playing_side(seat))
    return evolve(
        s,
        announced=(*s.announced, (item, seat)),
        accepted=s.accepted | {seat},
        passes=0,
        facts=(*s.facts, Fact(seat, MoveKind.ANNOUNCE, item)),
    )


def _raise(s: ZwanzigerState, seat: int, item: str) -> ZwanzigerState:
    level = s.level(item) + 1
    levels = (*((i, v) for i, v in s.levels if i != item), (item, level))
    return evolve(
        s,
        levels=levels,
        accepted=s.accepted | {seat},
        passes=0,
        facts=(*s.facts, Fact(seat, MoveKind.KONTRA, item, level)),
    )


# What each statement does, by move kind (a dict: enum members are slow to look up one by one).
_STATEMENTS: dict[str, Callable[[ZwanzigerState, int, str], ZwanzigerState]] = {
    MoveKind.BID: _new_game,
    MoveKind.ANNOUNCE: _announce,
    MoveKind.KONTRA: _raise,
}
