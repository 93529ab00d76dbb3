"""web-platform-tests' URL parsing vectors (tests/data/wpt/urltestdata.json) against `parse_url`,
and the http(s) ones through the crawler's resolution and normalisation.

Every case whose expected result is a special URL of a scheme the parser models (http, https,
ws, wss, ftp), and every failure case whose input is read against such a base or carries such a
scheme itself, must give exactly the browser's href and components. The rest (file: and
non-special schemes, which the crawler never fetches) is checked for one thing only: the parser
reports `UnsupportedScheme` or `InvalidUrl` and raises nothing else; their counts are in the ids.

Every http(s) case then goes the way a link goes through the crawl: `resolve` against its base
(as a page's href is), then `normalise_url`. The result must be the expected href after exactly
the identity-preserving steps `urls.normalise.canonical` documents (the fragment dropped, RFC 3986
§6.2.2 percent-encoding), applied to the expected components as the data gives them; a failure
case must give None.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from urls.normalise import canonical, normalise_url
from urls.parser import DEFAULT_PORTS, InvalidUrl, UnsupportedScheme, Url, clean, parse_url
from urls.resolve import resolve

_DATA = Path(__file__).parents[1] / "data" / "wpt" / "urltestdata.json"
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+\-.]*):")


def _cases() -> list[dict[str, Any]]:
    return [case for case in json.loads(_DATA.read_text("utf-8")) if isinstance(case, dict)]


def _scheme(text: str | None) -> str | None:
    match = None if text is None else _SCHEME.match(clean(text))
    return None if match is None else match[1].lower()


def _in_scope(case: dict[str, Any]) -> bool:
    if not case.get("failure"):
        return _scheme(case["href"]) in DEFAULT_PORTS
    own = _scheme(case["input"])
    if own is not None:
        return own in DEFAULT_PORTS
    return _scheme(case.get("base")) in DEFAULT_PORTS


def _is_http(case: dict[str, Any]) -> bool:
    if not case.get("failure"):
        return _scheme(case["href"]) in ("http", "https")
    return (_scheme(case["input"]) or _scheme(case.get("base"))) in ("http", "https")


_ALL = _cases()
_MODELLED = [case for case in _ALL if _in_scope(case)]
_OTHER = [case for case in _ALL if not _in_scope(case)]
_HTTP = [case for case in _MODELLED if _is_http(case)]


def _case_id(case: dict[str, Any]) -> str:
    return ascii(case["input"])[:60] + " @ " + ascii(case.get("base"))[:40]


def _components(url: Url) -> dict[str, str]:
    port = "" if url.port is None else str(url.port)
    return {
        "href": url.href,
        "protocol": url.scheme + ":",
        "username": url.username,
        "password": url.password,
        "host": url.host + (":" + port if port else ""),
        "hostname": url.host,
        "port": port,
        "pathname": url.path,
        "search": "?" + url.query if url.query else "",
        "hash": "#" + url.fragment if url.fragment else "",
    }


def _parse(case: dict[str, Any]) -> Url:
    base = None if case.get("base") is None else parse_url(case["base"])
    return parse_url(case["input"], base)


def test_the_vectors_are_all_accounted_for() -> None:
    # 820 cases in the vendored file: 518 of special non-file schemes, the rest skipped below.
    assert len(_ALL) == len(_MODELLED) + len(_OTHER) == 820
    assert len(_MODELLED) > 450
    # 423 of them http(s): 220 URLs and 203 failures.
    assert len(_HTTP) == 423
    assert sum(1 for case in _HTTP if case.get("failure")) == 203


@pytest.mark.parametrize("case", _MODELLED, ids=_case_id)
def test_modelled_schemes_parse_as_browsers_do(case: dict[str, Any]) -> None:
    if case.get("failure"):
        with pytest.raises(InvalidUrl):
            _parse(case)
        return
    expected = {key: case[key] for key in _components(parse_url("http://x/"))}
    assert _components(_parse(case)) == expected


@pytest.mark.parametrize("case", _OTHER, ids=_case_id)
def test_other_schemes_are_reported_not_raised(case: dict[str, Any]) -> None:
    try:
        _parse(case)
    except (InvalidUrl, UnsupportedScheme):
        return
    pytest.fail("a file: or non-special case parsed as a special URL")


def _expected_url(case: dict[str, Any]) -> Url:
    """The expected URL built from the case's components (not parsed from its href); the data
    writes an empty query or fragment as "", so the href says whether its "?" or "#" is there."""
    before_hash, hash_mark, fragment = case["href"].partition("#")
    url = Url(
        scheme=case["protocol"].removesuffix(":"),
        username=case["username"],
        password=case["password"],
        host=case["hostname"],
        port=int(case["port"]) if case["port"] else None,
        path=case["pathname"],
        query=case["search"][1:] if "?" in before_hash else None,
        fragment=fragment if hash_mark else None,
    )
    assert url.href == case["href"]
    return url


def _resolved(case: dict[str, Any]) -> str | None:
    """The input as the crawl resolves a page's href against the page (its base)."""
    return case["input"] if case.get("base") is None else resolve(case["input"], case["base"])


@pytest.mark.parametrize("case", _HTTP, ids=_case_id)
def test_http_cases_through_resolution_and_normalisation(case: dict[str, Any]) -> None:
    resolved = _resolved(case)
    normalised = None if resolved is None else normalise_url(resolved)
    if case.get("failure"):
        assert normalised is None
        return
    expected = _expected_url(case)
    if case.get("base") is not None:
        assert resolved == expected.without_fragment()
    assert normalised == canonical(expected).unsplit()
