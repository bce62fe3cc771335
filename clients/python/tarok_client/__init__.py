"""tarok_client: generated stubs, a small SDK, bots and the `tarok` command line."""

from .sdk import Client, Seat, TarokError, connect

__all__ = ["Client", "Seat", "TarokError", "connect"]
