import markdown as markdown_lib
import nh3
from django import template
from django.utils.safestring import mark_safe

from web.pages.columns import change_html
from web.pages.formatting import format_change, format_fine_change, format_fine_rating, format_rating, formula_html

register = template.Library()


@register.filter
def rating(value):
    return format_rating(value)


@register.filter
def signed(value):
    return format_change(value)


@register.filter
def fine_rating(value):
    """A rating of a game played against deals: "1615.54"."""
    return format_fine_rating(value)


@register.filter
def fine_change(value):
    """A change of such a rating, green or red: "+0.43"."""
    return change_html(value, format_fine_change)


@register.filter
def formula(text):
    """A rating method's one-line explanation, exponents raised."""
    return formula_html(text)


@register.filter
def markdown(text):
    """Admin-written Markdown, with any HTML it produces cleaned of scripts and attributes."""
    cleaned = nh3.clean(markdown_lib.markdown(text or "", extensions=["tables"]))
    return mark_safe(cleaned)  # noqa: S308 - nh3 has removed scripts and unsafe attributes
