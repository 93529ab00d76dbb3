"""The issue catalogue, per-page rules, cross-page semantics, issue ids and the health score.

Public modules:
* `catalogue`: `Severity`, `Scope`, `IssueType`, `IssueDescriptor`, `CATALOGUE`, threshold constants.
* `page`: `FetchClass`, `PageObservation` (the per-page rules' input, with derived fields).
* `page_rules`: `run_page_rules(obs)` (original order and short-circuits, then field checks).
* `issues`: `DetectedIssue`; `issue_ids`: `issue_id()`, `page_id()`.
* `cross_page`: `CrawledPage`, `LinkEdge`, `crawled_page(obs)` and one function per check.
* `score`: `summarise()`, `health_score()`, `counts_by_type()`, `counts_by_severity()`.
"""
