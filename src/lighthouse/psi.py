"""Google PageSpeed Insights API v5 (`pagespeedapi.runpagespeed`), sans-IO.

Request: `GET <endpoint>?url=...&strategy=mobile|desktop&category=PERFORMANCE&category=
ACCESSIBILITY&category=BEST_PRACTICES&category=SEO&key=...` (the API reference lists the four
categories and the two strategies; without `category` PSI runs performance only).

Response (`PagespeedApiPagespeedResponseV5`), the parts kept as columns:
- `lighthouseResult.categories.<id>.score`: 0-1 or null, stored as 0-100 (ids `performance`,
  `accessibility`, `best-practices`, `seo`);
- `lighthouseResult.audits.<id>.numericValue`: `largest-contentful-paint` (ms),
  `cumulative-layout-shift` (unitless), `interaction-to-next-paint` (ms; a navigation run usually
  has none), `server-response-time` (ms, the lab TTFB);
- `lighthouseResult.runtimeError` `{code, message}`: Lighthouse could not load the page (the run is
  then an error, its payload still kept);
- `loadingExperience` (the URL) and `originLoadingExperience` (the origin): CrUX field data,
  `metrics.<KEY>.{percentile, category}` with categories FAST, AVERAGE, SLOW; `origin_fallback`
  true means the URL had too little traffic and the "URL" data is the origin's. CLS arrives as
  `CUMULATIVE_LAYOUT_SHIFT_SCORE` multiplied by 100.
Errors are Google's JSON error envelope `{"error": {"code", "message", "status"}}` with the HTTP
status (400 for a URL Lighthouse cannot reach, 429 for quota, 500 for its own failures).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlencode

from common.ports import FetchRequest, FetchResult
from common.settings import MIB
from common.wire import json_object_or_none
from lighthouse.provider import ProviderAnswer
from lighthouse.records import FieldData, FieldMetric, FieldScope, LighthouseRun, Strategy

__all__ = ["CATEGORIES", "PageSpeedInsights"]

# The request's `category` values and the response's `categories` ids, in the row's order.
CATEGORIES = {
    "PERFORMANCE": "performance",
    "ACCESSIBILITY": "accessibility",
    "BEST_PRACTICES": "best-practices",
    "SEO": "seo",
}
# A full result with its screenshots is a few MiB; anything far beyond is not a Lighthouse result.
MAX_RESPONSE_BYTES = 32 * MIB
_LAB_AUDITS = {
    "lcp_ms": "largest-contentful-paint",
    "cls": "cumulative-layout-shift",
    "inp_ms": "interaction-to-next-paint",
    "ttfb_ms": "server-response-time",
}
# CrUX metric keys -> (FieldData field, divisor to our unit).
_FIELD_METRICS = {
    "LARGEST_CONTENTFUL_PAINT_MS": ("lcp_ms", 1.0),
    "INTERACTION_TO_NEXT_PAINT": ("inp_ms", 1.0),
    "CUMULATIVE_LAYOUT_SHIFT_SCORE": ("cls", 100.0),
    "EXPERIMENTAL_TIME_TO_FIRST_BYTE": ("ttfb_ms", 1.0),
}
_ERROR_TEXT_CHARS = 500


@dataclass(frozen=True, slots=True)
class PageSpeedInsights:
    endpoint: str
    api_key: str
    name: str = "pagespeed-insights"

    def request(self, url: str, strategy: Strategy, timeout_s: float) -> FetchRequest:
        query = [("url", url), ("strategy", str(strategy))]
        query += [("category", category) for category in CATEGORIES]
        query.append(("key", self.api_key))
        return FetchRequest(
            url=f"{self.endpoint}?{urlencode(query)}",
            timeout_s=timeout_s,
            max_bytes=MAX_RESPONSE_BYTES,
            headers={"accept": "application/json"},
        )

    def parse(self, strategy: Strategy, response: FetchResult) -> ProviderAnswer:
        if response.status == 0:
            return ProviderAnswer(LighthouseRun.failed(strategy, response.error or "no response"))
        if response.truncated:
            return ProviderAnswer(LighthouseRun.failed(strategy, "response too large"))
        document = json_object_or_none(response.body)
        if response.status != 200 or document is None:
            return ProviderAnswer(LighthouseRun.failed(strategy, _error_text(response, document)))
        return ProviderAnswer(parse_result(strategy, document), response.body)


def parse_result(strategy: Strategy, document: Mapping[str, object]) -> LighthouseRun:
    """A 200 answer as a run; a `runtimeError` (the page could not be loaded) as an error run."""
    result = _object(document.get("lighthouseResult"))
    error = _object(result.get("runtimeError"))
    if error and error.get("code") not in (None, "NO_ERROR"):
        return LighthouseRun.failed(strategy, f"{error.get('code')}: {error.get('message', '')}")
    if not result:
        return LighthouseRun.failed(strategy, "the response has no lighthouseResult")
    categories = _object(result.get("categories"))
    scores = {cid: _score(_object(categories.get(cid)).get("score")) for cid in CATEGORIES.values()}
    audits = _object(result.get("audits"))
    lab = {
        name: _number(_object(audits.get(audit_id)).get("numericValue"))
        for name, audit_id in _LAB_AUDITS.items()
    }
    page = _object(document.get("loadingExperience"))
    return LighthouseRun(
        strategy,
        performance_score=scores["performance"],
        accessibility_score=scores["accessibility"],
        best_practices_score=scores["best-practices"],
        seo_score=scores["seo"],
        lcp_ms=lab["lcp_ms"],
        cls=lab["cls"],
        inp_ms=lab["inp_ms"],
        ttfb_ms=lab["ttfb_ms"],
        field_url=None if page.get("origin_fallback") else _field(FieldScope.URL, page),
        field_origin=_field(FieldScope.ORIGIN, _object(document.get("originLoadingExperience"))),
    )


def _field(scope: FieldScope, experience: Mapping[str, object]) -> FieldData | None:
    metrics = _object(experience.get("metrics"))
    values: dict[str, FieldMetric] = {}
    for key, (name, divisor) in _FIELD_METRICS.items():
        metric = _object(metrics.get(key))
        percentile = _number(metric.get("percentile"))
        if percentile is not None:
            category = metric.get("category")
            values[name] = FieldMetric(
                percentile / divisor, category if isinstance(category, str) else None
            )
    if not values:
        return None
    overall = experience.get("overall_category")
    return FieldData(scope, overall if isinstance(overall, str) else None, **values)


def _error_text(response: FetchResult, document: Mapping[str, object] | None) -> str:
    error = _object((document or {}).get("error"))
    message = error.get("message")
    if not isinstance(message, str) or not message:
        message = response.body[:_ERROR_TEXT_CHARS].decode("utf-8", "replace").strip()
    return f"HTTP {response.status}: {message or 'no error message'}"[:_ERROR_TEXT_CHARS]


def _object(value: object) -> Mapping[str, object]:
    return value if isinstance(value, dict) else {}


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _score(value: object) -> int | None:
    number = _number(value)
    return None if number is None else round(number * 100)
