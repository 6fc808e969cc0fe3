"""A request's JSON fields, checked one by one: a field that cannot be taken is a FieldError
that names it as data, with the facts of the bound it broke, so a form marks the field and says
why in the reader's language without reading the English words."""

from __future__ import annotations

import re

from fastapi import HTTPException, Request

from stud.server.frames import Json


class FieldError(HTTPException):
    """A request field that cannot be taken: the answer names the field as data (``field``)
    beside the words (``detail``) and, where there are some, the facts of the rule it broke
    (``code`` and its values, ``facts``)."""

    def __init__(self, field: str, detail: str, **facts: object) -> None:
        super().__init__(400, detail)
        self.field = field
        self.facts = facts

    def json(self) -> Json:
        return {"detail": self.detail, "field": self.field, **self.facts}


async def json_body(request: Request) -> dict[str, object]:
    try:
        body = await request.json()
    except ValueError:
        raise HTTPException(400, "the body must be a JSON object") from None
    if not isinstance(body, dict):
        raise HTTPException(400, "the body must be a JSON object")
    return body


def whole(body: dict[str, object], name: str, default: int, low: int, high: int) -> int:
    """Field ``name`` (``default`` when absent): a whole number from ``low`` to ``high``."""
    value = body.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise FieldError(name, f"{name} must be a whole number from {low} to {high}, "
                               f"not {value!r}", code="out_of_range", low=low, high=high)
    return value


def choice(body: dict[str, object], name: str, default: str, choices: tuple[str, ...]) -> str:
    """Field ``name`` (``default`` when absent): one of ``choices``."""
    value = body.get(name, default)
    if not isinstance(value, str) or value not in choices:
        raise FieldError(name, f"{name} must be one of {', '.join(choices)}, not {value!r}",
                         code="not_a_choice", choices=list(choices))
    return value


_NAME = re.compile(r"[^\x00-\x1f\ud800-\udfff]{1,60}")  # no control character, no lone surrogate


def shown(value: object, most: int = 40) -> str:
    """A value as an error repeats it: its repr, cut to ``most`` characters.

    >>> shown("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx... (100 characters)"
    """
    text = repr(value)
    if len(text) <= most:
        return text
    size = f" ({len(value)} characters)" if isinstance(value, str) else ""
    return f"{text[:most]}...{size}"


def name_field(body: dict[str, object], default: str) -> str:
    """Field ``name`` (``default`` when absent or empty): 1 to 60 characters of text, no
    control character (nor a lone surrogate, which no database stores)."""
    name = body.get("name") or default
    if not isinstance(name, str) or not _NAME.fullmatch(name.strip()):
        raise FieldError("name", f"name must be 1 to 60 characters of text, with no control "
                                 f"character, not {shown(name)}")
    return name.strip()
