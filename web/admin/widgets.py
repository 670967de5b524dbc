"""A select for the player of each result row that writes its options once per matchday form.

Django renders every <option> through a template. A matchday of 500 players choosing among 500 is
250,000 of them: minutes, far past gunicorn's timeout, whether the form is shown or refused. Here the
options are written once, shared by the rows of the form set, and each row marks its own choice.
"""

from __future__ import annotations

from django import forms
from django.forms.utils import flatatt
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe


class SharedOptionsSelect(forms.Select):
    def __init__(self, attrs=None, choices=()):
        super().__init__(attrs, choices)
        self.shared: dict = {}  # the form set puts one dict in all its rows' widgets

    def options_html(self) -> str:
        if "options" not in self.shared:
            self.shared["options"] = "".join(
                format_html('<option value="{}">{}</option>', str(value), label) for value, label in self.choices
            )
        return self.shared["options"]

    def render(self, name, value, attrs=None, renderer=None):
        options = self.options_html()
        chosen = "" if value is None else escape(str(value))  # none chosen: the blank option, as Django does
        options = options.replace(f'<option value="{chosen}">', f'<option value="{chosen}" selected>', 1)
        final = self.build_attrs(self.attrs, attrs)
        return mark_safe(f'<select name="{escape(name)}"{flatatt(final)}>{options}</select>')  # noqa: S308 - escaped
