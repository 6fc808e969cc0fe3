"""One dictionary per language for every page: the catalogues of stud.text (en.json, de.json),
served to the web client. Both languages have the same keys with the same placeholders, and
every key a page uses exists, including the keys the pages build from facts (a hand's category,
an opener, an action, a street) for every value those facts can take.

No server and no browser: the scripts are read as text.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from stud.bots import BOTS
from stud.cards import Rank
from stud.engine import STREETS, ActionKind, Category, Opener
from stud.rules import Variant
from stud.text import LANGUAGES, catalogue

SERVER = Path(__file__).resolve().parents[2] / "src" / "stud" / "server"
STATIC = SERVER / "static"
SCRIPTS = {path.name: path.read_text(encoding="utf-8") for path in STATIC.glob("*.js")}
PAGES = {path.name: path.read_text(encoding="utf-8") for path in STATIC.glob("*.html")}
FAMILIES = ("ui", "rules", "hand", "showing", "first", "street", "action", "did", "you",
            "award", "pot", "odd_chip", "list", "rank", "ranks", "short_rank", "variant", "bot",
            "error", "history")
# A key the scripts spell out: a family, then dotted parts ("ui.hand_no", "hand.a5.one_pair").
_FAMILY = "|".join(FAMILIES)
LITERAL = re.compile(rf"""["'`]((?:{_FAMILY})(?:\.[a-z0-9_]+)+)["'`]""")
# A key the scripts build: a template with ${...} in it.
TEMPLATE = re.compile(rf"`((?:{_FAMILY})\.[a-z0-9_.]*\$\{{[^`]*)`")
# Error codes only the store itself sees (never an answer to a client).
INTERNAL_ERRORS = {"not_running"}


def _keys(lang: str) -> set[str]:
    return set(catalogue(lang))


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def _values_of_family(template: str) -> set[str]:
    """Every key a template of the scripts can make, from the values its facts can take."""
    categories = {c.value for c in Category}
    high = categories - {"low", "no_low"}
    kinds = {k.value for k in ActionKind}
    made = {
        "short_rank.${rank}": set(),  # optional: a rank as the cards show it ("10")
        "rank.${rank}": {f"rank.{r.char}" for r in Rank},
        "ranks.${rank}": {f"ranks.{r.char}" for r in Rank},
        "first.${why.opener}": {f"first.{o}" for o in ("low_card", "high_card")},
        "street.${street}": {f"street.{s.number}" for s in STREETS},
        "action.${action}": {f"action.{k}" for k in kinds},
        "did.${event.action}": {f"did.{k}" for k in kinds},
        "pot.half.${award.half}": {"pot.half.high", "pot.half.low"},
        "variant.${variant}": {f"variant.{v.value}" for v in Variant},
        "ui.col_${kind === \"game\" ? \"game\" : kind}": {
            f"ui.col_{c}" for c in ("name", "game", "stakes", "seats", "hph")},
        "ui.${label}": {"ui.high", "ui.low"},
        "bot.${bot}": {f"bot.{b}" for b in BOTS},
        "error.${frame.code}": set(),  # optional: the server's own words stand in
        "error.${code}": set(),
        "hand.a5.${value.category}": {f"hand.a5.{c}" for c in ("one_pair", "two_pair",
                                                                "three_of_a_kind", "full_house",
                                                                "four_of_a_kind")},
        "hand.${value.category}": {f"hand.{c}" for c in categories},
        "showing.${showing.category}": {f"showing.{c}" for c in (
            "high_card", "one_pair", "two_pair", "three_of_a_kind", "full_house",
            "four_of_a_kind")},
        "odd_chip.${odd.by}": {"odd_chip.suit", "odd_chip.seat"},
        "rules.${key}": set(),  # the rules page's keys: tests/server/test_rules_page.py
    }
    assert high <= {k[len("hand."):] for k in made["hand.${value.category}"]}
    if template not in made:
        raise AssertionError(f"a script builds keys from `{template}`: say here which values "
                             "it can take, so that every one of them is checked")
    return made[template]


def test_both_languages_have_the_same_keys_and_placeholders() -> None:
    english, german = catalogue("en"), catalogue("de")
    assert set(english) == set(german), (
        f"only English: {sorted(set(english) - set(german))}; "
        f"only German: {sorted(set(german) - set(english))}")
    for key, text in english.items():
        assert _placeholders(text) == _placeholders(german[key]), key
        assert text.strip() and german[key].strip(), key


def test_the_server_serves_the_catalogues_from_stud_text() -> None:
    source = (SERVER / "app.py").read_text(encoding="utf-8")
    assert '@app.get("/i18n/{lang}.json")' in source
    assert "fetch(`/i18n/${l}.json`" in SCRIPTS["i18n.js"]
    assert set(LANGUAGES) == {"en", "de"}


def test_no_page_keeps_words_of_its_own() -> None:
    # The old tables of words and of English-to-German translations are gone.
    for name, script in SCRIPTS.items():
        for gone in ("STRINGS", "DE_HAND_NAMES", "DE_REASONS", "reasonText", "handName",
                     "TEXT-BEGIN", "addStrings"):
            assert gone not in script, f"{name} still has {gone}"


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_every_key_a_script_spells_out_exists(name: str) -> None:
    used = set(LITERAL.findall(SCRIPTS[name]))
    used |= set(re.findall(r'\bt\("(seat|you)"', SCRIPTS[name]))
    for lang in LANGUAGES:
        missing = sorted(used - _keys(lang))
        assert not missing, f"{name} uses keys {lang}.json lacks: {missing}"


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_every_key_a_script_builds_exists_for_every_value(name: str) -> None:
    for template in set(TEMPLATE.findall(SCRIPTS[name])):
        for lang in LANGUAGES:
            missing = sorted(_values_of_family(template) - _keys(lang))
            assert not missing, f"{name}: `{template}` can make {missing}, not in {lang}.json"


@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_key_a_page_names_exists(name: str) -> None:
    used = set(re.findall(r'data-i18n(?:-placeholder)?="([^"]+)"', PAGES[name]))
    for lang in LANGUAGES:
        missing = sorted(used - _keys(lang))
        assert not missing, f"{name} names keys {lang}.json lacks: {missing}"


def test_every_error_a_client_can_get_has_words() -> None:
    sources = "\n".join(p.read_text(encoding="utf-8") for p in SERVER.glob("*.py"))
    codes = set(re.findall(r"""(?:ProtocolError|StoreError)\(\s*"([a-z_]+)\"""", sources))
    assert {"not_your_turn", "seat_taken", "wallet_short"} <= codes
    for lang in LANGUAGES:
        missing = sorted(f"error.{c}" for c in codes - INTERNAL_ERRORS
                         if f"error.{c}" not in _keys(lang))
        assert not missing, f"{lang}.json has no words for {missing}"


def test_every_reason_to_act_first_has_words() -> None:
    for lang in LANGUAGES:
        keys = _keys(lang)
        assert {f"first.{o.value}" for o in Opener} <= keys
        assert {"first.best_hand.lowball", "first.all_in", "first.all_in.bring_in", "first.tie",
                "first.tie.seat", "first.open_pair"} <= keys
