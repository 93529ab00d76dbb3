"""Peak traced memory of the CLI's streamed report formats (SARIF, JUnit, issues CSV) at 10k and
100k issues: flat, and under 10 MB.

Run: `uv run python bench/report_formats_memory.py [--sizes 10000,100000]`.

One LocalPlatform (state in bench/.out/), seeded as bench/export_memory.py seeds it: a synthetic
completed audit with that many page and issue rows written straight into the local D1 file. Each
format is then produced exactly as `siteaudit report ID --format F --output FILE` produces it
(cli/deliver.py: `service.sarif.export_sarif`, `service.junit.export_junit`,
`service.exports.export_issues` over the keyset walk), the chunks written to a file under
bench/.out/. tracemalloc runs only around each export; the results or testcases written are counted
and checked against the size.

Target: every peak under 10 MB, and 100k within 1.5 x of 10k (one keyset page of rows at a time,
`service.lists.EXPORT_PAGE_SIZE`, whatever the audit's size).

Last line: `sarif_10k_peak_mb=.. junit_10k_peak_mb=.. csv_10k_peak_mb=.. sarif_100k_peak_mb=..
junit_100k_peak_mb=.. csv_100k_peak_mb=.. ratio=..` (ratio: the largest 100k / 10k peak).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
import tracemalloc
from collections.abc import AsyncGenerator, Awaitable, Callable
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "src"))

from export_memory import parse_sizes, print_figures, seed_completed_audit

from audit.catalogue import Severity
from auditdb.listing import IssueFilter
from common.bindings import Env
from local_platform.runtime import LocalPlatform
from service.audits import LOCAL_OWNER
from service.exports import Export, ExportFormat, export_issues
from service.junit import Check, export_junit
from service.sarif import export_sarif

type Exporter = Callable[[Env, str], Awaitable[Export]]
EXPORTERS: dict[str, tuple[Exporter, bytes]] = {
    # format: (how the CLI makes it, the marker written once per issue)
    "sarif": (lambda env, audit_id: export_sarif(env, LOCAL_OWNER, audit_id), b'"ruleId": '),
    "junit": (
        lambda env, audit_id: export_junit(
            env, LOCAL_OWNER, audit_id, frozenset(Severity), [Check("audit completed")]
        ),
        b'<testcase classname="siteaudit.',
    ),
    "csv": (
        lambda env, audit_id: export_issues(
            env, LOCAL_OWNER, audit_id, IssueFilter(), ExportFormat.CSV
        ),
        b"\r\n",
    ),
}


async def written(chunks: AsyncGenerator[bytes], path: Path, marker: bytes) -> tuple[int, int]:
    """(bytes, markers) of the chunks written to `path` as they come."""
    size = count = 0
    with path.open("wb") as file:
        async for chunk in chunks:
            file.write(chunk)
            size += len(chunk)
            count += chunk.count(marker)
    return size, count


async def measure(env: Env, audit_id: str, fmt: str, path: Path) -> tuple[float, int, int, float]:
    """(peak MB, bytes, issues, seconds) of one format written to its end."""
    make, marker = EXPORTERS[fmt]
    tracemalloc.start()
    tracemalloc.reset_peak()
    started = time.perf_counter()
    export = await make(env, audit_id)
    size, count = await written(export.chunks, path, marker)
    seconds = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return peak, size, count, seconds


async def run(sizes: list[int]) -> None:
    out = BENCH / ".out"
    out.mkdir(exist_ok=True)
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory(dir=out) as state:
        platform = LocalPlatform(Path(state))
        try:
            env = platform.core_env
            for size in sizes:
                audit_id = await seed_completed_audit(platform, size)
                for fmt in EXPORTERS:
                    peak, nbytes, count, seconds = await measure(
                        env, audit_id, fmt, Path(state) / f"report.{fmt}"
                    )
                    header = 1 if fmt == "csv" else 0  # the CSV's header line
                    assert count == size + header, (fmt, size, count)
                    figures[f"{fmt}_{size // 1000}k"] = peak
                    print(
                        f"{fmt:5} {size:>7,} issues: {nbytes / 2**20:7.1f} MB in {seconds:5.1f} s, "
                        f"peak traced {peak:.2f} MB"
                    )
        finally:
            await platform.close()
    print_figures(figures, sizes, tuple(EXPORTERS))


def main() -> None:
    asyncio.run(run(parse_sizes(__doc__.splitlines()[0])))


if __name__ == "__main__":
    main()
