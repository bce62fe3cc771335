"""The SQLite sync mode option: FULL by default, NORMAL only when asked for."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from tarok_client.cli import _parser

from tarok_service.server.config import ServerConfig
from tarok_service.store import NewEvent, SqliteEventStore, open_store

NOW = 1_700_000_000.0
PRAGMA_VALUES = {"full": 2, "normal": 1}  # what `PRAGMA synchronous` reports


def _mode_in_use(store: SqliteEventStore) -> int:
    """The sync level of the store's own connection (read on its worker thread)."""

    async def body() -> int:
        await store.open()
        try:
            await store.append("t", 0, [NewEvent("E", b"x")], NOW)
            return await store._run(
                lambda: int(store._db().execute("PRAGMA synchronous").fetchone()[0])
            )
        finally:
            await store.close()

    return asyncio.run(body())


def test_default_is_full(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'a.db'}")
    assert isinstance(store, SqliteEventStore)
    assert store.synchronous == "full"
    assert _mode_in_use(store) == PRAGMA_VALUES["full"]
    assert ServerConfig().sqlite_sync == "full"


@pytest.mark.parametrize("mode", ["full", "normal"])
def test_mode_is_applied(tmp_path: Path, mode: str) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'b.db'}", sqlite_sync=mode)
    assert isinstance(store, SqliteEventStore)
    assert _mode_in_use(store) == PRAGMA_VALUES[mode]
    with sqlite3.connect(tmp_path / "b.db") as conn:  # the append is in the file
        assert conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 1


@pytest.mark.parametrize("mode", ["off", "FULL", ""])
def test_unknown_mode_is_refused(mode: str) -> None:
    with pytest.raises(ValueError, match="sync mode"):
        SqliteEventStore(":memory:", synchronous=mode)


def test_cli_option() -> None:
    args = _parser().parse_args(["serve"])
    assert args.sqlite_sync == "full"
    args = _parser().parse_args(["serve", "--sqlite-sync", "normal"])
    assert args.sqlite_sync == "normal"
    with pytest.raises(SystemExit):
        _parser().parse_args(["serve", "--sqlite-sync", "off"])
