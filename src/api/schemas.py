"""Request bodies validated with pydantic, which stays at this edge of the system.

pydantic-core has no Pyodide wheel on PyPI, so everything past the API layer is plain dataclasses
and loads in the Pyodide test tier; this module is covered by the CPython tests.
"""

from __future__ import annotations

import json

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from api.errors import ApiErrorCode, BadRequest
from common.settings import CRAWL
from service import keys
from service.audits import CreateAudit


class CreateAuditBody(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    url: str = Field(min_length=1, max_length=2048)
    max_pages: int = Field(
        default=CRAWL.default_max_pages, ge=CRAWL.min_max_pages, le=CRAWL.max_max_pages
    )
    max_depth: int | None = Field(default=None, ge=0, le=1000)
    include: list[str] = Field(default_factory=list, max_length=50)
    exclude: list[str] = Field(default_factory=list, max_length=50)

    @field_validator("include", "exclude")
    @classmethod
    def _url_patterns(cls, patterns: list[str]) -> list[str]:
        # The crawl's URL policy matches robots.txt-style path patterns: "/blog/", "*.pdf$".
        for pattern in patterns:
            if not pattern.startswith(("/", "*")) or len(pattern) > 500:
                raise ValueError(f"a URL pattern must start with '/' or '*': {pattern!r}")
        return patterns

    fetch_timeout_s: float = Field(
        default=CRAWL.fetch_timeout_s,
        ge=CRAWL.min_fetch_timeout_s,
        le=CRAWL.max_fetch_timeout_s,
    )

    def to_request(self) -> CreateAudit:
        return CreateAudit(
            url=self.url,
            max_pages=self.max_pages,
            max_depth=self.max_depth,
            include=tuple(self.include),
            exclude=tuple(self.exclude),
            fetch_timeout_s=self.fetch_timeout_s,
        )


class CreateKeyBody(BaseModel):
    """POST /api/keys. The owner's and name's rules are the service's (`service.keys`), shared
    with `siteaudit keys create`; this checks the shape."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # The pattern is documented (OpenAPI) but checked by the service, whose message says why.
    owner: str = Field(
        min_length=1, max_length=100, json_schema_extra={"pattern": f"^{keys.OWNER_PATTERN}$"}
    )
    name: str = Field(default="", max_length=100)


def parse_create_body(raw: bytes) -> CreateAudit:
    """The body of POST /api/audits as the service's input; raises `BadRequest` when malformed."""
    return _validated(CreateAuditBody, raw, '{"url": "..."}').to_request()


def parse_create_key_body(raw: bytes) -> CreateKeyBody:
    """The body of POST /api/keys; raises `BadRequest` when malformed."""
    return _validated(CreateKeyBody, raw, '{"owner": "..."}')


def _validated[M: BaseModel](model: type[M], raw: bytes, example: str) -> M:
    try:
        data = json.loads(raw or b"null")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadRequest(
            f"request body is not valid JSON: {exc}", ApiErrorCode.INVALID_JSON
        ) from exc
    if not isinstance(data, dict):
        raise BadRequest(f"request body must be a JSON object like {example}")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc'])) or 'body'}: {e['msg']}" for e in exc.errors()
        )
        raise BadRequest(problems) from exc
