"""The tournament feature plugs its gate into the shared context: the server core never
imports it, and without it a tournament's tables stay sealed (the gate fails closed)."""

from __future__ import annotations

import asyncio

from tarok_service.server.config import ServerConfig
from tarok_service.server.tournaments.app import TournamentApp
from tarok_service.server.usecases.context import Context
from tarok_service.store import open_store

CONFIG = ServerConfig(store_url="memory:", host="127.0.0.1", port=0, secret=b"k")


def test_core_alone_keeps_tournament_tables_sealed_and_the_feature_installs_its_gate() -> None:
    async def run() -> tuple[bool, bool]:
        store = open_store("sqlite:///:memory:")
        await store.open()
        try:
            ctx = Context(store, CONFIG)
            without = await ctx.tournament_over("no-such-tournament")
            TournamentApp(ctx)
            with_feature = await ctx.tournament_over("no-such-tournament")
            return without, with_feature
        finally:
            await store.close()

    without, with_feature = asyncio.run(run())
    assert without is False  # no feature: sealed
    assert with_feature is True  # the feature knows there is no such tournament to seal
