"""Bots that play through what a seat may see: its view and legal moves."""

from __future__ import annotations

import random

from tarok_proto.tarok.v1 import views_pb2

from .sdk import Seat


class RandomBot:
    """Picks uniformly among the legal moves, except that in an auction it passes with
    probability `pass_bias` (uniform bidding would make nearly every game a valat)."""

    def __init__(self, seed: int | None = None, pass_bias: float = 0.7) -> None:
        self.rng = random.Random(seed)
        self.pass_bias = pass_bias

    def choose(self, view: views_pb2.TableView) -> str:
        """The id of the move to make in `view` (it must be this seat's turn)."""
        legal = view.hand.legal_moves
        bidding = any(m.kind == "bid" for m in legal)
        passes = [m for m in legal if m.kind == "pass"]
        if bidding and passes and self.rng.random() < self.pass_bias:
            return passes[0].id
        return self.rng.choice(legal).id


def play(seat: Seat, bot: RandomBot | None = None) -> None:
    """Play every turn of `seat` until the table finishes."""
    bot = bot or RandomBot()
    for view in seat.my_turns():
        seat.submit(bot.choose(view), expected_version=view.version)
