"""The rules page (static/rules.html and rules.js) has words for everything a table can be.

No server and no browser: the page's words are the ``rules.`` keys of the catalogues every page
shares (src/stud/text/en.json and de.json); these tests read them as data and hold them against
``stud.rules`` (variants, policies, their choices, profiles), so a new policy or choice without
an English and a German explanation fails here.
"""

from __future__ import annotations

import dataclasses
import json
import re
import typing
from pathlib import Path

import pytest

from stud.rules import POLICIES, PROFILES, Rules, Variant
from stud.text import catalogue

STATIC = Path(__file__).resolve().parents[2] / "src" / "stud" / "server" / "static"
SCRIPT = (STATIC / "rules.js").read_text(encoding="utf-8")
PAGE = (STATIC / "rules.html").read_text(encoding="utf-8")
LANGS = ("en", "de")

# What rules.js fills into {placeholders}: the stakes, the cap, the table.
FILLED = {"ante", "bring_in", "small", "big", "max_bets", "raises", "name", "id", "status",
          "value"}


def _block(name: str) -> object:
    match = re.search(rf"/\* {name}-BEGIN \*/(.*?)/\* {name}-END \*/", SCRIPT, re.S)
    assert match, f"rules.js has no /* {name}-BEGIN */ ... /* {name}-END */ block"
    return json.loads(match.group(1))


# The page's words, "rules." taken off their keys; a variant's title is the shared "variant.".
TEXT: dict[str, dict[str, str]] = {
    lang: {key[len("rules."):]: text for key, text in catalogue(lang).items()
           if key.startswith("rules.")} for lang in LANGS}


def _choices(policy: str) -> tuple[str, ...]:
    """The values a policy can take, as the page's keys spell them ("true", "half_bet")."""
    hint = typing.get_type_hints(Rules)[policy]
    if hint is bool:
        return ("true", "false")
    if hint is int:
        return ("n",)  # a number: one text with {max_bets} in it
    args = typing.get_args(hint)
    assert args and all(isinstance(a, str) for a in args), f"{policy}: unexpected type {hint}"
    return tuple(args)


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_text_has_english_and_german_with_the_same_keys():
    assert TEXT["en"], "the catalogues have no rules. keys"
    assert set(TEXT["en"]) == set(TEXT["de"]), (
        f"only English: {sorted(set(TEXT['en']) - set(TEXT['de']))}; "
        f"only German: {sorted(set(TEXT['de']) - set(TEXT['en']))}")
    for lang in LANGS:
        empty = [k for k, v in TEXT[lang].items() if not isinstance(v, str) or not v.strip()]
        assert not empty, f"{lang}: empty texts {empty}"


def test_policy_list_is_stud_rules_policies_in_order():
    assert tuple(_block("POLICIES")) == POLICIES  # type: ignore[arg-type]


def test_standard_values_are_the_standard_profile():
    standard = dataclasses.asdict(PROFILES["standard"])
    standard.pop("name")
    assert _block("STANDARD") == standard


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("policy", POLICIES)
def test_every_policy_has_a_title(lang, policy):
    assert f"policy_{policy}" in TEXT[lang]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    ("policy", "choice"), [(p, c) for p in POLICIES for c in _choices(p)])
def test_every_choice_of_every_policy_is_explained(lang, policy, choice):
    key = f"policy_{policy}_{choice}"
    assert key in TEXT[lang], f"{lang}: no {key}"
    if choice == "n":
        assert "{max_bets}" in TEXT[lang][key]


def test_choices_cover_both_profiles():
    # The choices are read from the type hints; each profile's values must be among them.
    for rules in PROFILES.values():
        for policy in POLICIES:
            value = getattr(rules, policy)
            spelled = str(value).lower() if isinstance(value, bool) else value
            choices = _choices(policy)
            assert choices == ("n",) or spelled in choices, (rules.name, policy, value)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("variant", [v.value for v in Variant])
def test_every_variant_has_a_title_and_an_introduction(lang, variant):
    assert f"variant.{variant}" in catalogue(lang)
    assert f"variant_{variant}_intro" in TEXT[lang]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("profile", [*PROFILES, "custom", "pokerkit-custom"])
def test_every_profile_is_described(lang, profile):
    # "custom" and "pokerkit-custom" are what Rules.with_policies names changed profiles.
    assert f"profile_{profile.replace('-', '_')}" in TEXT[lang]


def test_every_text_key_the_script_names_exists():
    named = set(re.findall(r"\"((?:ui|sec|s\d|variant|policy|profile)_[a-z0-9_]+)\"", SCRIPT))
    assert named, "rules.js names no text keys outside TEXT"
    missing = sorted(named - set(TEXT["en"]))
    assert not missing, f"rules.js uses keys with no text: {missing}"


def test_statements_cite_every_section_of_rules_md():
    cited = {int(n) for n in re.findall(r"\bcite: (\d+)", SCRIPT)}
    assert cited == set(range(1, 9))
    sections = {int(k[1]) for k in TEXT["en"] if re.match(r"s\d_", k)}
    assert sections == set(range(1, 9))


def test_placeholders_agree_between_english_and_german():
    for key, english in TEXT["en"].items():
        assert _placeholders(english) == _placeholders(TEXT["de"][key]), key
        assert _placeholders(english) <= FILLED, f"{key}: rules.js never fills {english!r}"


def test_bring_in_and_bets_are_filled_in_from_the_stakes():
    for lang in LANGS:
        assert {"bring_in", "small"} <= _placeholders(TEXT[lang]["s3_choice"])
        assert {"ante", "bring_in", "small", "big"} <= _placeholders(TEXT[lang]["s1_limit"])
        assert "big" in _placeholders(TEXT[lang]["s4_big"])


def test_german_is_translated_not_copied():
    copied = [k for k, v in TEXT["en"].items() if len(v) > 30 and TEXT["de"][k] == v]
    assert not copied, f"German text equals the English: {copied}"


def test_suit_order_for_the_bring_in_follows_rules_md():
    # RULES.md 3: clubs lowest, then diamonds, hearts, spades; razz: spades brings in.
    low = TEXT["en"]["s3_lowest"]
    assert [low.index(s) for s in ("clubs", "diamonds", "hearts", "spades")] == sorted(
        low.index(s) for s in ("clubs", "diamonds", "hearts", "spades"))
    assert "the 2♣ brings in" in low
    assert "the K♠ brings in" in TEXT["en"]["s3_highest"]
    de = TEXT["de"]["s3_lowest"]
    assert [de.index(s) for s in ("Kreuz", "Karo", "Herz", "Pik")] == sorted(
        de.index(s) for s in ("Kreuz", "Karo", "Herz", "Pik"))


def test_page_has_the_language_switch_and_loads_the_script():
    assert 'data-testid="lang-switch"' in PAGE
    assert 'data-lang="en"' in PAGE and 'data-lang="de"' in PAGE
    assert '<script type="module" src="/static/rules.js"></script>' in PAGE
    assert 'from "./i18n.js"' in SCRIPT  # the language and the words every page shares


def test_sections_and_policy_rows_have_test_ids():
    for testid in ('"rules-variant"', '"rules-policies"', "`policy-${name}`"):
        assert f'"data-testid": {testid}' in SCRIPT, testid


def test_page_reads_its_table_from_the_api_and_links_back_to_it():
    assert "fetch(`/api/tables/${state.id}`" in SCRIPT
    assert "`/tables/${state.id}`" in SCRIPT


def test_page_loads_nothing_from_outside():
    for name, source in (("rules.html", PAGE), ("rules.js", SCRIPT)):
        assert not re.search(r"""(?:src|href)\s*=\s*["'](?:https?:)?//""", source), name
        assert not re.search(r"https?://", source), name
        assert "@import" not in source, name


def test_server_text_is_never_set_as_markup():
    # The table's name comes from a user; the script builds text nodes only.
    assert "innerHTML" not in SCRIPT and "insertAdjacentHTML" not in SCRIPT


def test_german_rules_name_streets_and_bets_as_the_table_and_the_lobby_do():
    """One German word per concept: the table says "dritte Straße" (street.3) and the lobby
    "Kleiner Einsatz" (ui.field_small_bet); the rules page said "Third Street" and "Small Bet"
    in English on a German page."""
    german = catalogue("de")
    english = [(k, word) for k, v in TEXT["de"].items()
               for word in re.findall(r"\b(?:Third|Fourth|Fifth|Sixth|Seventh|Street|Streets"
                                      r"|Small Bet|Big Bet|River)\b", v)]
    assert not english, f"English street or bet names on the German rules page: {english}"
    assert TEXT["de"]["ui_small_bet"] == german["ui.field_small_bet"]
    assert TEXT["de"]["ui_big_bet"] == "Großer Einsatz"
    assert re.search(r"\bgroße[nr]? Einsatz", german["first.open_pair"])  # the table's word
    third = german["street.3"]  # as the table's headings say it: "Dritte Straße"
    assert TEXT["de"]["sec_bring_in"].startswith(third[0].upper() + third[1:])
    said = " ".join(TEXT["de"].values()).lower()
    for number in range(4, 8):  # every later street, by the table's ordinal ("vierte Straße")
        ordinal = german[f"street.{number}"].split()[0].rstrip("e")
        assert re.search(rf"\b{ordinal}(?:e|en)\b[^.;:]*straße", said), german[f"street.{number}"]
