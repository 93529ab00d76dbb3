"""An HTTP Observatory-compatible security grade: 12 tests, their score modifiers, score and grade.

The specification is Mozilla's HTTP Observatory (repository mdn/mdn-http-observatory), scoring
algorithm version 6: the ten tests of version 5 (`src/analyzer/tests/*.js`, modifiers in
`src/grader/charts.js`, the sum in `src/scanner/index.js`) plus cross-origin-opener-policy and
cross-origin-embedder-policy (mdn/mdn-http-observatory pull request 498). docs/security.md lists
the sources test by test and what is uncertain.

Layout (pure, no I/O, except `observe`, which fetches through `common.ports`):
`results` (test names, result ids, the score table), `observed` (what was fetched: records),
`html_scan` (meta and script tags), `csp` (the policy parser), `structured_field`
(RFC 8941/9651 Items: COOP and COEP values), `checks_*` (the tests),
`grade` (score and letter), `site_names` (HSTS preload list, Public Suffix List), `observe`
(fetch a site the way the Observatory does).
"""
