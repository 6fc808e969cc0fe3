"""The ``stud`` command: play, replay, simulate."""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from stud.bots import BOTS, make_bot
from stud.cards import Deck
from stud.history.phh import PHHError, dump, from_hand
from stud.history.replay import phh_paths, replay_file
from stud.rules import PROFILES, RulesError, Stakes, Variant, profile
from stud.table import Table

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Seven Card Stud, Stud Hi/Lo (8 or better) and Razz.")


def fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def parse_variant(text: str) -> Variant:
    try:
        return Variant.parse(text)
    except RulesError as error:
        fail(str(error))
        raise


def parse_stakes(text: str) -> Stakes:
    """``ANTE/BRING_IN/SMALL/BIG``, e.g. ``1/2/5/10``."""
    parts = text.split("/")
    if len(parts) != 4 or not all(p.strip().isdigit() for p in parts):
        fail(f"--stakes {text!r}: write ANTE/BRING_IN/SMALL_BET/BIG_BET in chips, like 1/2/5/10")
    try:
        return Stakes(*(int(p) for p in parts))
    except RulesError as error:
        fail(f"--stakes {text!r}: {error}")
        raise


def parse_rules(name: str) -> object:
    try:
        return profile(name)
    except RulesError as error:
        fail(str(error))
        raise


def parse_bots(text: str, seats: int) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        fail("--bots: name at least one bot")
    for name in names:
        if name not in BOTS:
            fail(f"--bots: unknown bot {name!r}; choose from {', '.join(BOTS)}")
    return [names[k % len(names)] for k in range(seats)]


@app.command()
def replay(
    paths: Annotated[list[Path], typer.Argument(help="PHH files, or folders of them")],
    rules: Annotated[str | None, typer.Option(help="profile: standard or pokerkit "
                                                   "(wins over the file's _rules)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON array, an object per hand")]
    = False,
) -> None:
    """Replay hand histories, checking every action for legality."""
    if rules is not None:
        parse_rules(rules)
    files = phh_paths(paths)
    if not files:
        fail("no .phh files found in " + ", ".join(str(p) for p in paths))
    reports = [replay_file(path, rules) for path in files]
    if as_json:
        typer.echo(json.dumps([{"path": r.path, "variant": r.variant, "ok": r.ok,
                                "finishing_stacks": r.finishing_stacks, "error": r.error}
                               for r in reports], indent=2))
    else:
        for r in reports:
            if r.ok:
                typer.echo(f"ok    {r.path} ({r.variant}) finishing stacks {r.finishing_stacks}")
            else:
                typer.echo(f"FAIL  {r.error}")
        good = sum(r.ok for r in reports)
        typer.echo(f"{good} of {len(reports)} hands replayed exactly")
    raise typer.Exit(0 if all(r.ok for r in reports) else 1)


@app.command()
def simulate(
    variant: Annotated[str, typer.Option(help="stud, stud8 or razz")] = "stud",
    players: Annotated[int, typer.Option(help="2 to 8")] = 6,
    hands: Annotated[int, typer.Option(help="how many hands")] = 1000,
    seed: Annotated[int, typer.Option(help="seed for the decks and the bots")] = 0,
    rules: Annotated[str, typer.Option(help="standard or pokerkit")] = "standard",
    bots: Annotated[str, typer.Option(help=f"comma-separated, seated in turn: "
                                           f"{', '.join(BOTS)}")] = "random",
    stakes: Annotated[str, typer.Option(help="ANTE/BRING_IN/SMALL_BET/BIG_BET")] = "1/2/5/10",
    buy_in: Annotated[int, typer.Option(help="starting stack (and rebuy) in big bets")] = 50,
    phh_out: Annotated[Path | None, typer.Option(help="write every hand as PHH here")] = None,
) -> None:
    """Play bots against each other; print a summary, or write every hand as PHH."""
    game = parse_variant(variant)
    table_stakes = parse_stakes(stakes)
    policy = parse_rules(rules)
    if not 2 <= players <= 8:
        fail(f"--players {players}: stud is for 2 to 8 players")
    if hands < 1:
        fail(f"--hands {hands}: play at least one hand")
    if buy_in < 1:
        fail(f"--buy-in {buy_in}: at least one big bet")
    names = parse_bots(bots, players)
    if phh_out is not None:
        try:
            phh_out.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            fail(f"--phh-out {phh_out}: cannot create the folder: {error.strerror}")
    table = Table(game, table_stakes, policy, seats=players)  # type: ignore[arg-type]
    stack = buy_in * table_stakes.big_bet
    for number in range(1, players + 1):
        table.sit(number, f"{names[number - 1]}-{number}", stack,
                  make_bot(names[number - 1], seed * 1000 + number))
    invested = {n: stack for n in range(1, players + 1)}
    deck_seeds = random.Random(seed)
    started = time.perf_counter()
    for index in range(1, hands + 1):
        for number, seat in table.seats.items():
            if seat.stack == 0:
                table.rebuy(number, stack)
                invested[number] += stack
        hand = table.start_hand(Deck.seeded(deck_seeds.getrandbits(63)))
        table.play_bots()
        table.finish_hand()
        if phh_out is not None:
            history = from_hand(hand, hand=index, _seed=seed,
                                players=[table.seats[n].name for n in table.hand_seats])
            dump(history, phh_out / f"{index}.phh")
    seconds = time.perf_counter() - started
    typer.echo(f"{hands} hands of {game.title} ({policy.name} rules), {players} players, "  # type: ignore[attr-defined]
               f"in {seconds:.2f} s: {hands / seconds:.0f} hands per second")
    for number, seat in sorted(table.seats.items()):
        net = seat.stack - invested[number]
        per100 = net / table_stakes.big_bet / hands * 100
        typer.echo(f"  seat {number} {seat.name:<14} net {net:+d} chips "
                   f"({per100:+.1f} big bets per 100 hands)")
    if phh_out is not None:
        typer.echo(f"wrote {hands} PHH files to {phh_out}")


@app.command()
def play(
    variant: Annotated[str, typer.Option(help="stud, stud8 or razz")] = "stud",
    players: Annotated[int, typer.Option(help="2 to 8, you included")] = 4,
    bots: Annotated[str, typer.Option(help=f"your opponents, comma-separated: "
                                           f"{', '.join(BOTS)}")] = "strength",
    rules: Annotated[str, typer.Option(help="standard or pokerkit")] = "standard",
    stakes: Annotated[str, typer.Option(help="ANTE/BRING_IN/SMALL_BET/BIG_BET")] = "1/2/5/10",
    buy_in: Annotated[int, typer.Option(help="your stack in big bets")] = 50,
    seed: Annotated[int | None, typer.Option(help="seed the decks (default: secure shuffle)")]
    = None,
) -> None:
    """Play against bots in the terminal."""
    from stud.terminal import play_session

    game = parse_variant(variant)
    if not 2 <= players <= 8:
        fail(f"--players {players}: stud is for 2 to 8 players")
    if buy_in < 1:
        fail(f"--buy-in {buy_in}: at least one big bet")
    play_session(game, parse_stakes(stakes), parse_rules(rules),  # type: ignore[arg-type]
                 parse_bots(bots, players - 1), buy_in, seed)


def main() -> None:
    try:
        app()
    except (PHHError, RulesError) as error:
        typer.echo(f"error: {error}", err=True)
        sys.exit(2)


__all__ = ["app", "main", "PROFILES"]
