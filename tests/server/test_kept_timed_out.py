"""A hand the house acted in for a seat whose time ran out is kept saying so: its kept events
are the public events as a state frame had them (``timed_out: true`` included), and its text
says "(timed out)" after what the house did."""

from __future__ import annotations

from stud.text import words

from . import test_play_together as together
from .test_play_together import Lobby, add_bot, drive, hosted, notice, player
from .wsclient import Frame, in_play

NO_BANK = {"start": 0, "add": 0, "every": 1, "cap": 0}


# The fixtures of test_play_together: a server at a twentieth of the clocks, a lobby on it.
quick_server, quick = together.quick_server, together.quick


def test_a_kept_hand_says_the_house_acted_for_a_seat_whose_time_ran_out(quick: Lobby) -> None:
    t = hosted(quick, clock=5, time_bank=NO_BANK)
    a = player(quick, t.table, seat=1)
    add_bot(a.client, 2)
    number = a.client.wait_for_turn()["hand"]["number"]
    notice(a.client, "timed_out", timeout=3)
    # Seat 1 sits out once timed out: the bot alone deals no more, so the last hand is this one.
    over = t.host.until_state(lambda f: f["last"] is not None and f["last"]["number"] == number,
                              what=f"hand {number} over")
    live = over["last"]["events"]
    assert any(e["kind"] == "action" and e["seat"] == 1 and e.get("timed_out") for e in live)
    answer = quick.http.get(f"/api/tables/{t.table}/hands")
    assert answer.status_code == 200, answer.text
    [kept] = [h for h in answer.json() if h["number"] == number]
    assert kept["events"] == live  # "the public events, as in a state frame"
    name = over["last"]["players"][0]["name"]
    said = words("en").t("did.timed_out", text="")
    assert any(line.startswith(f"{name} (seat 1) ") and line.endswith(said)
               for line in kept["text"]), kept["text"]


def test_a_timed_out_seat_whose_player_is_gone_is_acted_for_at_once_and_each_act_says_so(
        quick: Lobby) -> None:
    t = hosted(quick, clock=5, time_bank=NO_BANK)
    a = player(quick, t.table, seat=1)
    add_bot(a.client, 2)
    number = a.client.wait_for_turn()["hand"]["number"]

    def check_legal(f: Frame) -> bool:
        return (a.client.my_turn(f) and f["hand"]["street"] > 3
                and any(e["action"] == "check" for e in f["hand"]["legal"]))

    # On a street where the house checks, the player goes: the seat stays in the hand.
    drive(a.client, lambda: check_legal(a.client.state) or in_play(a.client.state) is None)
    assert in_play(a.client.state)["number"] == number, "the hand ended on third street"
    a.client.close()
    over = t.host.until_state(lambda f: f["last"] is not None and f["last"]["number"] == number,
                              what=f"hand {number} over")
    live = over["last"]["events"]
    acted = [e for e in live if e["kind"] == "action" and e["seat"] == 1]
    gone = next(i for i, e in enumerate(acted) if e.get("timed_out"))
    # The house's check when the clock ran out, and each act after it, for a seat not there.
    assert len(acted) - gone >= 2, acted
    assert all(e.get("timed_out") for e in acted[gone:]), acted
    [kept] = [h for h in quick.http.get(f"/api/tables/{t.table}/hands").json()
              if h["number"] == number]
    assert kept["events"] == live
