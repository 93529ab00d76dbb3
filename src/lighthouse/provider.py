"""The interface every Lighthouse provider implements, sans-IO, and the one the deployment uses.

A provider turns (URL, strategy) into one HTTP request and that request's response into a
`ProviderAnswer`; it never fetches, sleeps or touches storage. `lighthouse.runner` does the I/O
(timeouts, retries on 429) for any provider, so adding one (the original system used DataForSEO's
paid Lighthouse endpoint, docs/original-system.md §7) means a module with these two methods and a
branch in `lighthouse.providers.configured_provider`; the workflow does not change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from common.ports import FetchRequest, FetchResult
from lighthouse.records import LighthouseRun, Strategy

__all__ = ["LighthouseProvider", "ProviderAnswer"]


@dataclass(frozen=True, slots=True)
class ProviderAnswer:
    """A parsed response: the run (or its error) and the raw payload worth keeping in R2."""

    run: LighthouseRun
    payload: bytes | None = None


class LighthouseProvider(Protocol):
    @property
    def name(self) -> str: ...

    def request(self, url: str, strategy: Strategy, timeout_s: float) -> FetchRequest: ...

    def parse(self, strategy: Strategy, response: FetchResult) -> ProviderAnswer: ...
