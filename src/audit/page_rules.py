"""Per-page rules: the original's evaluation order with its short-circuits, then the field checks.

Theory of operation (original system §1.2):
  1-6  how the fetch ended: blocked, rate-limited, network error, 5xx, 4xx, 3xx -> stop
  7    slow response: judged after the crawl, on a quiet measurement (audit.timing)
  8    not analysed HTML -> stop
  9-12 noindex, canonical conflict, canonicalized, deep page
  13   JavaScript shell -> stop (its title, headings and text are not the rendered page's)
  14-20 title, meta description, H1, heading order, thin content, image alt, outgoing links
  then the branch JSON-LD check, the structured-data checks (audit.rules_structured), the
  static accessibility rules' failures (audit.rules_a11y), and the
  field checks (rules_field, rules_social, rules_security), which run on every readable 2xx HTML
  page, shells included: they read the head and headers, which a shell serves like any page.

Every rule is a pure function of one `PageObservation` returning a list of `DetectedIssue`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from audit import (
    rules_a11y,
    rules_content,
    rules_field,
    rules_head,
    rules_security,
    rules_social,
    rules_status,
    rules_structured,
)
from audit.issues import DetectedIssue
from audit.page import PageObservation

__all__ = ["FIELD_RULES", "field_page_issues", "original_page_issues", "run_page_rules"]

Rule = Callable[[PageObservation], list[DetectedIssue]]

_INDEXING_RULES: Sequence[Rule] = (  # steps 9-12
    rules_head.noindex_page,
    rules_head.canonical_conflict,
    rules_head.canonicalized_page,
    rules_head.deep_page,
)
_CONTENT_RULES: Sequence[Rule] = (  # steps 14-20, then the JSON-LD checks
    rules_head.title_issues,
    rules_head.meta_description_issues,
    rules_head.h1_issues,
    rules_head.heading_order_skip,
    rules_content.thin_content,
    rules_content.images_missing_alt,
    rules_content.no_outgoing_links,
    rules_content.invalid_structured_data,
    rules_structured.structured_data_issues,
    rules_a11y.accessibility_issues,
)
FIELD_RULES: Sequence[Rule] = (
    rules_field.http_page_on_https_site,
    rules_field.html_too_large,
    rules_field.multiple_titles,
    rules_field.multiple_meta_descriptions,
    rules_field.multiple_canonicals,
    rules_field.relative_canonical,
    rules_field.meta_refresh,
    rules_field.missing_html_lang,
    rules_field.missing_viewport,
    rules_field.images_missing_dimensions,
    rules_field.internal_nofollow_links,
    rules_field.mixed_content,
    rules_field.insecure_form_action,
    rules_social.missing_open_graph,
    rules_social.empty_social_tags,
    rules_social.relative_social_urls,
    rules_social.og_url_not_canonical,
    rules_social.twitter_card_issues,
    rules_security.hsts_issues,
    rules_security.content_type_options_missing,
    rules_security.csp_missing,
    rules_security.frame_protection_missing,
)


def _run(rules: Sequence[Rule], obs: PageObservation) -> list[DetectedIssue]:
    return [issue for rule in rules for issue in rule(obs)]


def original_page_issues(obs: PageObservation) -> list[DetectedIssue]:
    """Steps 1-20 of the original, in order, with its short-circuits."""
    issues = rules_status.fetch_outcome(obs)
    if rules_status.stops_at_status(obs):
        return issues
    if not rules_status.reaches_content(obs):
        return issues
    issues += _run(_INDEXING_RULES, obs)
    shell = rules_head.javascript_shell(obs)
    if shell:
        return issues + shell
    return issues + _run(_CONTENT_RULES, obs)


def field_page_issues(obs: PageObservation) -> list[DetectedIssue]:
    """The field checks, on readable 2xx HTML pages only (the Observatory, too, grades only a
    2xx final response)."""
    if not obs.is_ok_2xx_html:
        return []
    return _run(FIELD_RULES, obs)


def run_page_rules(obs: PageObservation) -> list[DetectedIssue]:
    """All per-page issues of one crawled page, in evaluation order."""
    return original_page_issues(obs) + field_page_issues(obs)
