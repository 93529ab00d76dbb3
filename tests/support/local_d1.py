"""The local D1 database as the core code sees it."""

from typing import cast

from common.bindings import D1Database
from local_platform.d1 import LocalD1Database


def as_d1(db: LocalD1Database) -> D1Database:
    """`db` typed as the core's `D1Database`, which it is at run time. mypy cannot see it: the
    local `batch` answers `JsDict`s (dicts with attribute access, as the SDK converts JavaScript
    objects) where the Protocol names the `D1Result` TypedDict, and the local `prepare` names its
    parameter `sql` where the Protocol says `query`."""
    return cast(D1Database, db)
