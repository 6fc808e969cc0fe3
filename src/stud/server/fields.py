"""A request's JSON fields, checked one by one: a field that cannot be taken is a FieldError
that names it as data, with the facts of the bound it broke, so a form marks the field and says
why in the reader's language without reading the English words."""

from __future__ import annotations

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
