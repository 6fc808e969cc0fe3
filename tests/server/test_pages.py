"""The pages of a table that is not there (issue 12, point 9): a page for people, not JSON.

``/tables/{id}`` and ``/tables/{id}/rules`` of an unknown table answer 404 with an HTML page
that says so in the reader's language and links back to the lobby; the API keeps its JSON.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from stud.text import LANGUAGES, catalogue

from .conftest import Server, serve_in_thread
from .wsclient import make_account, make_table

STATIC = Path(__file__).resolve().parents[2] / "src" / "stud" / "server" / "static"
PAGE = STATIC / "no_table.html"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serve_in_thread(f"sqlite:///{tmp_path_factory.mktemp('pages') / 'stud.db'}") as running:
        yield running


@pytest.fixture
def http(server: Server) -> Iterator[httpx.Client]:
    with server.client() as client:
        yield client


@pytest.mark.parametrize("path", ["/tables/999", "/tables/999/rules", "/tables/abc",
                                  "/tables/abc/rules", "/tables/-1", f"/tables/{10**20}"])
def test_9_an_unknown_tables_page_is_a_404_page_with_the_way_back_to_the_lobby(
        http: httpx.Client, path: str) -> None:
    answer = http.get(path)
    assert answer.status_code == 404
    assert answer.headers["content-type"].startswith("text/html")
    assert answer.text == PAGE.read_text(encoding="utf-8")
    assert re.search(r'<a [^>]*href="/"[^>]*data-testid="back-to-lobby"', answer.text)


def test_9_a_known_tables_pages_are_still_served(http: httpx.Client) -> None:
    table = make_table(http, make_account(http)[1])
    for path, page in ((f"/tables/{table}", "table.html"),
                       (f"/tables/{table}/rules", "rules.html")):
        answer = http.get(path)
        assert answer.status_code == 200
        assert answer.text == (STATIC / page).read_text(encoding="utf-8")


@pytest.mark.parametrize("path", ["/api/tables/999", "/api/tables/999/hands"])
def test_9_the_api_still_answers_an_unknown_table_in_json(http: httpx.Client, path: str) -> None:
    answer = http.get(path)
    assert answer.status_code == 404
    assert answer.headers["content-type"].startswith("application/json")
    assert "999" in answer.json()["detail"]


def test_9_the_404_page_has_words_in_every_language() -> None:
    keys = set(re.findall(r'data-i18n="([^"]+)"', PAGE.read_text(encoding="utf-8")))
    assert {"ui.no_table_title", "ui.back_to_lobby"} <= keys
    for lang in LANGUAGES:
        assert keys | {"ui.no_table_text"} <= set(catalogue(lang))
        assert "{table}" in catalogue(lang)["ui.no_table_text"]


@pytest.mark.parametrize("path", ["/", "/tables/{table}", "/tables/{table}/rules", "/replayer",
                                  "/me/hands", "/tables/999"])
def test_every_page_is_asked_for_again_at_each_visit(http: httpx.Client, path: str) -> None:
    """No page is shown from the browser's cache without asking: a table closed since (a 404
    now) must not come back as the page that was."""
    table = make_table(http, make_account(http)[1])
    answer = http.get(path.format(table=table))
    assert answer.headers["content-type"].startswith("text/html")
    assert answer.headers["cache-control"] == "no-cache"
