"""An R2 bucket on the local disk, shaped like the binding seen through the SDK.

Shapes: docs/platform.md §7.

Layout: each object is two files under `directory/objects/`, named by the SHA-256 of its key so
that no key (`../x`, `/abs`, 1,024-byte names) can escape the directory or exceed a file-name
limit: `<hash>.bin` holds the bytes, `<hash>.json` the key and metadata. Both are written to a
temporary file and renamed into place, data first, so a reader never sees a half-written file and
a crash leaves at worst an orphan `.bin` that no metadata points to.

`list()` reads every sidecar; the local buckets hold reports for a handful of audits, so this is
simpler than an index and fast enough.

`faults` makes operations fail on demand, the way a production bucket sometimes does (an outage, a
throttled account): `faults.fail_next("put", n)` makes the next n puts raise `JsException`, and
`faults.fail_always("get")` every get until `faults.clear()`. Code that must survive R2 failing is
tested with them.
"""

from __future__ import annotations

import base64
import builtins
import datetime as dt
import hashlib
import json
import os
import tempfile
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from local_platform.clock import Clock, SystemClock
from local_platform.errors import JsException
from local_platform.http import BodyStream
from local_platform.rpc import JsDict, crossing

__all__ = ["LocalR2Bucket", "R2Faults", "R2Object", "R2ObjectBody"]

MAX_KEY_BYTES = 1024
MAX_METADATA_BYTES = 8192
MAX_LIST_LIMIT = 1000
MAX_DELETE_KEYS = 1000
_BODY_USED = "Body has already been used. It can only be used once. Use tee() first if you need to read it twice."


def _r2_error(operation: str, message: str, code: int) -> JsException:
    # Assumption: production texts look like "put: <message> (<code>)"; exact wording unverified.
    return JsException("Error", f"{operation}: {message} ({code})")


class R2Faults:
    """Fault injection per operation name (`put`, `get`, `head`, `delete`, `list`)."""

    def __init__(self) -> None:
        self._next: dict[str, int] = {}
        self._always: set[str] = set()

    def fail_next(self, operation: str, n: int = 1) -> None:
        self._next[operation] = self._next.get(operation, 0) + n

    def fail_always(self, operation: str) -> None:
        self._always.add(operation)

    def clear(self) -> None:
        self._next.clear()
        self._always.clear()

    def check(self, operation: str) -> None:
        """Raise the injected failure for `operation`, if one is due."""
        pending = self._next.get(operation, 0)
        if operation not in self._always and pending == 0:
            return
        self._next[operation] = max(0, pending - 1)
        raise _r2_error(operation, "We encountered an internal error. Please try again.", 10001)


class R2Object:
    """Object metadata; attribute access (`obj.key`) and item access (`obj["key"]`) both work."""

    def __init__(self, meta: Mapping[str, Any], range_: Mapping[str, int] | None = None) -> None:
        self.key: str = meta["key"]
        self.size: int = meta["size"]
        self.etag: str = meta["etag"]
        self.httpEtag: str = f'"{meta["etag"]}"'
        self.version: str = meta["version"]
        self.uploaded: dt.datetime = crossing(
            dt.datetime.fromtimestamp(meta["uploaded_ms"] / 1000, dt.UTC)
        )
        self.storageClass: str = "Standard"
        self.httpMetadata: JsDict = crossing(_http_metadata_out(meta["httpMetadata"]))
        self.customMetadata: JsDict = crossing(dict(meta["customMetadata"]))
        self.checksums: JsDict = JsDict({"md5": meta["etag"]})
        self.range: JsDict | None = JsDict(range_) if range_ is not None else None

    def __getitem__(self, name: str) -> Any:
        try:
            return getattr(self, name)
        except AttributeError:
            raise KeyError(name) from None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(key={self.key!r}, size={self.size})"


class R2ObjectBody(R2Object):
    """`get()`'s result: the metadata plus a one-shot body."""

    def __init__(
        self, meta: Mapping[str, Any], data: bytes, range_: Mapping[str, int] | None
    ) -> None:
        super().__init__(meta, range_)
        self.body = BodyStream.from_bytes(data)

    @property
    def bodyUsed(self) -> bool:
        return self.body.used

    async def arrayBuffer(self) -> memoryview:
        return memoryview(await self._read())

    async def bytes(self) -> builtins.bytes:
        return await self._read()

    async def text(self) -> str:
        return (await self._read()).decode("utf-8", errors="replace")

    async def json(self) -> Any:
        return crossing(json.loads(await self.text()))

    async def _read(self) -> builtins.bytes:
        if self.body.used:
            raise JsException("TypeError", _BODY_USED)
        return await self.body.read_all()


class LocalR2Bucket:
    """`env.BUCKET`: put, get, head, delete, list."""

    def __init__(self, directory: str | os.PathLike[str], *, clock: Clock | None = None) -> None:
        self._clock = clock or SystemClock()
        self.faults = R2Faults()
        self._objects = Path(directory) / "objects"
        self._objects.mkdir(parents=True, exist_ok=True)

    async def put(
        self,
        key: str,
        value: str | bytes | memoryview | None,
        httpMetadata: Mapping[str, Any] | None = None,
        customMetadata: Mapping[str, str] | None = None,
    ) -> R2Object:
        self.faults.check("put")
        _check_key("put", key)
        data = _value_bytes(value)
        meta = {
            "key": key,
            "size": len(data),
            "etag": hashlib.md5(data, usedforsecurity=False).hexdigest(),
            "version": uuid.uuid4().hex,
            "uploaded_ms": int(self._clock.now_ms()),
            "httpMetadata": _http_metadata(httpMetadata),
            "customMetadata": _custom_metadata(customMetadata),
        }
        path = self._path(key)
        _atomic_write(path.with_suffix(".bin"), data)
        _atomic_write(path.with_suffix(".json"), json.dumps(meta).encode())
        return R2Object(meta)

    async def get(self, key: str, range: Mapping[str, int] | None = None) -> R2ObjectBody | None:
        self.faults.check("get")
        _check_key("get", key)
        meta = self._read_meta(key)
        if meta is None:
            return None
        data = self._path(key).with_suffix(".bin").read_bytes()
        if range is None:
            return R2ObjectBody(meta, data, None)
        offset, length = _resolve_range(range, len(data))
        return R2ObjectBody(
            meta, data[offset : offset + length], {"offset": offset, "length": length}
        )

    async def head(self, key: str) -> R2Object | None:
        self.faults.check("head")
        _check_key("head", key)
        meta = self._read_meta(key)
        return None if meta is None else R2Object(meta)

    async def delete(self, keys: str | list[str]) -> None:
        self.faults.check("delete")
        batch = [keys] if isinstance(keys, str) else list(keys)
        if len(batch) > MAX_DELETE_KEYS:
            raise _r2_error(
                "delete", f"At most {MAX_DELETE_KEYS} keys can be deleted at once.", 10001
            )
        for key in batch:
            _check_key("delete", key)
            path = self._path(key)
            # Metadata first: once it is gone the object is gone, even if the data file lingers.
            path.with_suffix(".json").unlink(missing_ok=True)
            path.with_suffix(".bin").unlink(missing_ok=True)

    async def list(
        self,
        prefix: str = "",
        limit: int = MAX_LIST_LIMIT,
        cursor: str | None = None,
        delimiter: str | None = None,
        include: builtins.list[str] | None = None,
    ) -> JsDict:
        self.faults.check("list")
        if not 1 <= limit <= MAX_LIST_LIMIT:
            raise _r2_error("list", f"limit must be between 1 and {MAX_LIST_LIMIT}", 10022)
        entries = _listing(self._all_meta(prefix), prefix, delimiter, _decode_cursor(cursor))
        page, more = entries[:limit], len(entries) > limit
        fields = set(include or ())
        return JsDict(
            objects=[_listed(meta, fields) for kind, meta in page if kind == "object"],
            delimitedPrefixes=[name for kind, name in page if kind == "prefix"],
            truncated=more,
            cursor=_encode_cursor(page[-1]) if more else None,
        )

    def _path(self, key: str) -> Path:
        return self._objects / hashlib.sha256(key.encode("utf-8")).hexdigest()

    def _read_meta(self, key: str) -> dict[str, Any] | None:
        try:
            meta: dict[str, Any] = json.loads(self._path(key).with_suffix(".json").read_bytes())
            return meta
        except FileNotFoundError:
            return None

    def _all_meta(self, prefix: str) -> builtins.list[dict[str, Any]]:
        metas = []
        for path in self._objects.glob("*.json"):
            try:
                meta = json.loads(path.read_bytes())
            except FileNotFoundError:
                continue  # deleted while listing
            if meta["key"].startswith(prefix):
                metas.append(meta)
        return sorted(metas, key=lambda meta: meta["key"])


def _check_key(operation: str, key: object) -> None:
    if not isinstance(key, str):
        raise JsException("TypeError", f"{operation}: key must be a string")
    if len(key.encode("utf-8")) > MAX_KEY_BYTES:
        raise _r2_error(
            operation,
            f"The specified object name is not valid (over {MAX_KEY_BYTES} bytes).",
            10020,
        )


def _value_bytes(value: object) -> bytes:
    if value is None:
        return b""
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, (bytes, memoryview)):
        return bytes(value)
    raise JsException("TypeError", f"put: unsupported value type {type(value).__name__}")


def _http_metadata(metadata: Mapping[str, Any] | None) -> dict[str, Any]:
    result = dict(metadata or {})
    expiry = result.get("cacheExpiry")
    if isinstance(expiry, dt.datetime):  # a JS Date: stored as epoch ms, read back as a datetime
        result["cacheExpiry"] = _datetime_ms(crossing(expiry).replace(tzinfo=dt.UTC))
    return result


def _http_metadata_out(stored: Mapping[str, Any]) -> dict[str, Any]:
    result = dict(stored)
    if isinstance(result.get("cacheExpiry"), (int, float)):
        result["cacheExpiry"] = dt.datetime.fromtimestamp(result["cacheExpiry"] / 1000, dt.UTC)
    return result


def _custom_metadata(metadata: Mapping[str, str] | None) -> dict[str, str]:
    result = {str(k): str(v) for k, v in (metadata or {}).items()}
    size = sum(len(k.encode()) + len(v.encode()) for k, v in result.items())
    if size > MAX_METADATA_BYTES:
        raise _r2_error(
            "put",
            f"Your metadata headers exceed the maximum allowed metadata size ({size} > {MAX_METADATA_BYTES} bytes).",
            10012,
        )
    return result


def _datetime_ms(when: dt.datetime) -> int:
    return round(when.timestamp() * 1000)


def _atomic_write(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _resolve_range(range_: Mapping[str, int], size: int) -> tuple[int, int]:
    """`{"offset", "length"}` (either optional) or `{"suffix"}` -> (offset, length) within size."""
    if "suffix" in range_:
        suffix = int(range_["suffix"])
        return max(0, size - suffix), min(suffix, size)
    offset = int(range_.get("offset", 0))
    length = int(range_.get("length", size - offset))
    if offset < 0 or length < 0 or (offset > size or (offset == size and size > 0)):
        raise _r2_error("get", "The requested range is not satisfiable", 10039)
    return offset, min(length, size - offset)


def _listing(
    metas: builtins.list[dict[str, Any]], prefix: str, delimiter: str | None, after: str | None
) -> builtins.list[tuple[str, Any]]:
    """Keys past the cursor, with keys sharing a delimited prefix rolled up into that prefix."""
    entries: builtins.list[tuple[str, Any]] = []
    for meta in metas:
        key = meta["key"]
        rolled = _rolled_prefix(key, prefix, delimiter)
        position = rolled or key
        if after is not None and position <= after:
            continue
        if rolled:
            if not (entries and entries[-1] == ("prefix", rolled)):
                entries.append(("prefix", rolled))
        else:
            entries.append(("object", meta))
    return entries


def _rolled_prefix(key: str, prefix: str, delimiter: str | None) -> str | None:
    if not delimiter:
        return None
    cut = key.find(delimiter, len(prefix))
    return None if cut < 0 else key[: cut + len(delimiter)]


def _listed(meta: dict[str, Any], include: set[str]) -> R2Object:
    # Listed objects carry metadata only when asked for with `include` (r2_list_honor_include).
    shown = dict(meta)
    for field in ("httpMetadata", "customMetadata"):
        if field not in include:
            shown[field] = {}
    return R2Object(shown)


def _encode_cursor(entry: tuple[str, Any]) -> str:
    kind, value = entry
    position = value["key"] if kind == "object" else value
    return base64.urlsafe_b64encode(position.encode("utf-8")).decode("ascii")


def _decode_cursor(cursor: str | None) -> str | None:
    if not cursor:
        return None
    try:
        return base64.urlsafe_b64decode(cursor.encode("ascii")).decode("utf-8")
    except (ValueError, UnicodeError):
        raise _r2_error("list", "The cursor is not valid", 10022) from None
