"""The lobby's words in a real browser (Debian's chromium, as test_browser.py): an error the
server refuses with facts is said with those facts in the reader's language, not only in
English.
"""

from __future__ import annotations

import pytest

from . import test_browser as house
from .conftest import Server
from .test_browser import PHONE, expect
from .wsclient import make_account

# The house's fixtures: one chromium for the module, a server, a new user per person().
browser, site, person = house.browser, house.site, house.person


@pytest.mark.parametrize(("locale", "words"), [
    ("de-DE", "Dieser Spielername sieht aus wie „KeyAnn“, und der ist schon vergeben."),
    ("en-US", "That nickname looks like “KeyAnn”, which is taken."),
])
def test_a_nickname_like_a_taken_one_names_the_taken_one_in_the_readers_language(
        person, site: Server, locale: str, words: str) -> None:
    with site.client() as http:
        make_account(http, "KeyAnn")
    viewer = person(viewport=PHONE, locale=locale)
    page = viewer.page
    viewer.open_lobby()
    page.get_by_test_id("nickname-input").fill("KEYANN")
    page.get_by_test_id("nickname-submit").click()
    expect(page.get_by_test_id("nickname-error")).to_have_text(words)
    expect(page.get_by_test_id("nickname-input")).to_be_visible()  # no account was made
    house.screenshot(page, f"lobby-nickname-like-{locale[:2]}.png")
