"""A faster HTML renderer for the site's django-tables2 tables.

django-tables2 renders cell by cell through its template, inspecting each render method's signature
and re-reading each column's attributes for every cell: about 0.1-0.2 ms a cell, which made a page of
a few grids and standings take half a second. This renders the same markup as `league/_table.html`
from the same table definitions (columns, `render_*` methods, attributes, empty text), working out
per column once what django-tables2 works out per cell. Downloads still go through django-tables2.

It supports what the site's tables use: accessors, `render_*` methods on the table or the column
taking `record`, `value` and/or `table`, static attributes. `linkify` and template columns are refused.
A column may also offer `cell_html(record)`: what its `render` shows, as an escaped plain string,
for the busiest cells (a game's grids have thousands); downloads still use `render` and `value`.
"""

from __future__ import annotations

import functools
import html
import inspect

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django_tables2 import Column
from django_tables2.columns.linkcolumn import BaseLinkColumn
from django_tables2.columns.templatecolumn import TemplateColumn
from django_tables2.utils import A, AttributeDict


class _Resolver:
    """What `Accessor.resolve(record, quiet=True)` returns, without its cost on the common record: it
    tries `record[bit]` first, which for a model instance or a dataclass raises and catches a
    TypeError at every step. Here plain attributes are followed directly; anything else (a mapping,
    a callable, a missing attribute) is left to django-tables2."""

    def __init__(self, accessor: A):
        self.accessor, self.bits = accessor, accessor.bits

    def __call__(self, record):
        value = record
        for bit in self.bits:
            if hasattr(value, "__getitem__"):
                return self.accessor.resolve(record, quiet=True)
            value = getattr(value, bit, _MISSING)
            if value is _MISSING or callable(value):
                return self.accessor.resolve(record, quiet=True)
            if value is None:
                break
        return value


_MISSING = object()
_HTML = object()  # in a cell plan: the column renders its cells with `cell_html`


@functools.lru_cache(maxsize=1024)
def _parameters(function) -> frozenset[str]:
    return frozenset(inspect.signature(function).parameters)


def _escaped(content) -> str:
    """`conditional_escape(content)`, as a plain string and without its lazy-string check per cell."""
    if hasattr(content, "__html__"):
        return content.__html__()
    return html.escape(str(content))


def _attributes(attrs: dict) -> str:
    """`AttributeDict(attrs).as_html()`, each distinct set worked out once (`format_html_join` costs
    about 40 µs, twice a column, and a home page has a few hundred columns)."""
    items = []
    for key, value in attrs.items():
        value = value() if callable(value) else value
        if key not in AttributeDict.blacklist and value is not None:
            items.append((key, type(value), value))  # "a<b" and SafeString("a<b") render apart
    try:
        return _attributes_of(tuple(items))
    except TypeError:  # a value that cannot be a key
        return AttributeDict(attrs).as_html()


@functools.lru_cache(maxsize=512)
def _attributes_of(items: tuple) -> str:
    return " ".join(f'{_escaped(key)}="{_escaped(value)}"' for key, _, value in items)


def _cell_plan(table, bound, td_attrs: dict):
    column = bound.column
    if isinstance(column, TemplateColumn | BaseLinkColumn) or getattr(column, "link", None):
        raise TypeError(f"{type(table).__name__}.{bound.name}: render it with a render_ method instead")
    render = getattr(table, f"render_{bound.name}", None)
    if render is None and hasattr(column, "cell_html"):
        return (None, column.cell_html, _HTML, False, False, (), None, _attributes(td_attrs))
    if render is None and type(column).render is not Column.render:
        render = column.render
    # Bound to this table or column; its function's signature is the same for every instance.
    wanted = _parameters(getattr(render, "__func__", render)) & {"record", "value", "table"} if render else set()
    # A column that renders every record from the record alone needs no value (resolving a missing
    # attribute costs an exception per cell).
    needs_value = render is None or "value" in wanted or bool(column.empty_values)
    return (
        _Resolver(A(bound.accessor)) if needs_value else None,
        render,
        "record" in wanted,
        "value" in wanted,
        "table" in wanted,
        column.empty_values,
        bound.default,
        _attributes(td_attrs),
    )


def table_html(table) -> SafeString:
    columns, head, plans = list(table.columns), [], []
    for bound in columns:
        attrs = bound.attrs  # worked out afresh at every access: once per column here
        head.append(f"<th {_attributes(attrs['th'])}>{conditional_escape(bound.header)}</th>")
        plans.append(_cell_plan(table, bound, attrs["td"]))
    rows = []
    for record in table.data:
        cells = []
        for accessor, render, with_record, with_value, with_table, empty_values, default, td in plans:
            if with_record is _HTML:  # the column's own escaped HTML, from the record alone
                cells.append(f"<td {td}>{render(record)}</td>")
                continue
            value = accessor(record) if accessor else None
            if accessor and value in empty_values:
                content = default
            elif render is None:
                content = value
            else:
                kwargs = {}
                if with_record:
                    kwargs["record"] = record
                if with_value:
                    kwargs["value"] = value
                if with_table:
                    kwargs["table"] = table
                content = render(**kwargs)
            cells.append(f"<td {td}>{_escaped(content)}</td>")
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return table_markup(_attributes(table.attrs), head, rows, table.empty_text)


def table_markup(attrs: str, head: list[str], rows: list[str], empty_text: str | None = None) -> SafeString:
    """The markup around a table's header and row cells (each already escaped), with `empty_text`
    in a row of its own when there are no rows; also used by the tables written straight from their
    rows (`web.grid_html`, `web.player_html`)."""
    if not rows and empty_text:
        rows = [f'<tr><td colspan="{len(head)}">{conditional_escape(empty_text)}</td></tr>']
    return mark_safe(  # noqa: S308 - every header and cell given was escaped
        f'<div class="table-scroll" tabindex="0"><table {attrs}>'
        f"<thead><tr>{''.join(head)}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )
