"""The chat pane's table notices outlive a reload: a client that connects gets the table's last
notices with the chat's last lines, in the order they came, as the same frames a connected
client got (docs/protocol.md, "chat" and "notice"), and who won each of the last hands. (One
test more guards what already held: a seat the house acts for while its player is gone is told
to those still there.)"""

from __future__ import annotations

from stud.server.chat import KEPT

from . import test_play_together as together
from .test_play_together import (
    Lobby,
    add_bot,
    folding,
    hand_over,
    hosted,
    notice,
    passive,
    player,
)
from .wsclient import Frame, TableClient

NO_BANK = {"start": 0, "add": 0, "every": 1, "cap": 0}


# The fixtures of test_play_together: a server of each pace for this module, a lobby on each.
server, quick_server, lobby, quick = (together.server, together.quick_server, together.lobby,
                                      together.quick)


def told(client: TableClient) -> list[Frame]:
    """The chat and notice frames a client got, in order."""
    client.ping()
    return [f for f in client.frames if f.get("type") in ("chat", "notice")]


def pane(frames: list[Frame]) -> list[tuple[str, object]]:
    """What the chat pane shows of ``frames``: each line's text and each notice's kind."""
    return [entry for f in frames for entry in (
        [("chat", line["text"]) for line in f["lines"]] if f["type"] == "chat"
        else [("notice", f["kind"])])]


def chat(client: TableClient, text: str) -> None:
    client.send({"type": "chat", "text": text})
    client.until(lambda f: f.get("type") == "chat" and not f["history"]
                 and f["lines"][-1]["text"] == text, what=f"the line {text!r}")


def test_a_client_that_connects_gets_the_last_notices_in_order_with_the_chat_lines(
        lobby: Lobby) -> None:
    t = hosted(lobby)
    chat(t.host, "before")
    t.host.send({"type": "pause"})
    paused = notice(t.host, "paused")
    chat(t.host, "between")
    t.host.send({"type": "resume"})
    resumed = notice(t.host, "resumed")
    chat(t.host, "after")
    late = told(lobby.connect(t.table))
    assert pane(late) == [("chat", "before"), ("notice", "paused"), ("chat", "between"),
                          ("notice", "resumed"), ("chat", "after")]
    assert late[0]["type"] == "chat" and late[0]["history"] is True  # the pane starts over
    assert not any(f["history"] for f in late[1:] if f["type"] == "chat")
    # Each notice as it came live, marked as history and with the time it came.
    kept = [f for f in late if f["type"] == "notice"]
    for live, again in zip((paused, resumed), kept, strict=True):
        assert again["history"] is True and isinstance(again["at"], str)
        assert {k: v for k, v in again.items() if k not in ("history", "at")} == live


def test_a_client_that_connects_to_a_quiet_table_gets_an_empty_history(lobby: Lobby) -> None:
    t = hosted(lobby)
    assert told(lobby.connect(t.table)) == [{"type": "chat", "history": True, "lines": []}]
    t.host.send({"type": "pause"})
    notice(t.host, "paused")
    first, *rest = told(lobby.connect(t.table))
    assert first == {"type": "chat", "history": True, "lines": []}
    assert pane(rest) == [("notice", "paused")]


def test_the_notices_kept_are_the_last_ones_as_many_as_the_chat_lines(lobby: Lobby) -> None:
    t = hosted(lobby)
    for paused in [True, False] * (KEPT // 2) + [True]:  # one notice more than are kept
        t.host.send({"type": "pause" if paused else "resume"})
        t.host.until_state(lambda f, p=paused: f["table"]["paused"] is p, what="(un)paused")
    kept = pane(told(lobby.connect(t.table)))
    assert len(kept) == KEPT and kept[0] == ("notice", "resumed")  # the first pause is gone
    assert kept[-1] == ("notice", "paused")


def test_a_client_that_connects_is_told_who_won_the_last_hands(lobby: Lobby) -> None:
    t = hosted(lobby)
    a = player(lobby, t.table, seat=1)
    add_bot(a.client, 2)
    number = a.client.wait_for_turn()["hand"]["number"]
    t.host.send({"type": "pause"})  # the hand is played out, and no other dealt
    notice(t.host, "paused")
    while True:
        frame = a.client.until_state(lambda f: a.client.my_turn(f) or hand_over(number)(f),
                                     what="a turn or the hand's end")
        if hand_over(number)(frame):
            break
        a.client.act(frame, folding(a.client, frame))
    last = frame["last"]
    late = told(lobby.connect(t.table))
    [won] = [f for f in late if f["type"] == "notice" and f["kind"] == "won"]
    assert won["number"] == number
    assert won["pots"] == [e for e in last["events"] if e["kind"] == "pot"]
    assert won["players"] == last["players"]
    assert pane(late).index(("notice", "paused")) < pane(late).index(("notice", "won"))


def test_a_seat_the_house_acts_for_while_its_player_is_gone_is_told_to_those_connected(
        quick: Lobby) -> None:
    t = hosted(quick, clock=5, time_bank=NO_BANK)
    a = player(quick, t.table, seat=1)
    b = player(quick, t.table, seat=2)
    number = b.client.until_state(lambda f: f["hand"] is not None and not f["hand"]["over"],
                                  what="a hand")["hand"]["number"]
    a.client.close()  # gone before its turn, or on it

    def timed_out(f: Frame) -> bool:
        return f.get("type") == "notice" and f["kind"] == "timed_out" and f["seat"] == 1

    while not any(timed_out(f) for f in b.client.frames):  # seat 2 plays on meanwhile
        frame = b.client.until(lambda f: timed_out(f) or b.client.my_turn(f), timeout=5,
                               what="seat 1 timed out")
        if not timed_out(frame):
            b.client.act(frame, passive(b.client, frame))
    assert [f["hand"] for f in b.client.frames if timed_out(f)] == [number]
    t.host.until(timed_out, what="seat 1 timed out, told to the host")
