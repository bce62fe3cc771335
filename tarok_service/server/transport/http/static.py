"""Static files (the built web table) served from one directory on the HTTP port.

GET and HEAD only; paths are resolved inside the directory (no `..`, no symlinks out of it);
`/` and unknown paths without a file extension serve `index.html` (a single-page app's
routes), anything else missing is 404.
"""

from __future__ import annotations

import asyncio
import mimetypes
from pathlib import Path
from urllib.parse import unquote

from .asgi import Receive, Scope, Send, respond

INDEX = "index.html"
MAX_PATH = 1024  # characters of a URL path; longer ones are answered 414


class StaticFiles:
    """An ASGI app serving the files under `root`."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root).resolve()

    def find(self, url_path: str) -> Path | None:
        """The file a URL path names (None if missing or outside the root)."""
        relative = unquote(url_path).lstrip("/")
        if "\x00" in relative:
            return None
        try:
            candidate = (self.root / relative).resolve()
            if not candidate.is_relative_to(self.root):
                return None
            if candidate.is_dir():
                candidate = candidate / INDEX
            if candidate.is_file():
                return candidate
        except OSError:  # a name too long for the file system, and the like: not a file
            return None
        if "." not in Path(relative).name:
            index = self.root / INDEX
            return index if index.is_file() else None
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        method = scope["method"]
        if method not in ("GET", "HEAD"):
            await respond(send, 405, b"method not allowed\n", [(b"allow", b"GET, HEAD")])
            return
        if len(scope["path"]) > MAX_PATH:
            await respond(send, 414, b"path too long\n")
            return
        found = self.find(scope["path"])
        if found is None:
            await respond(send, 404, b"not found\n")
            return
        body = await asyncio.to_thread(found.read_bytes)
        kind = mimetypes.guess_type(found.name)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind in ("application/javascript", "application/json"):
            kind += "; charset=utf-8"
        cache = b"no-cache" if found.name == INDEX else b"public, max-age=3600"
        await respond(
            send, 200, body, [(b"cache-control", cache)], kind.encode(), head=method == "HEAD"
        )
