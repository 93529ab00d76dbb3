"""A local PageSpeed Insights API v5 double: `runPagespeed` answers in the real response shape.

The JSON follows the public API reference (`PagespeedApiPagespeedResponseV5`): `loadingExperience`
and `originLoadingExperience` (CrUX metrics with `percentile`, `distributions` and `category`),
`lighthouseResult` (`categories.<id>.score` 0-1, `audits.<id>.numericValue`, `configSettings`,
`runtimeError` when the page failed) and the version block. Errors use Google's JSON error
envelope. What each page gets is set per target path with `Behaviour`s; every call is logged.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.support.site_server import Reply, SiteRequest, serve_site

PATH = "/pagespeedonline/v5/runPagespeed"


@dataclass(frozen=True)
class Lab:
    """Lab values one run reports (scores 0-1 as PSI sends them)."""

    performance: float | None = 0.93
    accessibility: float | None = 0.88
    best_practices: float | None = 1.0
    seo: float | None = 0.91
    lcp_ms: float = 1834.5
    cls: float = 0.02
    ttfb_ms: float = 120.0
    inp_ms: float | None = None  # a navigation run has no INP audit


@dataclass(frozen=True)
class Field:
    """CrUX 75th percentiles (PSI categories FAST/AVERAGE/SLOW are derived from them)."""

    lcp_ms: int = 2100
    inp_ms: int = 150
    cls: float = 0.05
    ttfb_ms: int = 600


@dataclass(frozen=True)
class Behaviour:
    # slow: answers only once the double is released (`PsiDouble.release`, at the latest when
    # `serve_psi` ends), so a test decides when, or whether, the caller's timeout comes first.
    kind: str = "ok"  # ok | unreachable | rate_limited | server_error | slow | runtime_error
    lab: Lab = field(default_factory=Lab)
    field_url: Field | None = None
    field_origin: Field | None = None
    times: int = 1  # rate_limited: 429s before answering ok
    retry_after: str = "1"


@dataclass(frozen=True)
class Call:
    url: str
    strategy: str
    categories: tuple[str, ...]
    key: str


def _category(value: float, good: float, poor: float) -> str:
    return "FAST" if value <= good else ("SLOW" if value > poor else "AVERAGE")


def _metric(percentile: float, good: float, poor: float) -> dict[str, Any]:
    return {
        "percentile": percentile,
        "distributions": [
            {"min": 0, "max": good, "proportion": 0.7},
            {"min": good, "max": poor, "proportion": 0.2},
            {"min": poor, "proportion": 0.1},
        ],
        "category": _category(percentile, good, poor),
    }


def loading_experience(key: str, crux: Field, url: str) -> dict[str, Any]:
    metrics = {
        "LARGEST_CONTENTFUL_PAINT_MS": _metric(crux.lcp_ms, 2500, 4000),
        "INTERACTION_TO_NEXT_PAINT": _metric(crux.inp_ms, 200, 500),
        "CUMULATIVE_LAYOUT_SHIFT_SCORE": _metric(round(crux.cls * 100), 10, 25),
        "EXPERIMENTAL_TIME_TO_FIRST_BYTE": _metric(crux.ttfb_ms, 800, 1800),
        "FIRST_CONTENTFUL_PAINT_MS": _metric(1500, 1800, 3000),
    }
    worst = [m["category"] for k, m in metrics.items() if "TIME_TO_FIRST_BYTE" not in k]
    overall = "SLOW" if "SLOW" in worst else ("AVERAGE" if "AVERAGE" in worst else "FAST")
    return {"id": key, "metrics": metrics, "overall_category": overall, "initial_url": url}


def _audit(audit_id: str, value: float | None, unit: str) -> dict[str, Any]:
    return {
        "id": audit_id,
        "title": audit_id.replace("-", " ").title(),
        "score": None if value is None else 0.5,
        "scoreDisplayMode": "numeric",
        "numericValue": value,
        "numericUnit": unit,
        "displayValue": "" if value is None else f"{value:g}",
    }


def psi_response(url: str, strategy: str, behaviour: Behaviour) -> dict[str, Any]:
    lab = behaviour.lab
    audits = {
        "largest-contentful-paint": _audit("largest-contentful-paint", lab.lcp_ms, "millisecond"),
        "cumulative-layout-shift": _audit("cumulative-layout-shift", lab.cls, "unitless"),
        "server-response-time": _audit("server-response-time", lab.ttfb_ms, "millisecond"),
        "total-blocking-time": _audit("total-blocking-time", 40.0, "millisecond"),
        "final-screenshot": {
            "id": "final-screenshot",
            "details": {"data": "data:image/jpeg;base64," + "A" * 2000},
        },
    }
    if lab.inp_ms is not None:
        audits["interaction-to-next-paint"] = _audit(
            "interaction-to-next-paint", lab.inp_ms, "millisecond"
        )
    scores = {
        "performance": lab.performance,
        "accessibility": lab.accessibility,
        "best-practices": lab.best_practices,
        "seo": lab.seo,
    }
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(url))
    document: dict[str, Any] = {
        "captchaResult": "CAPTCHA_NOT_NEEDED",
        "kind": "pagespeedonline#result",
        "id": url,
        "lighthouseResult": {
            "requestedUrl": url,
            "finalUrl": url,
            "mainDocumentUrl": url,
            "lighthouseVersion": "12.8.2",
            "userAgent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0.0.0 Safari/537.36",
            "fetchTime": "2026-12-01T18:00:00.000Z",
            "environment": {
                "networkUserAgent": "Mozilla/5.0 Chrome-Lighthouse",
                "benchmarkIndex": 2000,
            },
            "runWarnings": [],
            "configSettings": {
                "emulatedFormFactor": strategy,
                "formFactor": strategy,
                "locale": "en-US",
                "onlyCategories": list(scores),
                "channel": "lr",
            },
            "audits": audits,
            "categories": {
                cid: {"id": cid, "title": cid.title(), "score": score, "auditRefs": []}
                for cid, score in scores.items()
            },
            "timing": {"total": 12345.6},
        },
        "analysisUTCTimestamp": "2026-12-01T18:00:00.000Z",
        "version": {"major": 1, "minor": 0},
    }
    if behaviour.field_url is not None:
        document["loadingExperience"] = loading_experience(url, behaviour.field_url, url)
    else:
        document["loadingExperience"] = {"initial_url": url}
    if behaviour.field_origin is not None:
        document["originLoadingExperience"] = loading_experience(
            origin, behaviour.field_origin, url
        )
    if behaviour.kind == "runtime_error":
        document["lighthouseResult"]["runtimeError"] = {
            "code": "NO_FCP",
            "message": "The page did not paint any content.",
        }
    return document


def error_body(code: int, message: str, status: str) -> bytes:
    envelope = {
        "error": {
            "code": code,
            "message": message,
            "errors": [{"message": message, "domain": "global", "reason": status.lower()}],
            "status": status,
        }
    }
    return json.dumps(envelope).encode()


UNREACHABLE = (
    "Lighthouse returned error: FAILED_DOCUMENT_REQUEST. Lighthouse was unable to reliably load "
    "the page you requested. Make sure you are testing the correct URL and that the server is "
    "properly responding to all requests. (Details: net::ERR_CONNECTION_REFUSED)"
)
QUOTA = "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute' of service."
INTERNAL = "Lighthouse returned error: Something went wrong."
_JSON = {"content-type": "application/json; charset=UTF-8"}


class PsiDouble:
    """Per-path behaviours (the path of the audited URL); unknown paths answer `default`."""

    def __init__(self, default: Behaviour | None = None) -> None:
        self.behaviours: dict[str, Behaviour] = {}
        self.default = default or Behaviour()
        self.calls: list[Call] = []
        self._lock = threading.Lock()
        self._asked = threading.Condition(self._lock)
        self.release = threading.Event()
        self._limited: dict[tuple[str, str], int] = {}
        self.endpoint = ""

    def answer(self, request: SiteRequest) -> Reply:
        query = parse_qs(urlsplit(request.path).query)
        url, strategy = query["url"][0], query["strategy"][0]
        with self._lock:
            self.calls.append(
                Call(url, strategy, tuple(query.get("category", [])), query["key"][0])
            )
            behaviour = self.behaviours.get(urlsplit(url).path, self.default)
            seen = self._limited.get((url, strategy), 0)
            self._limited[(url, strategy)] = seen + 1
            self._asked.notify_all()
        if behaviour.kind == "unreachable":
            return Reply(400, error_body(400, UNREACHABLE, "INVALID_ARGUMENT"), _JSON)
        if behaviour.kind == "server_error":
            return Reply(500, error_body(500, INTERNAL, "INTERNAL"), _JSON)
        if behaviour.kind == "rate_limited" and seen < behaviour.times:
            headers = {**_JSON, "retry-after": behaviour.retry_after}
            return Reply(429, error_body(429, QUOTA, "RESOURCE_EXHAUSTED"), headers)
        if behaviour.kind == "slow":
            self.release.wait()
        return Reply(200, json.dumps(psi_response(url, strategy, behaviour)).encode(), _JSON)

    def calls_for(self, url: str) -> list[Call]:
        return [call for call in self.calls if call.url == url]

    def wait_for_calls(self, count: int, limit_s: float = 60.0) -> bool:
        """Block until `count` calls have arrived (True), or `limit_s` has passed (False): the
        limit only ends a test that is broken, it is no part of what a test checks."""
        with self._asked:
            return self._asked.wait_for(lambda: len(self.calls) >= count, limit_s)


@contextmanager
def serve_psi(double: PsiDouble | None = None) -> Iterator[PsiDouble]:
    psi = double or PsiDouble()
    with serve_site({PATH: psi.answer}) as site:
        psi.endpoint = site.url(PATH)
        try:
            yield psi
        finally:
            psi.release.set()
