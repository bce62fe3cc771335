"""The token signing key kept in a file, so seat tokens survive a restart.

On first start the file is created with a fresh random key, readable by its owner only
(0600, created exclusively: two processes starting at once end up with the same key). Later
starts read it back. Replicas share the key by sharing the file (or by --secret/TAROK_SECRET).
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

KEY_BYTES = 32
MIN_KEY_CHARS = 32


class KeyFileError(ValueError):
    """The key file cannot be used (unreadable, too permissive or too short)."""


def load_or_create(path: str | Path) -> bytes:
    """The key in `path`, created (mode 0600) with a random key if it does not exist."""
    target = Path(path)
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read(target)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(secrets.token_hex(KEY_BYTES) + "\n")
    return _read(target)


def _read(path: Path) -> bytes:
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        raise KeyFileError(f"{path} must be readable by its owner only (chmod 600 {path})")
    key = path.read_text(encoding="ascii").strip()
    if len(key) < MIN_KEY_CHARS:
        raise KeyFileError(f"{path} holds no key of at least {MIN_KEY_CHARS} characters")
    return key.encode()
