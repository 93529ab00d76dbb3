"""broken-fragment in the scratchpad: record_batch stores target sets and link fragments, and
finalize reports what `audit.cross_page.broken_fragments` (the specification) reports."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from audit.catalogue import IssueType
from audit.cross_page import FragmentRef, broken_fragments
from durable.finalize import FinalizeOptions, FinalizePage
from durable.records import FragmentLink, FragmentTargets, RecordBatch
from local_platform.runtime import LocalPlatform
from urls.fragment import fragment_key, fragment_keys

from .test_finalize import AUDIT, finalize_all, mirror_row, page, url

_names = itertools.count()


@pytest.fixture
def pad(platform: LocalPlatform) -> Any:
    return platform.env.AUDIT_SCRATCHPAD.getByName(f"fragments-{next(_names)}")


def ref(source: str, target: str, fragment: str) -> FragmentRef:
    keys = fragment_keys(fragment)
    assert keys is not None
    return FragmentRef(url(source), url(target), fragment, *keys)


async def write(
    pad: Any, targets: Mapping[str, Sequence[str]], refs: Sequence[FragmentRef], **batch: Any
) -> dict[str, frozenset[int]]:
    """Mirror rows for every page named, the target sets of `targets`, and the links; returns
    the target sets as the specification takes them."""
    paths = {*targets, *(r.source_url[len(url("")) :] for r in refs)}
    sets = {url(p): frozenset(fragment_key(t) for t in ids) for p, ids in targets.items()}
    record = RecordBatch(
        pages=tuple(mirror_row(AUDIT, page(p)) for p in sorted(paths)),
        fragment_targets=tuple(FragmentTargets(u, tuple(sorted(k))) for u, k in sets.items()),
        fragment_links=tuple(FragmentLink(**_fields(r)) for r in refs),
        **batch,
    )
    await pad.record_batch(record.to_dict())
    return sets


def _fields(r: FragmentRef) -> dict[str, Any]:
    return {
        "source_url": r.source_url,
        "target_url": r.target_url,
        "fragment": r.fragment,
        "key": r.key,
        "decoded_key": r.decoded_key,
    }


async def fragment_issues(pad: Any) -> list[dict[str, Any]]:
    issues, _ = await finalize_all(pad)
    return [i for i in issues if i["issue_type"] == IssueType.BROKEN_FRAGMENT]


async def test_missing_fragments_are_reported_on_the_linking_page(pad: Any) -> None:
    targets = {"doc": ["Intro", "a b", "r\u00e9sum\u00e9"], "empty": [], "a": ["self"]}
    refs = [
        ref("a", "doc", "Intro"),
        ref("a", "doc", "intro"),  # ids are case-sensitive
        ref("a", "doc", "a%20b"),  # found percent-decoded
        ref("a", "doc", "r%C3%A9sum%C3%A9"),
        ref("a", "doc", "gone"),
        ref("a", "a", "self"),
        ref("a", "a", "other"),  # a same-page link
        ref("b", "empty", "x"),
        ref("b", "unknown", "x"),  # no target set: never judged
    ]
    sets = await write(pad, targets, refs)
    issues = await fragment_issues(pad)
    assert issues == [i.to_dict() for i in broken_fragments(AUDIT, sets, refs)]
    found = sorted((i["page_url"], i["dedupe_key"]) for i in issues)
    assert found == [
        (url("a"), url("a") + "#other"),
        (url("a"), url("doc") + "#gone"),
        (url("a"), url("doc") + "#intro"),
        (url("b"), url("empty") + "#x"),
    ]
    assert {"targetUrl": url("doc"), "fragment": "gone"} in [i["details"] for i in issues]


async def test_a_retried_batch_replaces_a_pages_set(pad: Any) -> None:
    await write(pad, {"doc": ["old"]}, [])
    await write(pad, {"doc": ["new"]}, [ref("a", "doc", "old"), ref("a", "doc", "new")])
    assert [i["details"]["fragment"] for i in await fragment_issues(pad)] == ["old"]


async def test_nothing_is_stored_once_the_link_budget_trips(pad: Any) -> None:
    await write(pad, {"doc": ["x"]}, [ref("a", "doc", "y")], link_budget_bytes=1)
    assert await fragment_issues(pad) == []
    assert (await pad.stats())["links_truncated"] is True


async def test_a_set_larger_than_one_bound_object_is_stored_whole(pad: Any) -> None:
    ids = [f"s{n}" for n in range(45_000)]  # more than two objects of _KEYS_PER_OBJECT keys
    await write(pad, {"doc": ids, "two": ["only"]}, [])
    refs = [ref("a", "doc", "s0"), ref("a", "doc", "s44999"), ref("a", "doc", "s45000")]
    refs += [ref("a", "two", "only"), ref("a", "two", "s0")]
    await write(pad, {}, refs)
    found = sorted(i["details"]["fragment"] for i in await fragment_issues(pad))
    assert found == ["s0", "s45000"]  # "s0" on the page "two"


async def test_pages_of_any_size_concatenate_to_the_whole_result(pad: Any) -> None:
    targets = {"doc": ["a"], "two": []}
    refs = [ref(source, target, f"f{n}") for source in "xyz" for target in targets for n in (1, 2)]
    sets = await write(pad, targets, refs)
    expected = [i.to_dict() for i in broken_fragments(AUDIT, sets, refs)]
    assert len(expected) == 12
    for limit in (1, 5, 2_000):
        issues, _ = await finalize_all(pad, limit=limit)
        assert [i for i in issues if i["issue_type"] == IssueType.BROKEN_FRAGMENT] == expected


async def test_a_page_read_from_the_middle_numbers_the_fragments_first(pad: Any) -> None:
    refs = [ref("a", "doc", f"f{n}") for n in range(4)]
    sets = await write(pad, {"doc": []}, refs)
    expected = [i.to_dict() for i in broken_fragments(AUDIT, sets, refs)]
    options = FinalizeOptions(AUDIT, url(""), crawl_completed=True, cursor="broken-fragment:1")
    page = FinalizePage.from_dict(await pad.run_finalize_checks(options.to_dict()))
    assert [dict(i) for i in page.issues][:3] == expected[1:]


async def test_a_second_finalize_numbers_what_the_crawl_added_since_the_first(pad: Any) -> None:
    first = [ref("b", "doc", "f1")]
    await write(pad, {"doc": []}, first)
    assert len(await fragment_issues(pad)) == 1
    later = [ref("a", "doc", "f0"), ref("c", "doc", "f2")]
    sets = await write(pad, {"doc": []}, later)
    expected = [i.to_dict() for i in broken_fragments(AUDIT, sets, first + later)]
    assert await fragment_issues(pad) == expected
