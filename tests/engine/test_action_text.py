"""Actions read from text (``Action.parse``): an amount is digits 0 to 9, or a clear error."""

from __future__ import annotations

import pytest

from stud.engine import Action, ActionError


@pytest.mark.parametrize("text", ["call ²", "bet ⑤", "raise to ٥", "complete ５"])
def test_an_amount_in_other_digits_is_an_action_error(text: str) -> None:
    with pytest.raises(ActionError, match="needs an amount"):
        Action.parse(text)


def test_an_amount_in_digits_is_read() -> None:
    assert Action.parse("raise to 20") == Action.raise_to(20)
    assert Action.parse("bring-in 2") == Action.bring_in(2)
