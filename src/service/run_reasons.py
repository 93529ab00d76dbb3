"""Why a monitor run failed, as one plain sentence for the site's owner.

Every view of a run history (the API's runs, `siteaudit monitors runs`, the web app, the HTML
report's monitor section) and every failure alert (service.alerts) says it the same way, from the
run's `error_code` (migration 0018) and `error_detail`:

* the site's side (`ErrorCode.is_site_failure`): the audit's own sentence (it says what happened
  and what to try), or, for a row without one, the code's sentence below;
* our side (out of memory, a lost instance, ...): what failed, in words, and that nothing was
  learned about the site. The audit's `error_detail` then holds the platform's error text, which
  names internals; it stays on the audit for whoever debugs it, and is never shown here;
* no code (the audit was deleted before it ended, or could not be started, or the run failed
  before the column existed): the run's `error_detail`, which says why in words already.
"""

from __future__ import annotations

from auditdb.monitors import MonitorRunRecord, MonitorRunStatus
from common.failures import ErrorCode

NOTHING_LEARNED = "Nothing was learned about the site; the next run will try again."
UNNAMED = "The run failed."

# One sentence per code (common.failures): for the site's codes, what a row without the audit's
# sentence shows.
CODE_SENTENCES: dict[ErrorCode, str] = {code: code.sentence for code in ErrorCode}


def failure_sentence(code: ErrorCode, detail: str | None) -> str:
    """What a failed audit's code and detail say to the site's owner (see the module docstring)."""
    if code.is_site_failure:
        return detail or CODE_SENTENCES[code]
    return f"{CODE_SENTENCES[code]} {NOTHING_LEARNED}"


def run_reason(run: MonitorRunRecord) -> str | None:
    """The sentence a failed run shows; None for a run that did not fail."""
    if run.status is not MonitorRunStatus.FAILED:
        return None
    if run.error_code is None:
        return run.error_detail or UNNAMED
    return failure_sentence(run.error_code, run.error_detail)
