"""`LocalR2Bucket`: the R2 binding's shapes on the local disk (docs/platform.md §7)."""

from __future__ import annotations

import datetime as dt
import hashlib
import os

import pytest

from local_platform.clock import ManualClock
from local_platform.errors import JsException
from local_platform.r2 import LocalR2Bucket
from local_platform.rpc import JsDict

START_MS = 1_767_225_600_000  # 2026-01-01T00:00:00Z


@pytest.fixture
def bucket(tmp_path) -> LocalR2Bucket:
    return LocalR2Bucket(tmp_path / "bucket", clock=ManualClock(START_MS))


@pytest.mark.parametrize(
    ("value", "data"),
    [
        ("héllo", "héllo".encode()),
        (b"\x00\xff", b"\x00\xff"),
        (memoryview(b"mv"), b"mv"),
        (None, b""),
    ],
)
async def test_put_returns_the_object_and_get_returns_the_bytes(bucket, value, data: bytes) -> None:
    put = await bucket.put("k", value)
    assert (put.key, put["key"], put.size, put["size"]) == ("k", "k", len(data), len(data))
    assert put.etag == hashlib.md5(data).hexdigest()
    assert put.httpEtag == f'"{put.etag}"'
    assert put.storageClass == "Standard"
    assert put.uploaded == dt.datetime(2026, 1, 1)  # naive UTC, as a JS Date crosses
    body = await bucket.get("k")
    assert body.version == put.version
    assert bytes(await body.arrayBuffer()) == data


async def test_body_readers_and_body_used(bucket) -> None:
    await bucket.put("doc.json", '{"a": {"b": [1, 2]}}')
    body = await bucket.get("doc.json")
    assert body["bodyUsed"] is False
    parsed = await body.json()
    assert parsed == {"a": {"b": [1, 2]}} and isinstance(parsed, JsDict)
    assert body.bodyUsed is True
    with pytest.raises(JsException, match="Body has already been used"):
        await body.text()


async def test_body_streams_as_chunks(bucket) -> None:
    await bucket.put("s", b"streamed")
    body = await bucket.get("s")
    assert b"".join([chunk.to_bytes() async for chunk in body.body]) == b"streamed"


async def test_metadata_round_trips(bucket) -> None:
    http = {"contentType": "text/html", "cacheControl": "max-age=60"}
    await bucket.put("m", "x", httpMetadata=http, customMetadata={"audit": "42"})
    head = await bucket.head("m")
    assert head["httpMetadata"] == http and isinstance(head.httpMetadata, JsDict)
    assert head.customMetadata == {"audit": "42"}
    assert not hasattr(head, "text")


async def test_overwrite_changes_version_and_etag(bucket) -> None:
    first = await bucket.put("k", "one")
    second = await bucket.put("k", "two")
    assert first.version != second.version and first.etag != second.etag
    assert await (await bucket.get("k")).text() == "two"


async def test_missing_objects(bucket) -> None:
    assert await bucket.get("nope") is None
    assert await bucket.head("nope") is None
    await bucket.delete("nope")  # deleting a missing key is not an error


@pytest.mark.parametrize(
    ("range_", "expected", "reported"),
    [
        ({"offset": 4, "length": 6}, b"456789", {"offset": 4, "length": 6}),
        ({"offset": 8}, b"89abcdef", {"offset": 8, "length": 8}),
        ({"length": 3}, b"012", {"offset": 0, "length": 3}),
        ({"offset": 14, "length": 10}, b"ef", {"offset": 14, "length": 2}),
        ({"suffix": 4}, b"cdef", {"offset": 12, "length": 4}),
        ({"suffix": 100}, b"0123456789abcdef", {"offset": 0, "length": 16}),
    ],
)
async def test_ranged_get(bucket, range_, expected: bytes, reported) -> None:
    await bucket.put("r", "0123456789abcdef")
    body = await bucket.get("r", range=range_)
    assert await body.bytes() == expected
    assert body.range == reported
    assert body.size == 16  # the object's size, not the range's


async def test_unsatisfiable_range(bucket) -> None:
    await bucket.put("r", "0123")
    with pytest.raises(JsException, match="range is not satisfiable"):
        await bucket.get("r", range={"offset": 10})


async def test_delete_one_and_many(bucket) -> None:
    for key in ("a", "b", "c"):
        await bucket.put(key, key)
    await bucket.delete("a")
    await bucket.delete(["b", "c"])
    assert (await bucket.list()).objects == []


@pytest.mark.parametrize(
    "key", ["../escape", "/etc/passwd", "a/../../b", "..", "a/b/c", "x" * 1024]
)
async def test_keys_never_escape_the_directory(tmp_path, key: str) -> None:
    root = tmp_path / "bucket"
    bucket = LocalR2Bucket(root)
    await bucket.put(key, "data")
    stored = await bucket.get(key)
    assert stored is not None and await stored.text() == "data"
    files = [os.path.join(d, f) for d, _, names in os.walk(tmp_path) for f in names]
    assert all(path.startswith(str(root) + os.sep) for path in files)
    assert [o.key for o in (await bucket.list()).objects] == [key]


@pytest.mark.parametrize("operation", ["put", "get", "head"])
async def test_key_over_1024_bytes_is_refused(bucket, operation: str) -> None:
    key = "é" * 513  # 1,026 UTF-8 bytes
    args = (key, "x") if operation == "put" else (key,)
    with pytest.raises(JsException, match="object name is not valid"):
        await getattr(bucket, operation)(*args)


async def test_custom_metadata_over_8192_bytes_is_refused(bucket) -> None:
    await bucket.put("ok", "x", customMetadata={"k": "v" * 8191})
    with pytest.raises(JsException, match="exceed the maximum allowed metadata size"):
        await bucket.put("big", "x", customMetadata={"k": "v" * 8192})
    assert await bucket.head("big") is None


async def test_objects_survive_a_new_bucket_instance(tmp_path) -> None:
    await LocalR2Bucket(tmp_path).put("persist", "kept")
    kept = await LocalR2Bucket(tmp_path).get("persist")
    assert kept is not None and await kept.text() == "kept"


async def test_no_temporary_files_are_left_behind(tmp_path) -> None:
    bucket = LocalR2Bucket(tmp_path)
    await bucket.put("k", "v")
    assert not [name for name in os.listdir(tmp_path / "objects") if name.startswith(".tmp-")]


async def test_list_prefix_order_and_include(bucket) -> None:
    for key in ("b/2", "a/1", "b/1", "c"):
        await bucket.put(key, key, customMetadata={"k": key})
    listed = await bucket.list(prefix="b/")
    assert isinstance(listed, JsDict)
    assert [o.key for o in listed.objects] == ["b/1", "b/2"]
    assert (listed.truncated, listed.cursor, listed.delimitedPrefixes) == (False, None, [])
    assert listed.objects[0].customMetadata == {}
    included = await bucket.list(prefix="b/", include=["customMetadata"])
    assert included.objects[0].customMetadata == {"k": "b/1"}


async def test_list_with_delimiter(bucket) -> None:
    for key in ("reports/a/1", "reports/a/2", "reports/b/1", "reports/top", "other"):
        await bucket.put(key, "x")
    listed = await bucket.list(prefix="reports/", delimiter="/")
    assert [o.key for o in listed.objects] == ["reports/top"]
    assert listed.delimitedPrefixes == ["reports/a/", "reports/b/"]


@pytest.mark.parametrize("delimiter", [None, "/"])
async def test_list_pagination_visits_everything_once(bucket, delimiter) -> None:
    keys = [f"d{i // 3}/{i}" for i in range(10)] + ["e", "f"]
    for key in keys:
        await bucket.put(key, "x")
    seen: list[str] = []
    cursor = None
    while True:
        page = await bucket.list(limit=2, cursor=cursor, delimiter=delimiter)
        seen += [o.key for o in page.objects] + page.delimitedPrefixes
        if not page.truncated:
            break
        cursor = page.cursor
    expected = sorted(keys) if delimiter is None else ["d0/", "d1/", "d2/", "d3/", "e", "f"]
    assert seen == expected


@pytest.mark.parametrize("limit", [0, 1001])
async def test_list_limit_bounds(bucket, limit: int) -> None:
    with pytest.raises(JsException, match="limit"):
        await bucket.list(limit=limit)


OPERATIONS = {
    "put": lambda b: b.put("k", b"new"),
    "get": lambda b: b.get("k"),
    "head": lambda b: b.head("k"),
    "delete": lambda b: b.delete("k"),
    "list": lambda b: b.list(),
}


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
async def test_fail_next_fails_that_many_calls_of_one_operation_and_nothing_else(
    bucket, operation: str
) -> None:
    await bucket.put("k", b"old")
    bucket.faults.fail_next(operation, 2)

    for _ in range(2):
        with pytest.raises(JsException, match=rf"^Error: {operation}: .*\(10001\)$"):
            await OPERATIONS[operation](bucket)
    others = [name for name in sorted(OPERATIONS) if name not in (operation, "delete")]
    for other in others:
        await OPERATIONS[other](bucket)
    await OPERATIONS[operation](bucket)


async def test_a_failed_put_leaves_the_old_object_in_place(bucket) -> None:
    await bucket.put("k", b"old")
    bucket.faults.fail_next("put")

    with pytest.raises(JsException):
        await bucket.put("k", b"new")
    assert await (await bucket.get("k")).bytes() == b"old"


async def test_fail_always_lasts_until_cleared(bucket) -> None:
    bucket.faults.fail_always("get")
    for _ in range(3):
        with pytest.raises(JsException):
            await bucket.get("k")

    bucket.faults.clear()
    assert await bucket.get("k") is None
