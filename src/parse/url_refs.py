"""A document's URL-valued attributes resolved once each: a bounded memo of `UrlRef`s.

One page resolves the same raw URLs more than once: a reference handed to `on_references` is
resolved again for the facts' `references`, a bare `#fragment` link for `fragment_links`, an
image's `src` for `images` and `references`. The builder asks this memo instead, keyed per
(document base, raw URL), so each distinct pair costs one `urls.resolve.resolve` and one
`UrlRef`, which the streamed record and the fact share. What the builder streams but the facts
do not keep (past their caps) is asked with `keep=False`: answered, not remembered, so a page's
memo holds no more than its facts will.

Only the current base's entries are held: a document has one base, which changes at most when a
late `<base href>` is met after some links have streamed (the memo then starts afresh, which is
correct since every key names its base). At most `cap` entries are held, the first ones kept.
"""

from __future__ import annotations

from common.fast_record import maker
from parse.facts import UrlRef
from urls.resolve import BaseUrl, base_url

# Above REFERENCES_CAP + LINKS_CAP (the facts' references and fragment links, the largest lists
# asked for again), with room for the canonicals, hreflangs and forms.
URL_REFS_CAP = 4096
_url_ref = maker(UrlRef)  # one a distinct URL of every page: built without the frozen __init__


class UrlRefs:
    __slots__ = ("cap", "_base", "_url", "_refs")

    def __init__(self, cap: int | None = None) -> None:
        self.cap = URL_REFS_CAP if cap is None else cap  # read per page: tests lower it
        self._base = ""  # the base the entries were resolved against, read once as `_url`
        self._url: BaseUrl = base_url("")
        self._refs: dict[str, UrlRef] = {}

    def __len__(self) -> int:
        return len(self._refs)

    def ref(self, raw: str, base: str, *, keep: bool = True) -> UrlRef:
        """`raw` as written and resolved against `base` (urls.resolve); remembered
        unless `keep` is False (the caller knows it will not be asked again)."""
        if base != self._base:
            self._base, self._url, self._refs = base, base_url(base), {}
        refs = self._refs
        found = refs.get(raw)
        if found is None:
            found = _url_ref(raw, self._url.resolve(raw))
            if keep and len(refs) < self.cap:
                refs[raw] = found
        return found
