"""The stud command: simulate writes PHH that replays, play is playable from the keyboard."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import select
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scenarios import hand_with, passive, play, play_and_leave, to_street
from stud.cli import app
from stud.engine import Action, ActionKind
from stud.history.phh import load, loads
from stud.rules import Stakes, Variant, profile
from stud.terminal import parse_choice, play_session, render, result_lines, terminal_writer
from stud.text import words

runner = CliRunner()


@pytest.mark.parametrize("variant", ["stud", "stud8", "razz"])
def test_simulate_writes_every_hand_as_phh_that_replays(variant: str, tmp_path: Path) -> None:
    out = tmp_path / "deep" / "out"
    result = runner.invoke(app, ["simulate", "--variant", variant, "--players", "7", "--hands",
                                 "40", "--seed", "5", "--phh-out", str(out),
                                 "--bots", "random,strength,station"])
    assert result.exit_code == 0, result.output
    files = sorted(out.glob("*.phh"))
    assert len(files) == 40
    history = load(files[0])
    assert history.finishing_stacks is not None and history.fields["_rules"] == "standard"
    replayed = runner.invoke(app, ["replay", "--json", str(out)])
    assert replayed.exit_code == 0, replayed.output
    assert all(r["ok"] for r in json.loads(replayed.output))


def test_simulate_without_phh_out_prints_a_summary_and_writes_nothing(tmp_path: Path,
                                                                       monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["simulate", "--hands", "25", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "25 hands" in result.output and "hands per second" in result.output
    assert list(tmp_path.iterdir()) == []


def test_simulate_is_reproducible_for_a_seed(tmp_path: Path) -> None:
    for run in ("a", "b"):
        runner.invoke(app, ["simulate", "--hands", "10", "--seed", "9", "--phh-out",
                            str(tmp_path / run), "--rules", "pokerkit"])
    for k in range(1, 11):
        first, second = (tmp_path / run / f"{k}.phh" for run in ("a", "b"))
        assert first.read_text() == second.read_text()


@pytest.mark.parametrize("command", [["simulate", "--hands", "3"],
                                     ["tournament", "--players", "2"]])
def test_phh_out_refuses_a_folder_holding_an_earlier_runs_hands(command: list[str],
                                                                 tmp_path: Path) -> None:
    first = runner.invoke(app, [*command, "--seed", "1", "--phh-out", str(tmp_path)])
    assert first.exit_code == 0, first.output
    kept = {p.name: p.read_text() for p in tmp_path.glob("*.phh")}
    again = runner.invoke(app, [*command, "--seed", "2", "--phh-out", str(tmp_path)])
    assert again.exit_code == 2
    assert again.output == (f"error: --phh-out {tmp_path}: already holds {len(kept)} PHH files "
                            "(1.phh, ...); the hands of two runs would mix there: name a new or "
                            "empty folder\n")
    assert {p.name: p.read_text() for p in tmp_path.glob("*.phh")} == kept


@pytest.mark.parametrize("args, message", [
    (["--variant", "holdem"], "unknown variant"),
    (["--players", "9"], "2 to 8 players"),
    (["--rules", "wsop"], "unknown rules profile"),
    (["--bots", "shark"], "unknown bot"),
    (["--stakes", "1/2/5"], "ANTE/BRING_IN/SMALL_BET/BIG_BET"),
    (["--stakes", "1/6/5/10"], "bring_in 6 must be less than the small bet 5"),
])
def test_simulate_rejects_bad_options_clearly(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["simulate", "--hands", "1", *args])
    assert result.exit_code == 2
    assert message in result.output


def test_menu_choice_by_number_word_and_amount() -> None:
    legal = (Action(ActionKind.FOLD), Action(ActionKind.CALL, 5), Action(ActionKind.RAISE, 10))
    assert parse_choice("2", legal) == legal[1]
    assert parse_choice("call", legal) == legal[1]
    assert parse_choice("raise 10", legal) == legal[2]
    for bad, why in [("7", "not on the menu"), ("check", "cannot check"), ("raise 12", "10"),
                     ("dance", "not an action"), ("", "type the number")]:
        with pytest.raises(ValueError, match=why):
            parse_choice(bad, legal)


def test_play_several_hands_with_bad_input_then_quit() -> None:
    answers = iter(["nonsense", "99"] + ["1"] * 200)
    lines: list[str] = []
    prompts = {"count": 0}

    def read(prompt: str) -> str:
        if prompt.startswith("Enter for the next hand"):
            prompts["count"] += 1
            return {1: "t", 2: "", 3: "h", 4: "", 5: "q"}[prompts["count"]]
        return next(answers)

    play_session(Variant.STUD8, Stakes(1, 2, 5, 10), profile("standard"),
                 ["strength", "random", "station"], 20, seed=4, read=read, write=lines.append)
    text = "\n".join(lines)
    assert "'nonsense' is not an action here" in text
    assert "99 is not on the menu" in text
    assert text.count("=== Hand") == 3
    assert "Stacks:" in text and "You leave with" in text
    assert "--- Hand history ---" in text and "posts the ante 1" in text
    assert 'variant = "F7S/8"' in text and "finishing_stacks" in text
    assert "stakes 5/10 (ante 1, bring-in 2)" in text


def test_the_hand_history_printed_in_a_narrow_terminal_reads_back_as_phh() -> None:
    """``h`` after a hand prints its PHH one action a line: a terminal's wrapping never
    breaks a line inside a string, so the text copied from it loads as the hand."""
    printed: list[str] = []
    answers = iter(["h", "q"])

    def read(prompt: str) -> str:
        return next(answers) if prompt.startswith("Enter for the next hand") else "1"

    play_session(Variant.STUD8, Stakes(1, 2, 5, 10), profile("standard"),
                 ["random", "station", "random"], 20, seed=5, read=read,
                 write=lambda text: printed.append(text))
    text = next(t for t in printed if t.startswith("variant = "))
    with contextlib.redirect_stdout(io.StringIO()) as out:
        terminal_writer(width=40)(text)
    narrow = out.getvalue().splitlines()
    assert max(len(line) for line in narrow if not line.startswith("_rule")) <= 40
    hand = loads("\n".join(narrow))
    assert hand.actions == loads(text).actions and hand.actions[0].startswith("d dh p1 ")
    assert hand.finishing_stacks is not None and sum(hand.finishing_stacks) == 4 * 200


def test_typed_words_accept_what_the_menu_shows() -> None:
    # Facing a completion to 5 with the bring-in of 2 in: the menu says "call 3 (to 5)".
    legal = (Action.fold(), Action.call(5), Action.raise_to(10))
    en, de = words("en"), words("de")
    for text in ("call 3", "call 5", "c 3", "call 3 (to 5)", "CALL", "2"):
        assert parse_choice(text, legal, wager=2) is legal[1], text
    for text in ("raise 10", "raise to 10", "r 10", "3"):
        assert parse_choice(text, legal, wager=2) is legal[2], text
    assert parse_choice("f", legal, wager=2) is legal[0]
    # German words, and the English ones, under --lang de.
    for text, action in (("mitgehen 3", legal[1]), ("Mitgehen 3 (auf 5)", legal[1]),
                         ("erhöhen auf 10", legal[2]), ("passen", legal[0]),
                         ("call 3", legal[1])):
        assert parse_choice(text, legal, wager=2, w=de) is action, text
    with pytest.raises(ValueError, match="call 4 is not allowed: the amount is 3"):
        parse_choice("call 4", legal, wager=2, w=en)
    with pytest.raises(ValueError, match="du kannst jetzt nicht checken"):
        parse_choice("checken", legal, wager=2, w=de)
    with pytest.raises(ValueError, match="is not an action"):
        parse_choice("fold 3", legal, wager=2, w=en)


def test_a_wager_by_another_name_is_the_same_wager() -> None:
    # Only a bet is possible: "raise 10" is the bet of 10, as the engine takes it.
    legal = (Action.check(), Action.bet(5), Action.bet(10))
    assert parse_choice("raise 10", legal) is legal[2]
    with pytest.raises(ValueError, match="say which: bet 5 or bet 10"):
        parse_choice("bet", legal)
    with pytest.raises(ValueError, match="the amount is 5 or 10"):
        parse_choice("bet 7", legal)
    # On third street the raise is the completion, and the menu says so.
    third = (Action.fold(), Action.call(2), Action.complete(5))
    assert parse_choice("raise 5", third) is third[2]
    assert parse_choice("complete to 5", third) is third[2]
    with pytest.raises(ValueError, match="you cannot raise now: on third street the first raise "
                       "is the completion; you may complete to 5"):
        parse_choice("raise", third)
    # At one's own bring-in, the bring-in is named beside the completion.
    bring_in = (Action.bring_in(2), Action.complete(5))
    with pytest.raises(ValueError, match="you cannot bet now: on third street the first raise "
                       "is the completion; you may bring in 2 or complete to 5"):
        parse_choice("b", bring_in)
    assert parse_choice("i", bring_in) is bring_in[0]
    # A bet or raise with no amount, where it names the one wager possible, is that wager.
    assert parse_choice("raise", legal[:2]) is legal[1]
    with pytest.raises(ValueError, match="raise 7 is not allowed: the amount is 5"):
        parse_choice("raise 7", legal[:2])
    assert [a.kind for a in third] == [ActionKind.FOLD, ActionKind.CALL, ActionKind.COMPLETE]


def test_the_turn_line_names_who_is_to_act_and_the_log_says_why_the_first_actor_acts() -> None:
    hand = hand_with("stud", {1: "2c 3c 2d 9d", 2: "7c 8c Kh Kd", 3: "Tc Jc 5s 7d"})
    to_street(hand, 4)
    assert hand.to_act == 2  # the pair of kings
    play(hand, "cbr 2")
    board = render(hand.view(3), {1: "Ann", 2: "Bob", 3: "You"}.__getitem__)
    assert board.splitlines()[-2 if "equity" in board else -1] == "You to act"
    assert "acts first" not in board and "(" not in board.splitlines()[-1]
    why = hand.view(3).why
    assert why is not None
    assert words("en").first_to_act(why, {1: "Ann", 2: "Bob", 3: "You"}.__getitem__, you=3) == (
        "Bob acts first: best up cards, a pair of Kings; open pair: the big bet is allowed")


def test_result_says_a_stud8_pot_without_a_low_is_the_whole_pot_and_a_scoop() -> None:
    hand = passive(hand_with("stud8", {1: "9c 9d Kh Ks Qc 3d 5h", 2: "Ac Ad Qs Jd Th 9h 9s"}))
    names = {1: "Ann", 2: "You"}.__getitem__
    assert result_lines(hand.events, names, words("en"), you=2) == [
        "You win 4 from the main pot with Two Pair, Aces and Nines; no low, so the high hand "
        "takes the whole pot",
        "You scoop the main pot (4)",
    ]
    assert result_lines(hand.events, {1: "Ann", 2: "Du"}.__getitem__, words("de"), you=2)[-1] \
        == "Scoop: Du gewinnst alles aus dem Hauptpot (4)"
    split = passive(hand_with("stud8", {1: "Kc Kd 9s Qh 5h Js 9d", 2: "7d 5d 4h 3h 2s Qs Jd"}))
    assert result_lines(split.events, names, words("en"), you=2) == [
        "Ann wins 2 from the main pot (high) with Two Pair, Kings and Nines",
        "You win 2 from the main pot (low) with 7-5-4-3-2 low",
    ]


def play_lines(variant: Variant, lang: str, seed: int, hands: int = 3) -> list[str]:
    answers = iter(["nonsense", "99"] + ["2", "1", "c", "k"] * 100)
    lines: list[str] = []
    prompts = {"count": 0}

    def read(prompt: str) -> str:
        lines.append(prompt)
        if prompt == words(lang).t("play.next"):
            prompts["count"] += 1
            return "t" if prompts["count"] == 1 else "q" if prompts["count"] > hands else ""
        return next(answers)

    play_session(variant, Stakes(1, 2, 5, 10), profile("standard"),
                 ["strength", "random", "station"], 20, seed=seed, read=read, write=lines.append,
                 lang=lang)
    return lines


@pytest.mark.parametrize("variant", list(Variant))
def test_the_terminal_game_reads_in_german(variant: Variant) -> None:
    text = "\n".join(play_lines(variant, "de", seed=3))
    assert "Du setzt die Ante 1" in text and "Du bist am Zug" in text
    assert "--- Ergebnis ---" in text and "Du gehst mit" in text
    assert "'nonsense' ist hier keine Aktion" in text
    assert "99 steht nicht im Menü" in text
    assert " gewinnt " in text
    for english in ("You ", " wins ", " to act", "Your action", "posts the ante", "stack ",
                    "{", "}"):
        assert english not in text, english


@pytest.mark.parametrize("variant", list(Variant))
def test_the_terminal_game_speaks_to_you_in_the_second_person(variant: Variant) -> None:
    text = "\n".join(play_lines(variant, "en", seed=5))
    assert "You post the ante 1" in text and "You to act" in text
    for wrong in ("You posts", "You brings", "You bets", "You checks", "You calls", "You folds",
                  "You wins", "You is", "to act (", "{", "}"):
        assert wrong not in text, wrong
    history = text[text.index("--- Hand history ---"):]
    assert "  You: [" in history and "[??] [??]" in history  # your own cards, not others'


def test_play_lang_option() -> None:
    result = runner.invoke(app, ["play", "--lang", "de", "--seed", "3"], input="q\n",
                           env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "Du sitzt auf Platz 1 mit 500." in result.output
    # q at the first decision: the hand is played out for you (the ante lost), then you go.
    assert "du hast darin 1 verloren." in result.output
    assert "Du gehst mit 499 Chips nach 1 Hand." in result.output
    result = runner.invoke(app, ["play", "--lang", "fr"])
    assert result.exit_code == 2 and "--lang 'fr': choose en or de" in result.output


def test_result_says_where_the_odd_chip_of_halving_a_pot_went() -> None:
    # Pot 5 (seat 3 folds): 3 to the high hand, 2 to the low.
    hand = hand_with("stud8", {1: "Kc Kd 9s Qh 5h Js 9d", 2: "7d 5d 4h 3h 2s Qs Jd",
                               3: "8c 8s Ac"})
    play(hand, "b", "f", "c")
    passive(hand)
    names = {1: "Ann", 2: "Bob", 3: "You"}.__getitem__
    assert result_lines(hand.events, names, words("en"), you=3) == [
        "Ann wins 3 from the main pot (high) with Two Pair, Kings and Nines",
        "the odd chip of halving the pot goes to the high half",
        "Bob wins 2 from the main pot (low) with 7-5-4-3-2 low",
    ]


WSOP = Path(__file__).resolve().parents[2] / "shared" / "data" / "phh" / "wsop-2023-43-5"


def _wsop_hand(tmp_path: Path, name: str, edit) -> Path:
    source = WSOP / "10.phh"
    if not source.exists():
        pytest.skip("the WSOP hands in ../shared/data/phh are not here")
    path = tmp_path / name
    path.write_text(edit(source.read_text(encoding="utf-8")), encoding="utf-8")
    return path


def test_replay_without_finishing_stacks_says_it_was_not_checked(tmp_path: Path) -> None:
    bare = _wsop_hand(tmp_path, "bare.phh", lambda text: "\n".join(
        line for line in text.splitlines() if not line.startswith("finishing_stacks")))
    result = runner.invoke(app, ["replay", str(bare), str(WSOP / "11.phh")])
    assert result.exit_code == 0, result.output
    assert f"NOT CHECKED  {bare} (stud) replayed without an error, but the file has no " \
           f"finishing_stacks" in result.output
    assert "1 of 2 hands replayed exactly; 1 replayed without an error but not checked" \
           in result.output
    as_json = json.loads(runner.invoke(app, ["replay", "--json", str(bare)]).output)
    assert as_json[0]["ok"] is True and as_json[0]["checked"] is False
    checked = json.loads(runner.invoke(app, ["replay", "--json", str(WSOP / "11.phh")]).output)
    assert checked[0]["checked"] is True


def test_replay_names_the_action_that_deals_a_card_twice(tmp_path: Path) -> None:
    # Seat 2's door card becomes seat 1's first down card, 5d.
    twice = _wsop_hand(tmp_path, "twice.phh",
                       lambda text: text.replace("'d dh p2 7h3s4h'", "'d dh p2 7h3s5d'"))
    result = runner.invoke(app, ["replay", str(twice)])
    assert result.exit_code == 1
    assert (f"FAIL  {twice}: action 1 ('d dh p2 7h3s5d'): card 5d is dealt twice: action 0 "
            f"dealt it already") in result.output


def test_replay_reads_amounts_and_file_numbers_in_the_digits_0_to_9_only(tmp_path: Path) -> None:
    """"²" passes str.isdigit and then int() refused it: a traceback. Now it is a bad action,
    and a file named "².phh" is a file with no number."""
    odd = _wsop_hand(tmp_path, "\u00b2.phh",
                     lambda text: text.replace("'p4 cbr 200000'", "'p4 cbr \u00b2'", 1))
    result = runner.invoke(app, ["replay", str(tmp_path)])
    assert result.exit_code == 1, result.output
    assert f"FAIL  {odd}: action " in result.output
    assert "('p4 cbr \u00b2'): unknown action: use f, cc, pb, cbr AMOUNT" in result.output


@pytest.mark.parametrize("command, message", [
    (["bot", "--url", "127.0.0.1:18431", "--table", "1"],
     "--url 127.0.0.1:18431: give the whole address, with http:// or https://, like "
     "http://127.0.0.1:18431"),
    (["serve", "--lease", "-1", "--port", "1"], "--lease -1: from 1 to 300 seconds"),
])
def test_a_bad_address_or_lease_is_refused_before_anything_starts(command: list[str],
                                                                   message: str) -> None:
    result = runner.invoke(app, command)
    assert result.exit_code == 2 and result.output == f"error: {message}\n", result.output


@pytest.mark.parametrize("command, message", [
    (["simulate", "--players", "2", "--bots", "random,station,expert"],
     "--bots: 3 bots named but --players 2; name at most 2 or raise --players"),
    (["play", "--players", "3", "--bots", "random,station,expert"],
     "--bots: 3 bots named but --players 3 leaves 2 seats for bots; name at most 2"),
])
def test_more_bots_than_seats_is_refused(command: list[str], message: str) -> None:
    result = runner.invoke(app, command, input="q\n")
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert "=== Hand" not in result.output


def test_unwritable_output_paths_are_refused_before_the_run(tmp_path: Path) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    cases = [
        (["simulate", "--out", str(tmp_path)], f"--out {tmp_path}: is a folder; name a file"),
        (["simulate", "--out", str(a_file / "r.json")], f"{a_file} is not a folder"),
        (["simulate", "--phh-out", str(a_file)], f"--phh-out {a_file}: not a folder"),
        (["league", "--bots", "random,station", "--plot", str(a_file / "p.png")],
         f"--plot {a_file / 'p.png'}: {a_file} is not a folder"),
        (["league", "--bots", "random,station", "--plot", str(tmp_path)],
         f"--plot {tmp_path}: is a folder"),
    ]
    for command, message in cases:
        # A million hands: refused at once, or the test would not end.
        result = runner.invoke(app, [*command, "--hands", "1000000", "--quiet"])
        assert result.exit_code == 2, (command, result.output)
        assert message in result.output, (command, result.output)
        assert "hands per second" not in result.output
    result = runner.invoke(app, ["league", "--bots", "random,station", "--hands", "5", "--quiet",
                                 "--plot", str(tmp_path / "new" / "p.png"),
                                 "--out", str(tmp_path / "new" / "r.json")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "new" / "p.png").stat().st_size > 0
    assert json.loads((tmp_path / "new" / "r.json").read_text())


def test_serve_refuses_a_busy_port_and_a_bad_database_in_one_line(tmp_path: Path) -> None:
    import socket
    import subprocess
    import sys

    database = f"sqlite:///{tmp_path / 'stud.db'}"
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run([sys.executable, "-c", "from stud.cli import main; main()",
                               "serve", "--port", str(port), "--database", database],
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"error: cannot listen on 127.0.0.1 port {port}: the port is in use\n"
    assert "serving" not in done.stdout
    for url, message in [
        ("postgresql:/x", "--database 'postgresql:/x': cannot open the database: Could not "
                          "parse SQLAlchemy URL"),
        (f"sqlite:///{tmp_path / 'no' / 'such' / 'x.db'}",
         f"the folder {tmp_path / 'no' / 'such'} does not exist"),
        (f"sqlite:///{tmp_path}", f"{tmp_path} is a folder, not a database file"),
        ("postgresql://me@127.0.0.1:notaport/db", "--database "
         "'postgresql://me@127.0.0.1:notaport/db': the port 'notaport' is not a number"),
    ]:
        result = runner.invoke(app, ["serve", "--port", str(port),
                                     "--database", url])
        assert result.exit_code == 2, result.output
        assert message in result.output and "serving" not in result.output
        assert not isinstance(result.exception, ValueError)  # no traceback
    for url, message in (("postgresql:/x", "cannot open the database"),
                         ("postgresql://me@127.0.0.1:notaport/db", "is not a number")):
        result = runner.invoke(app, ["audit", "--database", url])
        assert result.exit_code == 2 and message in result.output


def test_a_database_given_as_a_path_is_an_sqlite_file(tmp_path: Path) -> None:
    from stud.cli import open_store

    path = tmp_path / "games.db"
    result = runner.invoke(app, ["audit", "--database", str(path)])
    assert result.exit_code == 2 and f"no database at sqlite:///{path}" in result.output
    open_store(f"sqlite:///{path}", upgrade=True).close()
    result = runner.invoke(app, ["audit", "--database", str(path)])
    assert result.exit_code == 0 and "the books balance" in result.output


def test_serve_on_every_address_names_the_addresses_others_can_open() -> None:
    # The server itself is tried by hand: servers in tests listen on 127.0.0.1 only.
    from stud.cli import _addresses_text, network_addresses

    assert _addresses_text("127.0.0.1", 8000) == "http://localhost:8000/"
    assert _addresses_text("10.1.2.3", 80) == "http://10.1.2.3:80/"
    text = _addresses_text("0.0.0.0", 8000)
    assert text.startswith("http://localhost:8000/ on this machine; from others ")
    for address in network_addresses():
        assert not address.startswith("127.") and f"http://{address}:8000/" in text
    if not network_addresses():
        assert "this machine's address and port 8000 (none was found)" in text


def leave_on(street_name: str, leave: Callable[[], str]) -> str:
    """A session where you check or call until ``street_name`` and then leave (``leave``)."""
    return "\n".join(play_and_leave(street_name, lambda _lines: leave()))


def quit_typed() -> str:
    return "q"


def end_of_input() -> str:
    raise EOFError


@pytest.mark.parametrize("leave", [quit_typed, end_of_input])
def test_leaving_during_a_hand_plays_it_out_and_reports_the_true_stack(
        leave: Callable[[], str]) -> None:
    text = leave_on("seventh street", leave)
    assert "You left during a hand: it was played to its end for you" in text
    stacks = re.findall(r"Stacks: You (\d+)", text)
    left = re.search(r"You leave with (\d+) chips after 1 hand\.", text)
    assert left is not None and stacks and left.group(1) == stacks[-1]
    cost = re.search(r"you lost (\d+) in it|you won (\d+) in it", text)
    assert cost is not None
    lost, won = cost.groups()
    assert int(stacks[-1]) == 200 - int(lost or 0) + int(won or 0)


@pytest.mark.parametrize("rules", ["standard", "pokerkit"])
@pytest.mark.parametrize("auto", [True, False])
def test_a_pot_won_at_the_showdown_over_a_mucked_hand_is_not_uncontested(rules: str,
                                                                         auto: bool) -> None:
    hand = hand_with("stud", {1: "As Ad 2c Ah Ac 3d 4d", 2: "Ks Kd 5h Kh 9s 9d 7c",
                              3: "Qs Qd 6h 8c Ts Js 2d"}, rules=rules, auto_showdown=auto)
    play(hand, "b", "c", "c", *["k"] * 12)
    if not auto:
        play(hand, "show", "muck", "muck")
    assert hand.is_over
    lines = result_lines(hand.events, {1: "You", 2: "Bob", 3: "Cy"}.__getitem__, words("en"),
                         you=1)
    assert lines == ["You win 6 from the main pot with Four of a Kind, Aces"], lines


def test_a_bot_that_busts_rebuys_and_the_table_is_told() -> None:
    count = {"hands": 0}

    def read(prompt: str) -> str:
        if prompt.startswith("Enter for the next hand"):
            count["hands"] += 1
            return "q" if count["hands"] >= 12 else ""
        if prompt.startswith("You are out of chips"):
            return "y"
        return "1"  # fold, or whatever comes first

    lines: list[str] = []
    play_session(Variant.STUD, Stakes(1, 2, 5, 10), profile("standard"), ["random"] * 3, 1,
                 seed=2, read=read, write=lines.append)
    told = [k for k, line in enumerate(lines)
            if line.endswith("is out of chips and buys in again for 10.")]
    assert told, "\n".join(lines)
    # Told as the next hand begins, before it is dealt.
    for k in told:
        following = lines[k + 1]
        assert following.startswith("\n=== Hand") or following.endswith("buys in again for 10.")


def test_a_fold_that_is_not_allowed_says_why() -> None:
    """The bring-in's refusal names no card: the lowest brings in, except in razz (highest)."""
    bring_in = (Action.bring_in(2), Action.complete(5))
    with pytest.raises(ValueError, match="you cannot fold the bring-in: the seat that brings in "
                       "posts the bring-in or completes; you may bring in 2 or complete to 5"):
        parse_choice("fold", bring_in)
    with pytest.raises(ValueError, match="there is no bet to fold to: check, it costs nothing"):
        parse_choice("f", (Action.check(), Action.bet(5)))
    with pytest.raises(ValueError, match="du kannst das Bring-in nicht passen"):
        parse_choice("passen", bring_in, w=words("de"))


def test_help_reads_as_a_command_line() -> None:
    wide = {"COLUMNS": "160", "TERMINAL_WIDTH": "160"}
    top = runner.invoke(app, ["--help"], env=wide).output
    assert "<bool>" not in top
    summaries = {line.split()[1]: line for line in top.splitlines()
                 if line.startswith("│ ") and len(line.split()) > 2}
    assert "Check the web table's books; exit status 1 if they are wrong." in summaries["audit"]
    for command in ("replay", "simulate", "league", "play", "serve", "audit", "equity"):
        text = runner.invoke(app, [command, "--help"], env=wide).output
        assert "<bool>" not in text and "{" not in text, (command, text)
    replay = runner.invoke(app, ["replay", "--help"], env=wide).output
    assert re.search(r"Usage: \S+ replay \[OPTIONS\] PATHS\.\.\. *$", replay, re.M), replay
    assert "│ --json " in replay and "one JSON array, an object per hand" in replay
    simulate = runner.invoke(app, ["simulate", "--help"], env=wide).output
    # The docstring's paragraph is one paragraph, wrapped to the width, not at its own breaks.
    assert "derived from --seed and the hand's number" in simulate


def test_after_the_award_the_board_shows_no_pot_and_no_bets() -> None:
    hand = passive(hand_with("stud", {1: "As Ad 2c Ah Ac 3d 4d", 2: "Ks Kd 5h Kh 9s 9d 7c"}))
    board = render(hand.view(1), {1: "You", 2: "Bob"}.__getitem__, words("en"))
    assert board.splitlines()[1] == "the hand is over: the pots are awarded (see the result)"
    assert "bet" not in board and "stack    102" in board


def test_long_lines_wrap_at_spaces_under_their_own_indent(capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    from stud.terminal import terminal_writer

    text = "Stacks: You 500, " + ", ".join(f"strength-{k} 1234" for k in range(2, 9))
    terminal_writer(40)(text)
    terminal_writer(40)("  short line")
    *wrapped, short = capsys.readouterr().out.splitlines()
    assert short == "  short line"
    assert len(wrapped) > 1 and all(len(line) <= 40 for line in wrapped)
    assert all(line.startswith("  ") for line in wrapped[1:])
    # Every word kept, in order, none cut (a name is never broken at its hyphen).
    assert " ".join(wrapped).split() == text.split()


def _session(answers: list[str]) -> list[str]:
    """The lines of a stud session against a station at seed 1, 20 big bets: the answers
    between hands given in turn; in a hand, fold where one may, else check, else the first."""
    given = iter(answers)
    lines: list[str] = []

    def read(prompt: str) -> str:
        if prompt.startswith("Enter for the next hand"):
            return next(given)
        return "f" if "fold" in prompt else "k" if "check" in prompt else "1"

    play_session(Variant.STUD, Stakes(1, 2, 5, 10), profile("standard"), ["station"], 20,
                 seed=1, read=read, write=lines.append)
    return lines


def test_an_unknown_answer_between_hands_is_asked_again() -> None:
    text = "\n".join(_session(["bet 99", "x", "q"]))
    assert "'bet 99' is not an answer here: press Enter for the next hand" in text
    assert "'x' is not an answer here" in text
    assert text.count("=== Hand") == 1 and "after 1 hand." in text


def test_a_menu_number_with_an_amount_is_refused_quoting_the_whole_input() -> None:
    legal = (Action.check(), Action.bet(10))
    with pytest.raises(ValueError, match="^'2 2' is not an action here: a menu number takes no "
                       "amount; type 2 alone for bet 10$"):
        parse_choice("2 2", legal)
    with pytest.raises(ValueError, match="^'2 2' ist hier keine Aktion: eine Nummer aus dem Menü "
                       "nimmt keinen Betrag; für Setzen 10 gib nur 2 ein$"):
        parse_choice("2 2", legal, w=words("de"))
    with pytest.raises(ValueError, match="^9 is not on the menu: choose 1 to 2$"):
        parse_choice("9 10", legal)


def test_call_with_nothing_to_call_is_a_check_and_an_amount_to_call_is_refused() -> None:
    """``c`` or ``call`` alone is check/call, as a site's button; ``call 10`` where there is
    nothing to call is refused, saying so, never taken for a check without a word."""
    legal = (Action.check(), Action.bet(10))
    assert parse_choice("c", legal) is legal[0]
    assert parse_choice("call", legal) is legal[0]
    for text in ("call 10", "c 10"):
        with pytest.raises(ValueError, match="^there is nothing to call: check, it costs "
                           "nothing; you may check or bet 10$"):
            parse_choice(text, legal)
    with pytest.raises(ValueError, match="^es gibt nichts zum Mitgehen: checke, das kostet "
                       "nichts"):
        parse_choice("mitgehen 10", legal, w=words("de"))
    # Facing a bet, call is the call.
    facing = (Action.fold(), Action.call(10), Action.raise_to(20))
    assert parse_choice("c", facing) is facing[1]


@pytest.mark.parametrize("typed", ["call\x1b[D\x1b[", "\x1b[A", "raise 10\x7f"])
def test_keys_that_type_no_text_are_never_echoed_as_escape_codes(typed: str) -> None:
    legal = (Action.fold(), Action.call(10), Action.raise_to(20))
    with pytest.raises(ValueError) as error:
        parse_choice(typed, legal)
    message = str(error.value)
    assert message.isprintable() and ("^[" in message or "^?" in message), message
    assert "arrow" in message


def test_an_answer_between_hands_is_echoed_without_escape_codes() -> None:
    lines = _session(["\x1b[A", "q"])
    assert "  '^[[A' is not an answer here: press Enter for the next hand, or type t, h or q" \
        in lines
    assert all(line.isprintable() for text in lines for line in text.split("\n")), lines


def _last_action(prompt: str) -> str:
    """The highest-numbered action of the menu: all in soonest."""
    return str(len(re.findall(r"\[\d+\]", prompt)))


@pytest.mark.parametrize("lang, rebuy, summary", [
    ("en", "y", "You put in 40 (a buy-in of 10 and 3 rebuys of 10 each) and lost 40."),
    ("de", "j", "Du hast 40 eingesetzt (ein Buy-In von 10 und 3 Nachkäufe von je 10) und 40 "
                "verloren."),
])
def test_the_summary_counts_every_rebuy_and_says_the_net_result(lang: str, rebuy: str,
                                                                summary: str) -> None:
    rebuys = {"count": 0}

    def read(prompt: str) -> str:
        if prompt.startswith("Enter"):
            return ""
        if prompt.startswith(("You are out of chips", "Du hast keine Chips mehr")):
            rebuys["count"] += 1
            return rebuy if rebuys["count"] <= 3 else "q"
        return _last_action(prompt)

    lines: list[str] = []
    play_session(Variant.STUD, Stakes(1, 2, 5, 10), profile("standard"), ["station"], 1,
                 seed=3, read=read, write=lines.append, lang=lang)
    assert rebuys["count"] == 4
    assert lines[-2].startswith(("\nYou leave with 0 chips", "\nDu gehst mit 0 Chips"))
    assert lines[-1] == summary, lines[-3:]


def test_the_summary_without_rebuys_says_what_you_won() -> None:
    lines = _session(["", "q"])
    chips = int(re.findall(r"You leave with (\d+) chips after 2 hands\.", lines[-2])[0])
    net = chips - 200
    assert lines[-1] == (f"You bought in for 200 and won {net}." if net > 0 else
                         f"You bought in for 200 and lost {-net}." if net < 0 else
                         "You bought in for 200 and are even."), lines[-2:]


@pytest.mark.parametrize("buy_in", ["100000000000000000000000", str(2**50 // 10 + 1)])
def test_play_refuses_a_buy_in_above_the_stack_limit_as_simulate_does(buy_in: str) -> None:
    result = runner.invoke(app, ["play", "--buy-in", buy_in], input="q\n")
    assert result.exit_code == 2, result.output
    assert (f"--buy-in {buy_in}: at most 112,589,990,684,262 big bets of 10 (a stack of at most "
            f"1,125,899,906,842,624 chips)") in result.output
    simulate = runner.invoke(app, ["simulate", "--hands", "1", "--buy-in", buy_in])
    assert simulate.exit_code == 2 and f"--buy-in {buy_in}: at most" in simulate.output


class _Screen:
    """A pseudo-terminal's output as read so far, and how far it has been waited through."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.seen = bytearray()
        self.at = 0  # the end of the text last waited for: the next wait looks after it

    def until(self, text: bytes, seconds: float = 60) -> None:
        """Read until ``text`` comes after what was waited for before (it may have come
        already, in the same read as that)."""
        deadline = time.monotonic() + seconds
        while (found := self.seen.find(text, self.at)) < 0:
            ready, _, _ = select.select([self.fd], [], [], max(deadline - time.monotonic(), 0))
            if not ready:
                raise AssertionError(f"no {text!r} in {bytes(self.seen[self.at:])!r}")
            try:
                self.seen += os.read(self.fd, 4096)
            except OSError:  # the other end closed
                raise AssertionError(f"no {text!r} in {bytes(self.seen[self.at:])!r}") from None
        self.at = found + len(text)


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal is a POSIX thing")
def test_arrow_keys_edit_the_action_and_recall_what_was_typed_before() -> None:
    """At a terminal, <- moves back in the line to insert a letter and the up arrow brings back
    the last line typed (readline), so no escape code reaches the game."""
    pytest.importorskip("readline")
    script = ("from stud.rules import Stakes, Variant, profile\n"
              "from stud.terminal import play_session\n"
              "play_session(Variant.STUD, Stakes(1, 2, 5, 10), profile('standard'), "
              "['station'], 20, seed=1)\n")
    main, sub = os.openpty()
    process = subprocess.Popen([sys.executable, "-c", script], stdin=sub, stdout=sub,
                               stderr=sub, env={**os.environ, "TERM": "xterm"})
    os.close(sub)
    screen = _Screen(main)
    try:
        screen.until(b"> ")
        # "fld", two steps left, "o", back to the end, " 5": the line reads "fold 5".
        os.write(main, b"fld\x1b[D\x1b[Do\x1b[C\x1b[C 5\r")
        screen.until(b"'fold 5' is not an action: fold takes no amount; type 'fold' alone")
        screen.until(b"> ")
        os.write(main, b"\x1b[A\x7f\x7f\r")  # the line again, less " 5": fold
        screen.until(b"Enter for the next hand")
        os.write(main, b"q\r")
        screen.until(b"You leave with")
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(main)
    text = screen.seen.decode(errors="replace")
    assert "You fold" in text and "is not an action here" not in text, text
