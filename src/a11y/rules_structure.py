"""Lists and tables (WCAG 1.3.1): list, listitem, definition-list, dlitem, td-headers-attr,
th-has-data-cells, scope-attr-valid."""

from __future__ import annotations

from collections.abc import Iterator

from a11y.findings import Outcome
from a11y.page import Page
from a11y.roles import PRESENTATIONAL, explicit_role, role
from a11y.rule_base import failure, verdicts, visible
from a11y.rule_ids import RuleId
from a11y.tables import (
    Grid,
    all_cells,
    headers,
    is_column_header,
    is_data_table,
    is_row_header,
    page_grid,
    position,
)
from a11y.tree import Element, text_content

# The roles a list item's parent may have (axe-core's listitem: a list, or presentational).
_LIST_PARENT_ROLES = PRESENTATIONAL | {"list"}


def _without_role(page: Page, *tags: str) -> Iterator[Element]:
    """axe-core's no-role-matches: the elements without a role attribute."""
    return (e for e in visible(page, page.document.by_tag(*tags)) if not e.has("role"))


def _invalid_child(
    page: Page, child: Element | str, roles: tuple[str, ...], tags: tuple[str, ...]
) -> bool:
    """axe-core's invalid-children check for one child: text, or a shown element that is
    neither one of `tags` (without a role) nor has one of `roles`."""
    if isinstance(child, str):
        return child.strip() != ""
    if page.hidden.to_assistive_tech(child):
        return False
    explicit = explicit_role(child)
    if explicit:
        return explicit not in roles
    return child.tag not in tags and role(page, child) not in roles


def list_rule(page: Page) -> Iterator[Outcome]:
    lists = _without_role(page, "ul", "ol")
    decided = (
        (lst, not any(_invalid_child(page, c, ("listitem",), ("li",)) for c in lst.children))
        for lst in lists
    )
    return verdicts(RuleId.LIST, decided)


def list_failures(page: Page) -> Iterator[Outcome]:
    """list's failures: an `li` child without a role is valid whether shown or not
    (`_invalid_child`), and most children are that or whitespace, told at once here."""
    for lst in _without_role(page, "ul", "ol"):
        for child in lst.children:
            if type(child) is str:
                if child.strip() == "":
                    continue
            elif (
                child.tag == "li"  # type: ignore[union-attr]  # no str is left
                and "role" not in child.attributes  # type: ignore[union-attr]
            ):
                continue
            if _invalid_child(page, child, ("listitem",), ("li",)):
                yield failure(RuleId.LIST, lst)
                break


# The parents whose role is `list` without a role attribute (their implicit role, which no
# parent's presentation passes down to them: roles._INHERITS_PRESENTATION).
_LIST_TAGS = frozenset({"ul", "ol", "menu"})


def listitem_failures(page: Page) -> Iterator[Outcome]:
    """listitem's failures: an item whose parent is a list by its tag alone passes at once."""
    parents = page.document.parents
    for item in _without_role(page, "li"):
        parent = parents.get(id(item))
        if (
            parent is not None
            and parent.tag in _LIST_TAGS
            and parent.is_html
            and "role" not in parent.attributes
        ):
            continue
        if _in_list(page, item) is False:
            yield failure(RuleId.LISTITEM, item)


def listitem(page: Page) -> Iterator[Outcome]:
    items = _without_role(page, "li")
    decided = ((li, _in_list(page, li)) for li in items)
    return verdicts(RuleId.LISTITEM, decided)


def _in_list(page: Page, item: Element) -> bool | None:
    parent = page.document.parent(item)
    if parent is None:
        return None
    return role(page, parent) in _LIST_PARENT_ROLES


def definition_list(page: Page) -> Iterator[Outcome]:
    lists = _without_role(page, "dl")
    decided = ((dl, _dl_ok(page, dl)) for dl in lists)
    return verdicts(RuleId.DEFINITION_LIST, decided)


def _dl_ok(page: Page, dl: Element) -> bool:
    if _unstructured(dl):
        return False
    roles = ("definition", "term", "listitem")
    for child in dl.children:
        group = isinstance(child, Element) and child.tag == "div" and not explicit_role(child)
        inner = child.children if group and isinstance(child, Element) else (child,)
        if any(_invalid_child(page, c, roles, ("dt", "dd")) for c in inner):
            return False
    return True


def _unstructured(dl: Element) -> bool:
    """axe-core's structured-dlitems: direct dt or dd children, and no dd after a dt."""
    has_dt = has_dd = False
    for child in dl.elements:
        if child.tag == "dt":
            has_dt = True
        if has_dt and child.tag == "dd":
            return False
        if child.tag == "dd":
            has_dd = True
    return has_dt or has_dd


def dlitem(page: Page) -> Iterator[Outcome]:
    items = _without_role(page, "dt", "dd")
    return verdicts(RuleId.DLITEM, ((item, _in_dl(page, item)) for item in items))


def _in_dl(page: Page, item: Element) -> bool:
    parent = page.document.parent(item)
    if (
        parent is not None
        and parent.tag == "div"
        and explicit_role(parent) in (*PRESENTATIONAL, None)
    ):
        parent = page.document.parent(parent)
    if parent is None or parent.tag != "dl":
        return False
    parent_role = explicit_role(parent)
    return parent_role is None or parent_role in (*PRESENTATIONAL, "list")


def _tables(page: Page) -> Iterator[Element]:
    return (
        t
        for t in visible(page, page.document.by_tag("table"))
        if role(page, t) in ("table", "grid", "treegrid")
    )


def td_headers_attr(page: Page) -> Iterator[Outcome]:
    return verdicts(RuleId.TD_HEADERS_ATTR, ((t, _headers_ok(page, t)) for t in _tables(page)))


def _headers_ok(page: Page, table: Element) -> bool | None:
    cells = all_cells(table)
    roles = {c.get("id"): role(page, c) for c in cells if c.get("id")}
    empty = False
    for cell in cells:
        if not cell.has("headers") or page.hidden.to_assistive_tech(cell):
            continue
        tokens = (cell.get("headers") or "").split()
        if not tokens:
            empty = True
            continue
        for token in tokens:
            if token == cell.get("id") or roles.get(token) not in ("columnheader", "rowheader"):
                return False
    return None if empty else True


def th_has_data_cells(page: Page) -> Iterator[Outcome]:
    """Passes when each header cell has a data cell; axe-core never fails this rule (it asks
    for a review), so a header without one is left undecided. Whether a table is a data table
    can need layout (borders, backgrounds, width): such tables are undecided."""
    tables = (t for t in visible(page, page.document.by_tag("table")) if is_data_table(page, t))
    return verdicts(RuleId.TH_HAS_DATA_CELLS, ((t, _data_cells(page, t)) for t in tables))


def _data_cells(page: Page, table: Element) -> bool | None:
    cells = all_cells(table)
    referenced: set[str] = set()
    for cell in cells:
        referenced.update((cell.get("headers") or "").split())
        referenced.update((cell.get("aria-labelledby") or "").split())
    heads = [
        c
        for c in cells
        if (c.tag == "th" or explicit_role(c) in ("rowheader", "columnheader"))
        and text_content(c).split()
    ]
    table_grid = page_grid(page, table)
    for head in heads:
        if head.get("id") and head.get("id") in referenced:
            continue
        if not _has_cell(page, head, table_grid):
            return None
    return True


def _has_cell(page: Page, head: Element, table_grid: Grid) -> bool:
    x, y = position(page, head, table_grid)
    if is_column_header(page, head):
        column = [row[x] for row in table_grid[y:] if x < len(row) and row[x] is not None]
        if any(
            c is not None and not is_column_header(page, c) and head in headers(page, c, table_grid)
            for c in column
        ):
            return True
    if is_row_header(page, head):
        line = [c for c in table_grid[y][x:] if c is not None]
        return any(
            not is_row_header(page, c) and head in headers(page, c, table_grid) for c in line
        )
    return False


def scope_attr_valid(page: Page) -> Iterator[Outcome]:
    cells = (c for c in visible(page, page.document.by_tag("td", "th")) if c.has("scope"))
    decided = (
        (
            c,
            c.tag == "th"
            and (c.get("scope") or "").lower() in ("row", "col", "rowgroup", "colgroup"),
        )
        for c in cells
    )
    return verdicts(RuleId.SCOPE_ATTR_VALID, decided)
