"""Which of our modules one SubmitMove over gRPC passes through, on the server's thread.

    .venv/bin/python bench/move_walk.py                  # this checkout
    .venv/bin/python bench/move_walk.py --src /tmp/old   # another checkout's code (its tests/)

An in-process server (SQLite in memory) gets a table with four seated players, who bid and
play the first legal move until a card has been played (the warm-up); then a profile hook
on the event loop's thread records every Python call made while the next card play is
submitted and answered. Printed: the modules of `tarok_service` entered (in the order first
entered, with how often control came into each from another module) and the counts, server
modules apart. The access-log writer thread is not on the move's path and not counted.
docs/architecture.md quotes the numbers.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

PLAY = "play"  # the kind of a card played into a trick


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parents[1])
    args = parser.parse_args()
    root = args.src.resolve()
    sys.path[:0] = [str(root), str(root / "clients" / "python")]
    from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

    from tests.service.harness import ServerThread, config, new_table, view

    server = ServerThread(config())
    try:
        _, tokens = new_table(server.stub)
        plays = 0
        while plays < 2:  # up to the second card played: a warm-up play, then the measured one
            seat = view(server.stub, tokens[0]).hand.turn
            move = view(server.stub, tokens[seat]).hand.legal_moves[0]
            request = svc.SubmitMoveRequest(token=tokens[seat], move_id=move.id)
            plays += move.kind == PLAY
            if plays < 2:
                server.stub.SubmitMove(request)
        entries = walk(server, lambda: server.stub.SubmitMove(request), root)
    finally:
        server.stop()
    package = str(root / "tarok_service") + "/"
    names = [name.removeprefix(package) for name in entries]
    for name, count in zip(names, entries.values(), strict=True):
        print(f"{count:3d}  {name}")
    server_modules = [n for n in names if n.startswith("server/")]
    print(f"modules: {len(names)} of tarok_service, {len(server_modules)} of them in server/")


def walk(server: Any, call: Any, root: Path) -> Counter[str]:
    """Our source files entered on the server's loop thread during `call()`, in order, with
    how often each was entered from another file."""
    package = str(root / "tarok_service") + "/"
    entries: Counter[str] = Counter()

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event != "call":
            return
        name = frame.f_code.co_filename
        if not name.startswith(package):
            return
        caller = frame.f_back.f_code.co_filename if frame.f_back is not None else ""
        if caller != name:
            entries[name] += 1

    async def start() -> None:
        sys.setprofile(profile)

    async def stop() -> None:
        sys.setprofile(None)

    server.run(start())
    try:
        call()
    finally:
        server.run(stop())
    return entries


if __name__ == "__main__":
    main()
