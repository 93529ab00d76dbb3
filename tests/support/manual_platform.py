"""A local platform whose time the test moves by hand."""

from dataclasses import dataclass, field

from local_platform.clock import ManualClock
from local_platform.runtime import LocalPlatform


@dataclass
class ManualPlatform(LocalPlatform):
    """`LocalPlatform` on a `ManualClock`: the same platform, typed so that a test may call
    `clock.advance`."""

    clock: ManualClock = field(default_factory=ManualClock)
