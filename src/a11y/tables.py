"""Tables as axe-core reads them (lib/commons/table/): the rows and cells of the HTML table
model, the grid with spans, a header cell's scope, each cell's headers, and whether a table is a
data table as far as the markup decides."""

from __future__ import annotations

from a11y.aria import aria
from a11y.page import Page
from a11y.roles import explicit_role, is_focusable
from a11y.tree import Element, text_content

Grid = list[list[Element | None]]


def rows(table: Element) -> list[Element]:
    """HTMLTableElement.rows: thead's rows first, then the table's own and tbody's, then tfoot's."""
    head: list[Element] = []
    body: list[Element] = []
    foot: list[Element] = []
    for child in table.elements:
        if child.tag == "tr":
            body.append(child)
        elif child.tag in ("thead", "tbody", "tfoot"):
            group = {"thead": head, "tbody": body, "tfoot": foot}[child.tag]
            group.extend(row for row in child.elements if row.tag == "tr")
    return head + body + foot


def cells(row: Element) -> list[Element]:
    return [cell for cell in row.elements if cell.tag in ("td", "th")]


def all_cells(table: Element) -> list[Element]:
    return [cell for row in rows(table) for cell in cells(row)]


def _span(cell: Element, name: str, default: int, low: int, high: int) -> int:
    value = cell.attributes.get(name)
    if value is None:  # most cells: asked for both spans of every cell of every table
        return default
    value = value.strip()
    digits = value[: len(value) - len(value.lstrip("0123456789"))]
    if not digits:
        return default
    return max(low, min(high, int(digits)))


def grid(table: Element) -> Grid:
    """axe-core's toGrid: each row's cells placed in the first free column, spans filled."""
    table_rows = rows(table)
    out: list[list[Element | None]] = [[] for _ in table_rows]
    for y, row in enumerate(table_rows):
        x = 0
        for cell in cells(row):
            rowspan = _span(cell, "rowspan", 1, 0, 65534) or len(table_rows)
            for _ in range(_span(cell, "colspan", 1, 1, 1000)):
                for dy in range(rowspan):
                    while len(out) <= y + dy:
                        out.append([])
                    line = out[y + dy]
                    while x < len(line) and line[x] is not None:
                        x += 1
                    line.extend([None] * (x + 1 - len(line)))
                    line[x] = cell
                x += 1
    return out


def page_grid(page: Page, table: Element) -> Grid:
    """`grid(table)`, made once per page: a header cell's scope and a data cell's headers both
    read their table's grid, and a table has many cells (the PostgreSQL manual's tables made
    the grid again for every header cell: half of the rules' time on its pages)."""
    found = page.grids.get(id(table))
    if found is None:
        found = page.grids[id(table)] = grid(table)
    return found


def position(page: Page, cell: Element, table_grid: Grid) -> tuple[int, int]:
    """The cell's first slot in the grid, row by row: (column, row)."""
    places = page.grid_places.get(id(table_grid))
    if places is None:
        places = page.grid_places[id(table_grid)] = {}
        for y, line in enumerate(table_grid):
            for x, found in enumerate(line):
                if found is not None:
                    places.setdefault(id(found), (x, y))
    place = places.get(id(cell))
    if place is None:
        raise ValueError("cell not in grid")
    return place


def _table_of(page: Page, cell: Element) -> Element | None:
    return next((a for a in page.document.ancestors(cell) if a.tag == "table"), None)


def scope(page: Page, cell: Element) -> str | None:
    """axe-core's getScope: 'col', 'row', 'auto' or None (a td without a header scope);
    memoised per page."""
    key = id(cell)
    if key not in page.scopes:
        page.scopes[key] = _scope(page, cell)
    return page.scopes[key]


def _scope(page: Page, cell: Element) -> str | None:
    value = (cell.get("scope") or "").lower()
    explicit = (cell.get("role") or "").strip().lower()
    if explicit == "columnheader":
        return "col"
    if explicit == "rowheader":
        return "row"
    if value in ("col", "row"):
        return value
    if cell.tag != "th":
        return None
    table = _table_of(page, cell)
    if table is None:
        return "auto"
    table_grid = page_grid(page, table)
    x, y = position(page, cell, table_grid)
    if all(c is not None and c.tag == "th" for c in table_grid[y]):
        return "col"
    column = [line[x] if x < len(line) else None for line in table_grid]
    if all(c is not None and c.tag == "th" for c in column):
        return "row"
    return "auto"


def is_column_header(page: Page, cell: Element) -> bool:
    return scope(page, cell) in ("col", "auto")


def is_row_header(page: Page, cell: Element) -> bool:
    return scope(page, cell) in ("row", "auto")


def headers(page: Page, cell: Element, table_grid: Grid) -> list[Element]:
    """axe-core's getHeaders: the `headers` attribute's cells, else the row and column headers
    found walking left and up from the cell."""
    if (cell.get("headers") or "").strip():
        named = page.document.idrefs(cell, "headers")
        if named:
            return named
    x, y = position(page, cell, table_grid)
    found: list[Element] = []
    for header_scope, predicate in (("row", is_row_header), ("col", is_column_header)):
        x_end = x + _span(cell, "colspan", 1, 1, 1000) - 1
        rowspan = _span(cell, "rowspan", 1, 0, 65534) or len(table_grid)
        y_end = y + rowspan - 1
        candidates = []
        rows_range = range(y_end, (y if header_scope == "row" else 0) - 1, -1)
        for row in rows_range:
            cols_range = range(x_end, (0 if header_scope == "row" else x) - 1, -1)
            for col in cols_range:
                line = table_grid[row] if row < len(table_grid) else []
                if col < len(line) and line[col] is not None:
                    candidates.append(line[col])
        found.extend(c for c in candidates if c is not None and predicate(page, c))
    return list(reversed(found))


def is_data_table(page: Page, table: Element) -> bool | None:
    """axe-core's isDataTable where the markup decides; None where it goes on to borders, row
    backgrounds or the table's width, which need layout."""
    role = explicit_role(table)
    if role in ("presentation", "none") and not is_focusable(page, table):
        return False
    if table.get("contenteditable") == "true" or any(
        a.get("contenteditable") == "true" for a in page.document.ancestors(table)
    ):
        return True
    if role in ("grid", "treegrid", "table"):
        return True
    if role is not None and aria().roles[role].get("type") == "landmark":
        return True
    if table.get("datatable") == "0":
        return False
    if table.get("summary"):
        return True
    if any(child.tag in ("thead", "tfoot", "caption", "colgroup") for child in table.elements):
        return True
    table_rows = rows(table)
    for row in table_rows:
        for cell in cells(row):
            if _header_like(cell):
                return True
    if any(d.tag == "table" for d in page.document.descendants(table)):
        return False
    if len(table_rows) < 2:
        return False
    sample = cells(table_rows[min(len(table_rows) - 1, -(-len(table_rows) // 2))])
    if len(sample) == 1 and _span(sample[0], "colspan", 1, 1, 1000) == 1:
        return False
    if len(sample) >= 5:
        return True
    return None


def _header_like(cell: Element) -> bool:
    if cell.tag == "th":
        return True
    if cell.get("scope") or cell.get("headers") or cell.get("abbr"):
        return True
    if explicit_role(cell) in ("columnheader", "rowheader"):
        return True
    children = list(cell.elements)
    return len(children) == 1 and children[0].tag == "abbr"


def has_text(cell: Element) -> bool:
    return bool(text_content(cell).split())
