"""The agreement of the static accessibility rules (src/a11y) with real axe-core: the table of
bench/README.md, "Accessibility: agreement with axe-core".

Run: `uv run python bench/a11y_agreement.py [--corpus-pages N]`. Needs Debian's `chromium` and
`npm ci` (node_modules/axe-core). It runs the harness of tests/browser/a11y_agreement.py (which
the browser tier's test_a11y_agreement.py runs on the same documents: the rule fixtures of
tests/a11y/cases.py and the first N pages of its fixed corpus sample, 8 by default as in the
test) and prints, per rule, the elements where axe-core is definite (a pass or a violation) and
how many of them the static rule decides the same way, then the disagreements by cause. Not a
timed benchmark: a measure of agreement. The last line is machine-readable.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for entry in (ROOT / "src", ROOT):
    if str(entry) not in sys.path:
        sys.path.insert(0, str(entry))

from playwright.sync_api import sync_playwright

from tests.a11y.cases import CASES
from tests.browser.a11y_agreement import cause, corpus_document, corpus_sample, run, table
from tests.browser.chromium import chromium_executable


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus-pages", type=int, default=8)
    args = parser.parse_args()
    executable = chromium_executable()
    if executable is None:
        sys.exit("needs Chromium on PATH (apt-get install chromium)")
    documents = [(case.id, case.html) for case in CASES]
    documents += [corpus_document(path) for path in corpus_sample(args.corpus_pages)]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable)
        try:
            tally = run(browser, iter(documents))
        finally:
            browser.close()
    print(f"documents: {len(CASES)} fixtures, {args.corpus_pages} corpus pages")
    print(table(tally))
    causes = Counter((d.kind, cause(d) or "UNKNOWN") for d in tally.disagreements)
    for (kind, why), count in causes.most_common():
        print(f"{count} {kind}: {why}")
    decided = sum(tally.decided.values())
    matched = sum(tally.matched.values())
    unknown = sum(1 for d in tally.disagreements if cause(d) is None)
    print(
        f"decided={decided} matched={matched} disagreements={len(tally.disagreements)} unknown={unknown}"
    )


if __name__ == "__main__":
    main()
