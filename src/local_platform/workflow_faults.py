"""Fault injection for the workflow engine: the failures production has and tests need.

- `fail_step`: a step's next N attempts fail before its callback runs (a flaky dependency).
- `kill`: the platform kills the instance (out of memory / CPU limit), skipping every `except`
  in `run()`; the instance becomes `errored` with the platform's text.
- `lose`: the instance disappears (retention expiry, control-plane loss): `get` says not found.
- `interrupt`: the local process dies while the instance runs; its row stays `running`, and a
  new engine on the same file picks it up with `resume_incomplete()`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Protocol

# Assumed texts. The project's classifier (original-system.md §5.1) matches the substrings
# "exceeded memory limit" and "exceeded CPU time limit", which the original system saw in real
# instance errors. The CPU text is workerd's `CpuLimitExceeded("Python Worker exceeded CPU time
# limit")` (introspection.py); the memory text follows Cloudflare's "Worker exceeded memory limit"
# wording. Assumption: the instance error's name is plain "Error" for both.
KILL_ERRORS: dict[str, dict[str, str]] = {
    "oom": {"name": "Error", "message": "Worker exceeded memory limit."},
    "cpu": {"name": "Error", "message": "Python Worker exceeded CPU time limit"},
}
KillKind = Literal["oom", "cpu"]
DEFAULT_FAILURE_MESSAGE = "Injected step failure"


class PlatformKill(BaseException):
    """Stops `run()` past any `except Exception`, as a platform kill does."""

    def __init__(self, error: dict[str, str]) -> None:
        super().__init__(error["message"])
        self.error = error


class ProcessInterrupt(BaseException):
    """Stops `run()` leaving the instance `running`: what a killed CLI process leaves behind."""


class FaultTarget(Protocol):
    def kill_now(self, instance_id: str, error: dict[str, str]) -> None: ...

    def lose_now(self, instance_id: str) -> None: ...


@dataclass(slots=True)
class _StepFailure:
    instance_id: str | None  # None: any instance
    step_name: str
    remaining: int
    message: str


class Faults:
    def __init__(self, target: FaultTarget) -> None:
        self._target = target
        self._failures: list[_StepFailure] = []
        self._at_step: dict[tuple[str, str], BaseException] = {}

    def fail_step(
        self,
        instance_id: str | None,
        step_name: str,
        times: int,
        message: str = DEFAULT_FAILURE_MESSAGE,
    ) -> None:
        if times > 0:
            self._failures.append(_StepFailure(instance_id, step_name, times, message))

    def kill(self, instance_id: str, kind: KillKind, at_step: str | None = None) -> None:
        error = dict(KILL_ERRORS[kind])
        if at_step is None:
            self._target.kill_now(instance_id, error)
        else:
            self._at_step[(instance_id, at_step)] = PlatformKill(error)

    def lose(self, instance_id: str) -> None:
        self._target.lose_now(instance_id)

    def interrupt(self, instance_id: str, at_step: str) -> None:
        self._at_step[(instance_id, at_step)] = ProcessInterrupt(instance_id)

    def take_failure(self, instance_id: str, step_name: str) -> str | None:
        """The message of an injected failure for this attempt, consuming one; else None."""
        for failure in self._failures:
            if failure.step_name == step_name and failure.instance_id in (None, instance_id):
                failure.remaining -= 1
                if failure.remaining <= 0:
                    self._failures.remove(failure)
                return failure.message
        return None

    def on_step_start(self, instance_id: str, step_name: str) -> None:
        """Raise the kill or interrupt planned for this step, once."""
        planned: Any = self._at_step.pop((instance_id, step_name), None)
        if planned is not None:
            raise planned
