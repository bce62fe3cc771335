from collections.abc import Sequence

class Game:
    def __init__(
        self,
        players: int,
        suits: Sequence[int],
        ranks: Sequence[int],
        packs: Sequence[int],
        values: Sequence[int],
        trump: int,
        flags: Sequence[int],
        excuse: int,
        table_bits: int = 20,
    ) -> None: ...
    def legal(
        self, hand: Sequence[int], trick: Sequence[int], held: Sequence[int] = ()
    ) -> list[int]: ...
    def winner(self, trick: Sequence[int]) -> int: ...
    def solve(
        self,
        hands: Sequence[Sequence[int]],
        trick: Sequence[int],
        turn: int,
        team: int,
        held: Sequence[Sequence[int]] = (),
        bonus: int = 0,
        stop_win: bool = False,
        stop_loss: bool = False,
        horizon: int = -1,
        node_limit: int = 0,
        seconds: float = 0.0,
    ) -> tuple[list[tuple[int, int]], int] | None: ...
