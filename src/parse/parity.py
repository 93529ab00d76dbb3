"""Parity between the streaming extractor and the html5lib reference, page by page.

Used by the tests and by `python -m parse parity DIR`.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterable, Iterator
from pathlib import Path

from parse.extractor import DEFAULT_MAX_BYTES, PageExtractor
from parse.facts import PageFacts
from parse.reference import reference_facts

PARITY_URL = "https://example.test/dir/page.html"


def read_page(path: Path) -> bytes:
    """A page's bytes, gunzipped when the file name ends in .gz."""
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def page_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.iterdir() if p.name.endswith((".html", ".htm", ".html.gz")))


def extract(
    data: bytes,
    chunks: Iterable[int] | None = None,
    *,
    page_url: str = PARITY_URL,
    content_type: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> PageFacts:
    """Run the extractor over `data`, split at the given chunk sizes (cycled), or whole."""
    extractor = PageExtractor(page_url, content_type=content_type, max_bytes=max_bytes)
    for piece in split(data, chunks):
        extractor.feed(piece)
    return extractor.close()


def split(data: bytes, chunks: Iterable[int] | None) -> Iterator[bytes]:
    if chunks is None:
        yield data
        return
    sizes = list(chunks) or [len(data) or 1]
    pos, i = 0, 0
    while pos < len(data):
        size = max(1, sizes[i % len(sizes)])
        yield data[pos : pos + size]
        pos, i = pos + size, i + 1


def diff(expected: object, actual: object, path: str = "") -> list[str]:
    """Human-readable differences between two plain (to_dict) values."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = []
        for key in expected.keys() | actual.keys():
            out += diff(expected.get(key), actual.get(key), f"{path}.{key}")
        return out
    if isinstance(expected, list) and isinstance(actual, list):
        out = []
        for i in range(max(len(expected), len(actual))):
            e = expected[i] if i < len(expected) else "<absent>"
            a = actual[i] if i < len(actual) else "<absent>"
            out += diff(e, a, f"{path}[{i}]")
            if len(out) > 20:
                return [*out, "..."]
        return out
    return [] if expected == actual else [f"{path}: reference={expected!r} extractor={actual!r}"]


def compare(
    data: bytes,
    chunks: Iterable[int] | None = None,
    *,
    page_url: str = PARITY_URL,
    content_type: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> list[str]:
    """Differences between reference and extractor facts for one page (empty = parity)."""
    expected = reference_facts(data, page_url, content_type=content_type, max_bytes=max_bytes)
    actual = extract(
        data, chunks, page_url=page_url, content_type=content_type, max_bytes=max_bytes
    )
    return diff(expected.to_dict(), actual.to_dict())
