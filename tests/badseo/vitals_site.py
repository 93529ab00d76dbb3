"""The badseo vitals site: pages whose Lighthouse answers (from the local PSI double) are poor in
one way each, and the Lighthouse issues an audit must report on them.

Theory of operation
-------------------
* Every fixture is one page on its own URL template, so the sample (lighthouse.sample: the start
  page, then one page per template) takes every page whatever the crawl order, within the default
  cap of 10.
* `behaviour` is what the PSI double answers for the page, both strategies alike; `expected` the
  Lighthouse issue types on the page. Pages are otherwise plain: the end-to-end test compares only
  the issues whose `details.source` is "lighthouse" with the golden set (golden_vitals.json).
* Thresholds are crossed by clear margins; the catalogue's boundaries are table-tested in
  tests/lighthouse/test_vitals.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from audit.catalogue import IssueType
from tests.support.psi_double import Behaviour, Field, Lab, PsiDouble, serve_psi
from tests.support.site_server import Reply, Site, html_page, serve_site

T = IssueType


@dataclass(frozen=True)
class VitalsFixture:
    path: str
    summary: str
    behaviour: Behaviour
    expected: tuple[IssueType, ...] = ()


VITALS_FIXTURES: tuple[VitalsFixture, ...] = (
    VitalsFixture(
        "/", "Home page with good vitals in lab and field.", Behaviour(field_url=Field())
    ),
    VitalsFixture(
        "/slow-lab",
        "Lab run: performance score 31 and LCP 6.2 s.",
        Behaviour(lab=Lab(performance=0.31, lcp_ms=6200.0)),
        (T.LIGHTHOUSE_POOR_PERFORMANCE, T.LAB_POOR_LCP),
    ),
    VitalsFixture(
        "/shifty",
        "Lab run: CLS 0.42.",
        Behaviour(lab=Lab(cls=0.42)),
        (T.LAB_POOR_CLS,),
    ),
    VitalsFixture(
        "/laggy",
        "Lab run that reports an INP of 800 ms.",
        Behaviour(lab=Lab(inp_ms=800.0)),
        (T.LAB_POOR_INP,),
    ),
    VitalsFixture(
        "/field-poor",
        "Good lab run; real users see LCP 4.6 s, INP 620 ms, CLS 0.31 on the URL.",
        Behaviour(field_url=Field(lcp_ms=4600, inp_ms=620, cls=0.31)),
        (T.FIELD_POOR_LCP, T.FIELD_POOR_INP, T.FIELD_POOR_CLS),
    ),
    VitalsFixture(
        "/origin-only",
        "No URL field data; the origin's real users see LCP 5 s.",
        Behaviour(field_origin=Field(lcp_ms=5000)),
        (T.FIELD_POOR_LCP,),
    ),
    VitalsFixture(
        "/unreachable",
        "PSI answers 400 (Lighthouse could not load the page): error rows, no issue.",
        Behaviour(kind="unreachable"),
    ),
    VitalsFixture(
        "/borderline",
        "Values exactly at the thresholds (score 50, LCP 4 s, CLS 0.25): not poor.",
        Behaviour(lab=Lab(performance=0.5, lcp_ms=4000.0, cls=0.25)),
    ),
)

VITALS_ISSUE_TYPES = frozenset(t for f in VITALS_FIXTURES for t in f.expected)


def vitals_expected(origin: str) -> set[tuple[str, str]]:
    return {(str(t), origin + f.path) for f in VITALS_FIXTURES for t in f.expected}


@contextmanager
def serve_vitals() -> Iterator[tuple[Site, PsiDouble]]:
    links = "".join(f"<a href='{f.path}'>{f.summary}</a>" for f in VITALS_FIXTURES)
    routes = {
        f.path: Reply(body=html_page(f"Vitals fixture {f.path}", f"<h1>{f.summary}</h1>{links}"))
        for f in VITALS_FIXTURES
    }
    double = PsiDouble()
    double.behaviours.update({f.path: f.behaviour for f in VITALS_FIXTURES})
    with serve_site(routes) as site, serve_psi(double) as psi:
        yield site, psi
