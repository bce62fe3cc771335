"""Moves with stable ids, the typed error raised for an illegal one, and the one raised for a
programming error (a state or rule set that cannot arise, never a client's fault)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Reason(StrEnum):
    """The stable reason codes carried by IllegalMove (and by google.rpc.ErrorInfo in the
    service): a member's name is its wire value."""

    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    HAND_FINISHED = "HAND_FINISHED"
    UNKNOWN_MOVE = "UNKNOWN_MOVE"
    WRONG_PHASE = "WRONG_PHASE"
    CARD_NOT_IN_HAND = "CARD_NOT_IN_HAND"
    MUST_FOLLOW_SUIT = "MUST_FOLLOW_SUIT"
    MUST_PLAY_TAROK = "MUST_PLAY_TAROK"
    MUST_OVERTAKE = "MUST_OVERTAKE"
    PAGAT_MUST_BE_HELD_BACK = "PAGAT_MUST_BE_HELD_BACK"
    ANNOUNCED_CARD_MUST_BE_HELD = "ANNOUNCED_CARD_MUST_BE_HELD"
    PAGAT_ONLY_AS_LAST_TAROK = "PAGAT_ONLY_AS_LAST_TAROK"  # Czech varsava
    MOND_UNDER_SKIS = "MOND_UNDER_SKIS"  # Czech varsava: XXI never into a trick holding the skis
    BID_NOT_ALLOWED = "BID_NOT_ALLOWED"
    BID_TOO_LOW = "BID_TOO_LOW"
    PASS_NOT_ALLOWED = "PASS_NOT_ALLOWED"
    CALL_NOT_ALLOWED = "CALL_NOT_ALLOWED"
    DISCARD_NOT_ALLOWED = "DISCARD_NOT_ALLOWED"
    ANNOUNCEMENT_NOT_ALLOWED = "ANNOUNCEMENT_NOT_ALLOWED"
    KONTRA_NOT_ALLOWED = "KONTRA_NOT_ALLOWED"
    ILLEGAL_MOVE = "ILLEGAL_MOVE"
    NO_SUCH_TALON_GROUP = (
        "NO_SUCH_TALON_GROUP"  # a talon pick naming a group the talon does not have
    )
    TAROK_LEAD_NOT_ALLOWED = "TAROK_LEAD_NOT_ALLOWED"
    FOREHAND_MUST_ANNOUNCE = "FOREHAND_MUST_ANNOUNCE"
    ALREADY_ACCEPTED_THE_GAME = "ALREADY_ACCEPTED_THE_GAME"
    CALL_FOREHAND_ONLY = "CALL_FOREHAND_ONLY"
    NO_TAROK_TO_CALL = "NO_TAROK_TO_CALL"
    COLOUR_SOLO_NEEDS_SUIT_CARDS = "COLOUR_SOLO_NEEDS_SUIT_CARDS"
    NO_GAME_ANNOUNCED_YET = "NO_GAME_ANNOUNCED_YET"
    ABSOLUT_NEEDS_KONTRA = "ABSOLUT_NEEDS_KONTRA"
    ONLY_KONTRA_ON_VALAT = "ONLY_KONTRA_ON_VALAT"
    TRULL_HOLDER_MUST_KONTRA = "TRULL_HOLDER_MUST_KONTRA"
    ALREADY_ANNOUNCED = "ALREADY_ANNOUNCED"
    NOT_ANNOUNCED = "NOT_ANNOUNCED"
    PAGAT_NOT_HELD = "PAGAT_NOT_HELD"
    NOT_IN_COLOUR_SOLO = "NOT_IN_COLOUR_SOLO"
    KONTRA_BY_WRONG_SIDE = "KONTRA_BY_WRONG_SIDE"
    KONTRA_LIMIT_REACHED = "KONTRA_LIMIT_REACHED"
    TURN_ALREADY_STARTED = (
        "TURN_ALREADY_STARTED"  # a pass or a second game after a statement this turn
    )
    NOTHING_SAID_THIS_TURN = "NOTHING_SAID_THIS_TURN"  # ending a turn in which nothing was said


class MoveKind(StrEnum):
    """The move kinds of the shipped rule sets (`Move.kind`; a rule set may add kinds of its own
    in a StrEnum). A member's name is its wire value in capitals (`pass` is a Python keyword),
    so a search for either finds both. Public facts that record a move carry its kind."""

    BID = "bid"  # bid:<contract, game or obligation>
    PASS = "pass"
    CALL = "call"  # call:<card code or king>
    TALON = "talon"  # talon:<group index, card code, keep or reject>
    DISCARD = "discard"  # discard:<card code>
    ANNOUNCE = "announce"  # announce:<item>
    KONTRA = "kontra"  # kontra:<item>: the item's kontra level one up
    PLAY = "play"  # play:<card code>
    END = "end"  # ends a turn of statements (Zwanzigerrufen)
    DECLARE = "declare"  # declare the combinations held (Tarocco bolognese)
    GIVE = "give"  # give:<card>, a card for the Matto (Tarocco bolognese)


@dataclass(frozen=True, slots=True)
class Move:
    """A move: its kind ("bid", "play", "call", ...) and an argument (contract, card code ...)."""

    kind: str
    value: str = ""

    @property
    def id(self) -> str:
        return f"{self.kind}:{self.value}" if self.value else self.kind

    @staticmethod
    def parse(move_id: str) -> Move:
        kind, _, value = move_id.partition(":")
        if not kind:
            raise IllegalMove(Reason.UNKNOWN_MOVE, f"malformed move id {move_id!r}")
        return Move(kind, value)

    def __str__(self) -> str:
        return self.id


_SHARED: dict[tuple[str, str], Move] = {}


def shared_move(kind: str, value: str = "") -> Move:
    """`Move(kind, value)`, one object per distinct move (moves are immutable): legal-move
    lists are built many times over from the same few moves."""
    key = (kind, value)
    found = _SHARED.get(key)
    if found is None:
        found = _SHARED[key] = Move(kind, value)
    return found


class IllegalMove(ValueError):
    """A move the rules do not allow now; `reason` is a stable machine-readable code."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


class EngineBug(RuntimeError):
    """A programming error in the rules (a phase without handlers, a state that cannot arise):
    never a rule reason; the service answers INTERNAL and logs it with its traceback."""
