"""Durable Object ids: 64 hex digits, derived from a name or random (docs/platform.md §1.3)."""

from __future__ import annotations

import hashlib
import re
import secrets

from local_platform.errors import js_type_error

_HEX_ID = re.compile(r"^[0-9a-f]{64}$")


class DurableObjectId:
    """`DurableObjectId`: 64 hex digits, with the name it was derived from when there is one."""

    def __init__(self, hex_id: str, name: str | None = None) -> None:
        self._hex = hex_id
        self.name = name

    def toString(self) -> str:
        return self._hex

    def equals(self, other: DurableObjectId) -> bool:
        return self._hex == other._hex

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DurableObjectId) and self._hex == other._hex

    def __hash__(self) -> int:
        return hash(self._hex)

    def __str__(self) -> str:
        return self._hex

    def __repr__(self) -> str:
        return f"DurableObjectId({self._hex!r}, name={self.name!r})"


def hex_from_name(class_name: str, name: str) -> str:
    """A stable id per (class, name). Assumption: any stable 256-bit digest will do locally."""
    return hashlib.sha256(f"{class_name}\0{name}".encode()).hexdigest()


def random_hex() -> str:
    return secrets.token_hex(32)


def checked_hex(hex_id: object) -> str:
    if not isinstance(hex_id, str) or not _HEX_ID.match(hex_id):
        raise js_type_error("Invalid Durable Object ID: must be 64 hex digits")
    return hex_id
