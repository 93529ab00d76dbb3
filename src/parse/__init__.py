"""The streaming HTML extractor: page bytes in, `PageFacts` out (see extractor.py, facts.py)."""

from parse.extractor import DEFAULT_MAX_BYTES, PageExtractor
from parse.facts import PageFacts

__all__ = ["DEFAULT_MAX_BYTES", "PageExtractor", "PageFacts"]
