"""The site's tables as HTML, written from their django-tables2 declarations without django-tables2's
per-cell machinery.

A table's columns are declared once, in `web.tables` and `web.deals.tables`: header, accessor, cell
attributes, `render` (the cell shown) and `value` (the cell downloaded). Downloads go through
django-tables2's `as_values`; pages are written here, in the markup of `league/_table.html`.
django-tables2 inspects each render method's signature and re-reads each column's attributes for
every cell; this works both out once per column (`table_html`), or once per table class and set of
columns for the busiest tables (`declared_html`, which also skips building the table).

It supports what the site's tables use: accessors, `render_*` methods on the table or the column
taking `record`, `value` and/or `table`, static attributes. `linkify` and template columns are refused.
A column may also offer `cell_html(record, table)`: what its `render` shows, as an escaped plain
string, for the busiest cells (a game's grids have thousands).
"""

from __future__ import annotations

import functools
import html
import inspect
import operator
import re
from collections.abc import Callable
from datetime import date, datetime
from decimal import Decimal
from typing import NamedTuple

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django_tables2 import Column, Table
from django_tables2.columns.base import BoundColumn
from django_tables2.columns.linkcolumn import BaseLinkColumn
from django_tables2.columns.templatecolumn import TemplateColumn
from django_tables2.utils import A, AttributeDict


class Shown(NamedTuple):
    """What a table's columns read besides the record when written by `declared_html` (where a
    built table gives its own): the page's player names and whether dates carry their year."""

    names: object = None
    with_year: bool = False


class _Resolver:
    """What `Accessor.resolve(record, quiet=True)` returns, without its cost on the common record: it
    tries `record[bit]` first, which for a model instance or a dataclass raises and catches a
    TypeError at every step. Here plain attributes are followed directly; anything else (a mapping,
    a callable, a missing attribute) is left to django-tables2."""

    def __init__(self, accessor: A):
        self.accessor, self.bits = accessor, accessor.bits
        self.attributes = operator.attrgetter(".".join(self.bits))

    def __call__(self, record):
        # A record of attributes: all of them in one call. Checked once per class of record, and a
        # value of a plain type is known not to be callable, as a table has thousands of cells.
        if record.__class__ in _ATTRIBUTE_RECORDS or self.of_attributes(record):
            try:
                value = self.attributes(record)
            except AttributeError:  # a None on the way, a mapping or a missing attribute
                return self.walk(record)
            if value.__class__ in _PLAIN or not callable(value):
                return value
        return self.walk(record)

    @staticmethod
    def of_attributes(record) -> bool:
        if hasattr(record, "__getitem__"):
            return False
        _ATTRIBUTE_RECORDS.add(record.__class__)
        return True

    def walk(self, record):
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
_ATTRIBUTE_RECORDS: set[type] = set()  # classes of records seen without __getitem__
_PLAIN = frozenset({int, float, str, bool, type(None), date, datetime, Decimal})
Cell = Callable[[object, object], str]  # (record, table or Shown) -> the cell's escaped HTML


@functools.lru_cache(maxsize=1024)
def _parameters(function) -> frozenset[str]:
    return frozenset(inspect.signature(function).parameters)


_SPECIAL = re.compile("[&<>\"']")


def _escaped(content) -> str:
    """`conditional_escape(content)`, as a plain string and without its lazy-string check per cell."""
    if content.__class__ is str:  # the commonest cell, told apart without a call
        return html.escape(content) if _SPECIAL.search(content) else content
    if hasattr(content, "__html__"):
        return content.__html__()
    text = str(content)
    return html.escape(text) if _SPECIAL.search(text) else text


def _attributes(attrs: dict) -> str:
    """`AttributeDict(attrs).as_html()`, each distinct set worked out once (`format_html_join` is slow,
    twice a column, and a home page has a few hundred columns)."""
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


def _cell(column: Column, render, accessor, default) -> Cell:
    """How one column writes its cells, worked out once: which of `record`, `value` and `table` its
    render method takes, and whether it needs the value at all (resolving a missing attribute costs
    an exception per cell)."""
    if isinstance(column, TemplateColumn | BaseLinkColumn) or getattr(column, "link", None):
        raise TypeError(f"{type(column).__name__}: render it with a render_ method instead")
    if render is None and hasattr(column, "cell_html"):
        return column.cell_html
    if render is None and type(column).render is not Column.render:
        render = column.render
    # Bound to a table or column; its function's signature is the same for every instance.
    wanted = _parameters(getattr(render, "__func__", render)) & {"record", "value", "table"} if render else set()
    empty, empty_html = column.empty_values, _escaped(default)
    resolve = _Resolver(A(accessor)) if render is None or "value" in wanted or empty else None
    if render is None:
        return lambda record, table: empty_html if (value := resolve(record)) in empty else _escaped(value)
    if wanted == {"value"}:
        return lambda record, table: empty_html if (value := resolve(record)) in empty else _escaped(render(value))
    if wanted == {"value", "table"}:
        return lambda record, table: (
            empty_html if (value := resolve(record)) in empty else _escaped(render(value=value, table=table))
        )
    if wanted == {"record"} and resolve is None:
        return lambda record, table: _escaped(render(record=record))

    def cell(record, table) -> str:
        kwargs = {}
        if resolve is not None:
            value = resolve(record)
            if value in empty:
                return empty_html
            if "value" in wanted:
                kwargs["value"] = value
        if "record" in wanted:
            kwargs["record"] = record
        if "table" in wanted:
            kwargs["table"] = table
        return _escaped(render(**kwargs))

    return cell


def _plan(table, bound: BoundColumn) -> tuple[str, str, str, Cell]:
    """A column's header cell's attributes and content, its cells' attributes and its cell writer."""
    attrs = bound.attrs  # worked out afresh at every access: once per column here
    render = getattr(table, f"render_{bound.name}", None)
    cell = _cell(bound.column, render, bound.accessor, bound.default)
    return _attributes(attrs["th"]), conditional_escape(bound.header), _attributes(attrs["td"]), cell


def _write(plans: list, records, table, attrs: str, empty_text) -> SafeString:
    rows = [
        f"<tr>{''.join([f'<td {td}>{cell(record, table)}</td>' for _, _, td, cell in plans])}</tr>"
        for record in records
    ]
    return table_markup(attrs, [f"<th {th}>{header}</th>" for th, header, _, _ in plans], rows, empty_text)


def table_html(table: Table) -> SafeString:
    """What django-tables2 writes for `table` with `league/_table.html`."""
    plans = [_plan(table, bound) for bound in table.columns]
    return _write(plans, table.data, table, _attributes(table.attrs), table.empty_text)


@functools.lru_cache(maxsize=64)
def _declared(cls: type[Table], exclude: tuple[str, ...]) -> tuple[Table, list, str]:
    """A table class's columns planned once, on an empty table of it. Its cells are declared in its
    columns, which read what the page shows besides the record from their `table` argument."""
    if any(name.startswith("render_") for name in dir(cls)):
        raise TypeError(f"{cls.__name__}: declare its cells in its columns to write it from its declaration")
    sample = cls.__new__(cls)
    Table.__init__(sample, [], exclude=exclude)  # the class's own __init__ may want more
    return sample, [_plan(sample, bound) for bound in sample.columns], _attributes(sample.attrs)


def declared_html(cls: type[Table], records, shown: Shown, *, exclude=(), extra: list | tuple = ()) -> SafeString:
    """`table_html(cls(records, ..., exclude=exclude, extra_columns=extra))` without building the
    table: its columns are planned once per class, and `extra` columns (a grid's one per player) that
    share the attributes of the one before them take its attributes. `shown` stands for the table."""
    sample, plans, attrs = _declared(cls, tuple(exclude))
    plans, previous = list(plans), None
    for name, column in extra:
        if previous is None or column.attrs != previous.attrs:
            th, _, td, _ = _plan(sample, BoundColumn(sample, column, name))
        default = sample.default if column.default is None else column.default
        plans.append((th, conditional_escape(column.header), td, _cell(column, None, column.accessor or name, default)))
        previous = column
    return _write(plans, records, shown, attrs, sample.empty_text)


def table_markup(attrs: str, head: list[str], rows: list[str], empty_text: str | None = None) -> SafeString:
    """The markup around a table's header and row cells (each already escaped), with `empty_text`
    in a row of its own when there are no rows."""
    if not rows and empty_text:
        rows = [f'<tr><td colspan="{len(head)}">{conditional_escape(empty_text)}</td></tr>']
    return mark_safe(  # noqa: S308 - every header and cell given was escaped
        f'<div class="table-scroll" tabindex="0"><table {attrs}>'
        f"<thead><tr>{''.join(head)}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )
