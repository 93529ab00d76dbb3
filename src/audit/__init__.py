"""The issue catalogue, per-page rules, cross-page semantics, issue ids and the verdict.

Public modules:
* `catalogue`: `Severity`, `Scope`, `IssueType`, `IssueDescriptor`, `CATALOGUE`, threshold constants.
* `page`: `FetchClass`, `PageObservation` (the per-page rules' input, with derived fields).
* `page_rules`: `run_page_rules(obs)` (original order and short-circuits, then field checks).
* `issues`: `DetectedIssue`; `issue_ids`: `issue_id()`, `page_id()`.
* `cross_page`: `CrawledPage`, `LinkEdge`, `crawled_page(obs)` and one function per check.
* `score`: `is_scored()`, the pages the scores are computed over.
* `verdict`: `judge(tally)`: findings (one per fix), category and overall scores, ranked actions.
"""
