"""The ``stud`` command: play, replay, simulate."""

from __future__ import annotations

import errno
import inspect
import json
import os
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
import typer.core

from stud.bots import BOTS
from stud.history.phh import PHHError, dumps
from stud.history.replay import phh_paths, replay_hands
from stud.rules import MAX_CHIPS, PROFILES, RulesError, Stakes, Variant, profile

if TYPE_CHECKING:
    from stud.server.room import Timing
    from stud.server.store import Store
    from stud.sim import Match, Results
    from stud.tournament.series import SeriesResults



def _plain_help(params: list[Any]) -> list[Any]:
    """Help as a command line reads: a flag without a type label (``--json``, not ``--json
    <bool>``), an argument by its name (``PATHS...``), whatever Typer shows by default. (Typer
    may bring its own copy of Click: the parameters are told apart by their attributes.)"""
    for param in params:
        if param.metavar is not None:
            continue
        if getattr(param, "is_flag", False):
            param.metavar = ""
        elif param.param_type_name == "argument" and param.name:
            param.metavar = param.name.upper() + ("..." if param.nargs != 1 else "")
    return params


class _Command(typer.core.TyperCommand):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _plain_help(self.params)
        if self.help:  # the docstring's paragraphs, each reflowed to the terminal's width
            paragraphs = inspect.cleandoc(self.help).split("\n\n")
            self.help = "\n\n".join(" ".join(p.split()) for p in paragraphs)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        """``stud replay [OPTIONS] PATHS...``: arguments by name, optional ones in brackets."""
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument" and param.name:
                name = param.name.upper() + ("..." if param.nargs != 1 else "")
                pieces.append(name if param.required else f"[{name}]")
        return pieces

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)
        return None if option is None else _plain_help([option])[0]


class _Group(typer.core.TyperGroup):
    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)
        return None if option is None else _plain_help([option])[0]


app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  cls=_Group, help="Seven Card Stud, Stud Hi/Lo (8 or better) and Razz.")


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
    try:
        return Stakes.parse(text)
    except RulesError as error:
        fail(f"--{error}")
        raise


def parse_rules(name: str) -> object:
    try:
        return profile(name)
    except RulesError as error:
        fail(str(error))
        raise


def parse_bots(text: str, seats: int, players: int | None = None) -> list[str]:
    """The bots for ``seats`` seats, the names in turn; more names than seats is refused.

    ``players`` is the table's ``--players`` where it differs from the bots' seats (``play``).
    """
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        fail("--bots: name at least one bot")
    for name in names:
        if name not in BOTS:
            fail(f"--bots: unknown bot {name!r}; choose from {', '.join(BOTS)}")
    if len(names) > seats:
        table = (f"--players {players} leaves {seats} seat{'s' if seats != 1 else ''} "
                 f"for bots" if players is not None else f"--players {seats}")
        fail(f"--bots: {len(names)} bots named but {table}; name at most {seats} or raise "
             f"--players")
    return [names[k % len(names)] for k in range(seats)]


@app.command(cls=_Command)
def replay(
    paths: Annotated[list[Path], typer.Argument(
        help="PHH files (.phh, or .phhs of several hands), or folders of them")],
    rules: Annotated[str | None, typer.Option(help="profile: standard or pokerkit "
                                                   "(wins over the file's _rules)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON array, an object per hand")]
    = False,
) -> None:
    """Replay hand histories, checking every action for legality."""
    if rules is not None:
        parse_rules(rules)
    must_exist(paths)
    files = phh_paths(paths)
    if not files:
        fail("no .phh or .phhs files found in " + ", ".join(str(p) for p in paths))
    reports = [report for path in files for report in replay_hands(path, rules)]
    if as_json:
        typer.echo(json.dumps([{"path": r.path, "variant": r.variant, "ok": r.ok,
                                "checked": r.checked, "finishing_stacks": r.finishing_stacks,
                                "error": r.error}
                               for r in reports], indent=2))
    else:
        for r in reports:
            if r.ok and r.checked:
                typer.echo(f"ok    {r.path} ({r.variant}) finishing stacks {r.finishing_stacks}")
            elif r.ok:
                typer.echo(f"NOT CHECKED  {r.path} ({r.variant}) replayed without an error, "
                           f"but the file has no finishing_stacks to compare; the replay ends "
                           f"with {r.finishing_stacks}")
            else:
                typer.echo(f"FAIL  {r.error}")
        exact = sum(r.ok and r.checked for r in reports)
        unchecked = sum(r.ok and not r.checked for r in reports)
        summary = f"{exact} of {len(reports)} hands replayed exactly"
        if unchecked:
            summary += (f"; {unchecked} replayed without an error but not checked "
                        f"(no finishing_stacks)")
        typer.echo(summary)
    raise typer.Exit(0 if all(r.ok for r in reports) else 1)


def must_exist(paths: list[Path]) -> None:
    """A one-line error for the first path that is neither a file nor a folder."""
    for path in paths:
        if not path.exists():
            fail(f"{path}: no such file or folder")


@app.command("import", cls=_Command)
def import_command(
    paths: Annotated[list[Path], typer.Argument(
        help="hand-history files of online rooms, or folders of them")],
    out: Annotated[Path, typer.Option(help="the folder for the PHH files, one per hand")],
    as_json: Annotated[bool, typer.Option("--json", help="one JSON array, an object per hand")]
    = False,
) -> None:
    """Read online rooms' stud hand histories and write each hand as PHH.

    The site is told from the text: PokerStars, Full Tilt, PartyPoker, Winamax, iPoker, Merge,
    Bovada, Everleaf, KingsClub, OnGame, Winning or Absolute. Exit status 0 when every hand was
    read (a hand the site cancelled, or of another game in a mixed-game file, is reported and
    not imported; a copy cut short is superseded by a whole copy of the same hand), no second
    copy of a hand conflicts with the one imported, and at least one was imported.
    """
    from stud.history.importer import import_files, succeeded, summary

    must_exist(paths)
    check_folder("--out", out)
    results = import_files(paths, out)
    if not results:
        fail("no hand-history files found in " + ", ".join(str(p) for p in paths))
    if as_json:
        typer.echo(json.dumps([r.as_dict() for r in results], indent=1))
    else:
        for line in summary(results):
            typer.echo(line)
    if not succeeded(results):
        raise typer.Exit(1)


@app.command(cls=_Command)
def simulate(
    variant: Annotated[str, typer.Option(help="stud, stud8 or razz")] = "stud",
    players: Annotated[int, typer.Option(help="2 to 8")] = 6,
    hands: Annotated[int, typer.Option(help="how many hands")] = 1000,
    seed: Annotated[int, typer.Option(help="seed for the decks and the bots")] = 0,
    rules: Annotated[str, typer.Option(help="standard or pokerkit")] = "standard",
    bots: Annotated[str, typer.Option(help=f"comma-separated, seated in turn: "
                                           f"{', '.join(BOTS)}")] = "random",
    stakes: Annotated[str, typer.Option(help="ANTE/BRING_IN/SMALL_BET/BIG_BET")] = "1/2/5/10",
    buy_in: Annotated[int, typer.Option(help="every seat's stack at the start of every hand, "
                                             "in big bets")] = 50,
    phh_out: Annotated[Path | None, typer.Option(help="write every hand as PHH here")] = None,
    rotate: Annotated[bool, typer.Option(help="move the bots one seat round every hand")]
    = False,
    workers: Annotated[int, typer.Option(help="worker processes (results do not depend on it)")]
    = 1,
    backend: Annotated[str, typer.Option(help="process, or ray (RAY_ADDRESS, else a local "
                                              "Ray)")] = "process",
    out: Annotated[Path | None, typer.Option(help="write the results as JSON here")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="no progress bar")] = False,
    engine: Annotated[str, typer.Option(help="fast (the compiled batch engine: random, "
                                             "station and strength bots; the same hands and "
                                             "PHH), reference, or auto (fast where it can be)")]
    = "auto",
) -> None:
    """Play bots against each other; print a summary, or write every hand as PHH.

    Every hand starts with fresh stacks and its own deck and bot seeds, derived from --seed
    and the hand's number, so the results are the same on any number of workers.
    """
    from stud.sim import Match

    if not 2 <= players <= 8:
        fail(f"--players {players}: stud is for 2 to 8 players")
    names = parse_bots(bots, players)
    table_stakes = parse_stakes(stakes)
    match = Match(parse_variant(variant), table_stakes, parse_rules(rules),  # type: ignore[arg-type]
                  tuple(names), tuple(f"{name}-{k}" for k, name in enumerate(names, start=1)),
                  buy_in=check_buy_in(buy_in, table_stakes), seed=seed, rotate=rotate)
    results = run_match(match, hands, workers, backend, phh_out, out, quiet, "simulate",
                        engine)
    typer.echo(f"{_count(results.hands, 'hand')} of {match.variant.full_name} "
               f"({match.rules.name} rules), {players} players, in {results.seconds:.2f} s: "
               f"{results.hands_per_second:.0f} hands per second{on_workers(results)}")
    for k, standing in enumerate(results.standings(), start=1):
        place = "" if rotate else f"seat {k} "
        typer.echo(f"  {place}{standing.name:<14} net {standing.net:+d} chips "
                   f"({standing.bb_per_100:+.1f} big bets per 100 hands)")
    report_files(results, phh_out, out)


def check_buy_in(buy_in: int, stakes: Stakes) -> int:
    """``--buy-in`` in big bets: at least one, and a stack of at most ``MAX_CHIPS`` chips."""
    if buy_in < 1:
        fail(f"--buy-in {buy_in}: at least one big bet")
    if buy_in * stakes.big_bet > MAX_CHIPS:
        fail(f"--buy-in {buy_in}: at most {MAX_CHIPS // stakes.big_bet:,} big bets of "
             f"{stakes.big_bet} (a stack of at most {MAX_CHIPS:,} chips)")
    return buy_in


def run_match(match: Match, hands: int, workers: int, backend: str, phh_out: Path | None,
              out: Path | None, quiet: bool, command: str, engine: str = "reference"
              ) -> Results:
    """Check the run's options, play it (with a progress bar unless ``quiet``), write JSON."""
    from stud import sim

    if hands < 1:
        fail(f"--hands {hands}: play at least one hand")
    if workers < 1:
        fail(f"--workers {workers}: at least one")
    if backend not in sim.BACKENDS:
        fail(f"--backend {backend!r}: choose from {', '.join(sim.BACKENDS)}")
    if engine not in sim.ENGINES:
        fail(f"--engine {engine!r}: choose from {', '.join(sim.ENGINES)}")
    try:
        sim.choose_engine(match, engine, phh_out is not None)
    except sim.SimulationError as error:
        fail(f"--engine {engine}: {error}")
    if phh_out is not None:
        check_folder("--phh-out", phh_out)
        check_no_hands("--phh-out", phh_out)
    if out is not None:
        check_output("--out", out)
    try:
        results = sim.simulate(match, hands, workers, backend, phh_out,  # type: ignore[arg-type]
                               progress=not quiet, engine=engine)  # type: ignore[arg-type]
    except sim.SimulationError as error:
        fail(str(error))
        raise
    except sim.Interrupted as stop:
        results = stop.results
        said = (f"; their PHH files in {phh_out} are complete" if phh_out is not None
                else "")
        interrupted(results.hands, hands, "hand", said)
    if out is not None:
        try:
            out.write_text(results.json_text(command=command), encoding="utf-8")
        except OSError as error:
            fail(f"--out {out}: cannot write: {error.strerror}")
    return results


def interrupted(done: int, asked: int, what: str, said: str = "") -> None:
    """Say on standard error that Ctrl-C stopped the run after ``done`` of ``asked``; with
    none done, stop (exit status 130): there is nothing to report."""
    if not done:
        typer.echo(f"interrupted (Ctrl-C) before the first {what} was played", err=True)
        raise typer.Exit(130)
    typer.echo(f"interrupted (Ctrl-C) after {done} of {_count(asked, what)}: the results below "
               f"are of {what}s 1 to {done}{said}", err=True)


def _count(number: int, thing: str) -> str:
    """``1 hand``, ``2 hands``."""
    return f"{number} {thing}{'' if number == 1 else 's'}"


def _make_folder(what: str, folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        fail(f"{what}: cannot create the folder {folder}: {error.strerror}")


def check_folder(option: str, folder: Path) -> None:
    """Create ``folder`` if need be and make sure a file can be written there, before a run."""
    import tempfile

    if folder.exists() and not folder.is_dir():
        fail(f"{option} {folder}: not a folder")
    _make_folder(f"{option} {folder}", folder)
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        fail(f"{option} {folder}: cannot write in the folder: {error.strerror}")


def check_no_hands(option: str, folder: Path) -> None:
    """A run numbers its PHH files from 1.phh: a folder that holds an earlier run's would end
    up with the two runs' hands mixed, so it is refused before the run."""
    earlier = sorted(folder.glob("*.phh")) if folder.is_dir() else []
    if earlier:
        fail(f"{option} {folder}: already holds {_count(len(earlier), 'PHH file')} "
             f"({earlier[0].name}, ...); the hands of two runs would mix there: name a new or "
             "empty folder")


def check_output(option: str, path: Path) -> None:
    """Make sure ``path`` can be written, before a run: its folder is created if need be, and
    a file that is not there yet is not left behind."""
    if path.is_dir():
        fail(f"{option} {path}: is a folder; name a file")
    parent = path.parent
    if parent.exists() and not parent.is_dir():
        fail(f"{option} {path}: {parent} is not a folder")
    _make_folder(f"{option} {path}", parent)
    existed = path.exists()
    try:
        with path.open("a"):
            pass
    except OSError as error:
        fail(f"{option} {path}: cannot write: {error.strerror}")
    if not existed:
        path.unlink(missing_ok=True)


def on_workers(results: Results) -> str:
    if results.workers == 1 and results.backend == "process":
        return ""
    plural = "s" if results.workers > 1 else ""
    return f" ({results.workers} worker{plural}, {results.backend} backend)"


def report_files(results: Results, phh_out: Path | None, out: Path | None,
                 *written: Path | None) -> None:
    """Say what was written; then, for a run Ctrl-C stopped, exit with status 130."""
    if out is not None:
        typer.echo(f"wrote {out}" + (f" (partial: {results.hands} of {results.hands_asked} "
                                     f"hands)" if results.partial else ""))
    for path in written:
        if path is not None:
            typer.echo(f"wrote {path}")
    if phh_out is not None:
        typer.echo(f"wrote {_count(results.hands, 'PHH file')} to {phh_out}")
    if results.partial:
        raise typer.Exit(130)


@app.command(cls=_Command)
def league(
    bots: Annotated[str, typer.Option(help=f"2 to 8 bots, comma-separated, one per seat: "
                                           f"{', '.join(BOTS)}")],
    variant: Annotated[str, typer.Option(help="stud, stud8 or razz")] = "stud",
    hands: Annotated[int, typer.Option(help="how many hands")] = 10_000,
    seed: Annotated[int, typer.Option(help="seed for the decks and the bots")] = 0,
    rules: Annotated[str, typer.Option(help="standard or pokerkit")] = "standard",
    stakes: Annotated[str, typer.Option(help="ANTE/BRING_IN/SMALL_BET/BIG_BET")] = "1/2/5/10",
    buy_in: Annotated[int, typer.Option(help="every seat's stack at the start of every hand, "
                                             "in big bets")] = 50,
    workers: Annotated[int, typer.Option(help="worker processes (results do not depend on it)")]
    = 1,
    backend: Annotated[str, typer.Option(help="process, or ray (RAY_ADDRESS, else a local "
                                              "Ray)")] = "process",
    out: Annotated[Path | None, typer.Option(help="write the results as JSON here")] = None,
    plot: Annotated[Path | None, typer.Option(help="draw the running results as PNG here")]
    = None,
    phh_out: Annotated[Path | None, typer.Option(help="write every hand as PHH here")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="no progress bar")] = False,
) -> None:
    """Bots against each other, moving one seat round every hand: big bets per 100 hands each.

    The 95% interval is the mean over hands plus or minus 1.96 standard errors.
    """
    from stud.sim import Match, plot_running

    count = len([name for name in bots.split(",") if name.strip()])
    if count > 8:
        fail(f"--bots: at most 8 bots at a stud table, not {count}")
    names = parse_bots(bots, count)
    if count < 2:
        fail("--bots: name at least two bots")
    table_stakes = parse_stakes(stakes)
    match = Match(parse_variant(variant), table_stakes, parse_rules(rules),  # type: ignore[arg-type]
                  tuple(names), buy_in=check_buy_in(buy_in, table_stakes), seed=seed, rotate=True)
    if plot is not None:
        check_output("--plot", plot)
    results = run_match(match, hands, workers, backend, phh_out, out, quiet, "league")
    typer.echo(f"League of {count} bots at {match.variant.full_name} ({match.rules.name} rules), "
               f"seats in rotation, seed {seed}")
    typer.echo(f"{_count(results.hands, 'hand')} in {results.seconds:.2f} s: "
               f"{results.hands_per_second:.0f} hands per second{on_workers(results)}")
    typer.echo("")
    typer.echo(league_table(results))
    if plot is not None:
        try:
            plot_running(results, plot)
        except OSError as error:
            fail(f"--plot {plot}: cannot write: {error.strerror}")
    typer.echo("")
    report_files(results, phh_out, out, plot)


def league_table(results: Results) -> str:
    """A markdown table, best result first."""
    lines = ["| rank | bot | hands | net chips | bb/100 | 95% CI |",
             "| ---: | --- | ---: | ---: | ---: | --- |"]
    standings = sorted(results.standings(), key=lambda s: -s.bb_per_100)
    for rank, s in enumerate(standings, start=1):
        low, high = s.ci95
        interval = f"[{low:+.2f}, {high:+.2f}]" if s.hands > 1 else "n/a"
        lines.append(f"| {rank} | {s.name} | {s.hands} | {s.net:+d} | {s.bb_per_100:+.2f} | "
                     f"{interval} |")
    return "\n".join(lines)


@app.command(cls=_Command)
def tournament(
    variant: Annotated[str, typer.Option(help="stud, stud8, razz, or rotation (razz, stud and "
                                              "stud8 in turn)")] = "stud",
    players: Annotated[int, typer.Option(help="2 to 8")] = 6,
    bots: Annotated[str, typer.Option(help=f"comma-separated, seated in turn: "
                                           f"{', '.join(BOTS)}")] = "random",
    seed: Annotated[int, typer.Option(help="seed for the decks and the bots")] = 0,
    structure: Annotated[str, typer.Option(help="standard (levels of 10 hands) or turbo (5)")]
    = "standard",
    buy_in: Annotated[int, typer.Option(help="each player's buy-in; the prize pool is all of "
                                             "them")] = 100,
    starting_stack: Annotated[int, typer.Option(help="each player's chips at the start: 50 "
                                                     "small bets of level 1")] = 2000,
    hands_per_game: Annotated[int | None, typer.Option(
        help="the rotation's hands of each game (default: one orbit, --players hands)")] = None,
    rules: Annotated[str, typer.Option(help="standard or pokerkit")] = "standard",
    runs: Annotated[int, typer.Option(help="play this many; report each bot's average finish "
                                           "and return on buy-in")] = 1,
    workers: Annotated[int, typer.Option(help="worker processes for --runs (results do not "
                                              "depend on it)")] = 1,
    phh_out: Annotated[Path | None, typer.Option(help="write every hand as PHH here (one "
                                                      "sit-and-go)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the results as JSON")] = False,
) -> None:
    """Play a sit-and-go among bots: the finishing order, the prizes and the hands played.

    Levels rise on schedule (a new level from the next hand on); a player who busts is placed,
    two who bust in the same hand by their stacks at its start (equal stacks tie and share
    their places' prizes); the last player standing wins. Prizes: winner takes all with 2 or
    3 players, 65/35 with 4 to 6, 50/30/20 with 7 or 8.

    With --runs K, run k is the sit-and-go of seed --seed + k - 1 with the bots moved k - 1
    seats round; each bot's average finish and return on buy-in come with a 95% interval (the
    mean over runs plus or minus 1.96 standard errors).
    """
    from stud.sim import write_atomically
    from stud.sim_runners import Interrupted
    from stud.tournament import GAMES, STRUCTURES, SitAndGo, parse_game, sit_and_go
    from stud.tournament.series import Series, run_series

    if not 2 <= players <= 8:
        fail(f"--players {players}: a sit-and-go is for 2 to 8 players")
    names = parse_bots(bots, players)
    if structure not in STRUCTURES:
        fail(f"--structure {structure!r}: choose from {', '.join(STRUCTURES)}")
    for option, value in (("--buy-in", buy_in), ("--runs", runs), ("--workers", workers)):
        if value < 1:
            fail(f"{option} {value}: at least 1")
    if hands_per_game is not None and hands_per_game < 1:
        fail(f"--hands-per-game {hands_per_game}: at least 1")
    if hands_per_game is not None and variant != "rotation":
        fail(f"--hands-per-game is for --variant rotation, not {variant}")
    try:
        game = parse_game(variant, players, hands_per_game)
    except ValueError:
        fail(f"--variant {variant!r}: use {', '.join(GAMES)}")
        raise
    if phh_out is not None and runs > 1:
        fail("--phh-out writes the hands of one sit-and-go: not with --runs")
    try:
        event = sit_and_go(game, players, structure, buy_in=buy_in,
                                       starting_stack=starting_stack,
                                       rules=parse_rules(rules))  # type: ignore[arg-type]
    except ValueError as error:
        fail(f"--starting-stack {starting_stack}: {error}")
        raise
    if phh_out is not None:
        check_folder("--phh-out", phh_out)
        check_no_hands("--phh-out", phh_out)
    if runs > 1:
        try:
            results = run_series(Series(event, tuple(names), seed), runs, workers)
        except Interrupted as stop:
            results = stop.results
            interrupted(results.runs, runs, "sit-and-go")
        if as_json:
            typer.echo(json.dumps(results.to_json(), indent=2))
        else:
            typer.echo(series_report(results))
        if results.partial:
            raise typer.Exit(130)
        return
    sng = SitAndGo.with_bots(event, names, seed)
    seats = {k: entrant.name for k, entrant in enumerate(sng.entrants, start=1)}
    played = 0
    try:
        while not sng.is_over:
            record = sng.play_hand()
            if phh_out is not None:
                write_atomically(phh_out / f"{record.number}.phh",
                                 dumps(record.history(seats, seat_count=players)))
            played += 1
    except KeyboardInterrupt:
        files = f": their PHH files in {phh_out} are complete" if phh_out is not None else ""
        typer.echo(f"interrupted (Ctrl-C) after {_count(played, 'hand')} of the sit-and-go"
                   f"{files}", err=True)
        raise typer.Exit(130) from None
    outcome = sng.outcome()
    if as_json:
        typer.echo(json.dumps(outcome.to_json(), indent=2))
        return
    typer.echo(f"Sit-and-go of {outcome.game.full_name}, {players} players, seed {seed}: "
               f"buy-in {buy_in}, prize pool {outcome.prize_pool}, {starting_stack} chips each, "
               f"{event.structure.describe()}")
    games = outcome.hands_by_game()
    by_game = f" ({', '.join(f'{g} {n}' for g, n in games.items())})" if len(games) > 1 else ""
    typer.echo(f"{outcome.hands} hands{by_game}; at the end level {outcome.last_level.number}, "
               f"{outcome.last_level.stakes}")
    places = [_ordinal(p.finish) + (f"-{_ordinal(p.finish + p.tied - 1)}" if p.tied > 1
                                    else "") for p in outcome.placings]
    width = max(len(p.name) for p in outcome.placings)
    for place, p in zip(places, outcome.placings, strict=True):
        out = "" if p.finish == 1 else f"  out in hand {p.hand}"
        typer.echo(f"  {place:<{max(map(len, places))}}  seat {p.seat}  {p.name:<{width}}  "
                   f"prize {p.prize:>{len(str(outcome.prize_pool))}}{out}")
    if phh_out is not None:
        typer.echo(f"wrote {outcome.hands} PHH files to {phh_out}")


def _ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th, ... (a sit-and-go has at most 8 places)."""
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place, 'th')}"


def series_report(results: SeriesResults) -> str:
    """The runs' summary line and a markdown table of the bots, in the order first named."""
    t = results.series.tournament
    plural = "s" if results.workers > 1 else ""
    lines = [f"{_count(results.runs, 'sit-and-go')} of {t.game.full_name}, {t.players} players, "
             f"{t.structure.describe()}, seeds {results.series.seed} to "
             f"{results.series.seed + results.runs - 1}: {int(results.hands.sum())} hands in "
             f"{results.seconds:.2f} s, {results.tournaments_per_second:.1f} sit-and-gos per "
             f"second ({results.workers} worker{plural})", "",
             "| bot | seats | wins | average finish | 95% CI | return on buy-in | 95% CI |",
             "| --- | ---: | ---: | ---: | --- | ---: | --- |"]
    for s in results.standings():
        low, high = s.finish_ci95
        roi_low, roi_high = s.roi_ci95
        finish_ci = f"[{low:.2f}, {high:.2f}]" if s.runs > 1 else "n/a"
        roi_ci = f"[{roi_low:+.1f}%, {roi_high:+.1f}%]" if s.runs > 1 else "n/a"
        lines.append(f"| {s.bot} | {s.seats} | {s.wins} | {s.average_finish:.2f} | {finish_ci} "
                     f"| {s.roi:+.1f}% | {roi_ci} |")
    return "\n".join(lines)


@app.command(cls=_Command)
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
    lang: Annotated[str, typer.Option(help="the game's language: en or de")] = "en",
) -> None:
    """Play against bots in the terminal."""
    from stud.terminal import play_session, terminal_writer
    from stud.text import LANGUAGES

    if lang not in LANGUAGES:
        fail(f"--lang {lang!r}: choose {' or '.join(LANGUAGES)}")
    game = parse_variant(variant)
    if not 2 <= players <= 8:
        fail(f"--players {players}: stud is for 2 to 8 players")
    table_stakes = parse_stakes(stakes)
    check_buy_in(buy_in, table_stakes)  # at most MAX_CHIPS, as in simulate, league, tournament
    play_session(game, table_stakes, parse_rules(rules),  # type: ignore[arg-type]
                 parse_bots(bots, players - 1, players), buy_in, seed, lang=lang,
                 write=terminal_writer())


@app.command(cls=_Command)
def serve(
    host: Annotated[str, typer.Option(help="the address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="the port to listen on")] = 8000,
    database: Annotated[str | None, typer.Option(
        help="an SQLAlchemy URL, or an SQLite file's path (default: STUD_DATABASE_URL, else "
             "sqlite:///stud.db)")] = None,
    bot_delay: Annotated[float, typer.Option(help="seconds a bot waits before acting")] = 0.8,
    hand_pause: Annotated[float, typer.Option(help="seconds between hands")] = 3.0,
    seat_wait: Annotated[float, typer.Option(help="seconds a table waits for more players "
                                                  "after a seat is taken")] = 5.0,
    workers: Annotated[int, typer.Option(help="worker processes on the one port, each "
                                              "playing its share of the tables (more than "
                                              "1 needs PostgreSQL and Redis)")] = 1,
    redis: Annotated[str | None, typer.Option(help="Redis between the workers (default: "
                                                   "STUD_REDIS_URL, else "
                                                   "redis://127.0.0.1:6379/0)")] = None,
    redis_prefix: Annotated[str, typer.Option(help="the workers' Redis keys start with "
                                                   "this")] = "stud",
    lease: Annotated[float, typer.Option(help="seconds a worker's hold on a table lasts "
                                              "unrenewed: how soon another takes over a "
                                              "dead worker's tables")] = 5.0,
) -> None:
    """The web table: a lobby, tables with friends and bots, every hand kept."""
    import uvicorn

    from stud.server.app import create_app
    from stud.server.collector import tune_for_serving
    from stud.server.connection import MAX_MESSAGE
    from stud.server.room import Timing
    from stud.server.store import without_password

    if not 0 < port < 65536:
        fail(f"--port {port}: a port is from 1 to 65535")
    if bot_delay < 0 or hand_pause < 0 or seat_wait < 0:
        fail("--bot-delay, --hand-pause and --seat-wait must be 0 or more seconds")
    if not 1 <= lease <= 300:  # used only with --workers, but a bad value is said at once
        fail(f"--lease {lease:g}: from 1 to 300 seconds")
    url = _database_url(database)
    if workers < 1:
        fail(f"--workers {workers}: at least 1")
    if workers > 1 and not url.startswith("postgresql"):
        fail(f"--workers {workers} needs PostgreSQL (--database postgresql://...): "
             f"{url.split(':', 1)[0]} serves one process")
    if workers > 1:
        serve_workers(host, port, url, workers, redis, redis_prefix, lease,
                      Timing(bot_delay, hand_pause, seat_wait=seat_wait))
        return
    listening = listen(host, port)
    try:
        release = hold_store(url)  # a second server on this database stops here
        open_store(url, upgrade=True).close()  # a bad database is an error now, not a traceback
    except BaseException:
        listening.close()
        raise
    banner = (f"stud is serving the web table: open {_addresses_text(host, port)} "
              f"(database {without_password(url)}; Ctrl-C stops it)")

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started:  # said only once the port is bound and the app has started
                typer.echo(banner)

    # The store in a process of its own: the event loop never waits for the interpreter's
    # lock behind the database (stud.server.store_process).
    config = uvicorn.Config(create_app(url, Timing(bot_delay, hand_pause, seat_wait=seat_wait),
                                       store_process=True),
                            host=host, port=port, log_level="warning", ws_ping_interval=20,
                            ws_ping_timeout=20,
                            # Frames are small (deltas): compressing each cost the server a
                            # fifth of its CPU under bench/web_load.py for little gain.
                            ws_per_message_deflate=False, ws_max_size=MAX_MESSAGE)
    server = Server(config)
    tune_for_serving()  # rare, short pauses of the garbage collector (stud.server.collector)
    try:
        server.run(sockets=[listening])
    finally:
        release()
    if not server.started:
        fail("the web table did not start (see the log above)")


def serve_workers(host: str, port: int, url: str, count: int, redis: str | None,
                  prefix: str, lease: float, timing: Timing) -> None:
    """``stud serve --workers N`` (stud.server.workers): the parent process."""

    from stud.server.cluster import Workers
    from stud.server.store import without_password
    from stud.server.workers import redis_problem, supervise

    redis = redis or os.environ.get("STUD_REDIS_URL") or "redis://127.0.0.1:6379/0"
    problem = redis_problem(redis)
    if problem is not None:
        fail(problem)
    listening = listen(host, port)
    try:
        release = hold_store(url, shared=True)  # shared with other workers, not a lone server
        open_store(url, upgrade=True).close()  # upgraded once here, never by the workers
    except BaseException:
        listening.close()
        raise
    listening.listen(2048)

    def started(pids: list[int]) -> None:
        typer.echo(f"stud is serving the web table with {count} workers (processes "
                   f"{', '.join(map(str, pids))}): open {_addresses_text(host, port)} "
                   f"(database {without_password(url)}, Redis {without_password(redis)}; "
                   "Ctrl-C stops it)")

    try:
        status = supervise(listening, url, Workers(redis, prefix, count, lease), timing, started)
    finally:
        release()
    listening.close()
    if status:
        raise typer.Exit(status)


_EVERY_ADDRESS = ("0.0.0.0", "::", "")


def _addresses_text(host: str, port: int) -> str:
    """Where to open the table: this machine's own address, and, when it listens on every
    address, the ones other machines can open."""
    if host not in _EVERY_ADDRESS:
        shown = "localhost" if host == "127.0.0.1" else f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/"
    others = [f"http://[{a}]:{port}/" if ":" in a else f"http://{a}:{port}/"
              for a in network_addresses(ipv6=host == "::")]
    here = f"http://localhost:{port}/ on this machine"
    if not others:
        return f"{here}; from others, this machine's address and port {port} (none was found)"
    return f"{here}; from others {' or '.join(others)}"


def network_addresses(ipv6: bool = False) -> list[str]:
    """This machine's addresses that other machines may reach (not loopback), best first."""
    found: list[str] = []
    probes = [(socket.AF_INET, "192.0.2.1")]  # a documentation address: nothing is sent
    if ipv6:
        probes.append((socket.AF_INET6, "2001:db8::1"))
    for family, target in probes:
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as probe:
                probe.connect((target, 9))  # picks the route's own address
                found.append(probe.getsockname()[0])
        except OSError:
            pass
    try:
        for *_, sockaddr in socket.getaddrinfo(socket.gethostname(), None):
            found.append(str(sockaddr[0]))
    except OSError:
        pass
    kept: list[str] = []
    for address in found:
        if address in kept or address.startswith("127.") or address in ("::1", "0.0.0.0"):
            continue
        if ":" in address and (not ipv6 or address.startswith("fe80")):
            continue
        kept.append(address)
    return kept


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port``, or a one-line error (a busy port, an unknown host)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except OSError as error:
        fail(f"--host {host}: not an address to listen on: {error.strerror or error}")
        raise
    listening = socket.socket(family, kind, proto)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(address)
    except OSError as error:
        listening.close()
        why = "the port is in use" if error.errno == errno.EADDRINUSE else error.strerror
        fail(f"cannot listen on {host} port {port}: {why}")
    listening.set_inheritable(True)
    return listening


def _database_url(database: str | None) -> str:
    """``--database`` (or ``STUD_DATABASE_URL``) as a URL, or a one-line error naming what is
    wrong with it (a port that is not a number)."""
    from stud.server.store import database_url, without_password

    try:
        return database_url(database)
    except ValueError as error:
        fail(f"--database {without_password(database or os.environ.get('STUD_DATABASE_URL', ''))}: "
             f"{error}")
        raise


def open_store(url: str, upgrade: bool, read_only: bool = False) -> Store:
    """The store at ``url``, or a one-line error for a malformed URL or a database that cannot
    be opened."""
    from sqlalchemy.exc import SQLAlchemyError

    from stud.server.store import Store

    _check_sqlite_file(url, read_only)
    try:
        return Store(url, upgrade=upgrade, read_only=read_only)
    except (SQLAlchemyError, ImportError, ValueError) as error:
        _cannot_open(url, error)
        raise


def hold_store(url: str, shared: bool = False) -> Callable[[], None]:
    """Hold the database for this server (``stud.server.holder``), or a one-line error: another
    server holds it, or it cannot be opened. Returns what lets it go."""
    from sqlalchemy.exc import SQLAlchemyError

    from stud.server.holder import DatabaseBusy, hold_database
    from stud.server.store import without_password

    _check_sqlite_file(url, read_only=False)
    try:
        return hold_database(url, shared)
    except DatabaseBusy as error:
        fail(f"--database {without_password(url)}: {error}")
        raise
    except (SQLAlchemyError, ImportError, ValueError) as error:
        _cannot_open(url, error)
        raise
    except OSError as error:
        fail(f"--database {without_password(url)}: cannot open the database: "
             f"{error.strerror or error}")
        raise


def _cannot_open(url: str, error: Exception) -> None:
    from stud.server.store import without_password

    reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
    fail(f"--database {without_password(url)}: cannot open the database: {reason}")


def _check_sqlite_file(url: str, read_only: bool) -> None:
    """A one-line error naming what is wrong with an SQLite file's place: its folder missing, or
    (to write) the folder or the file read-only. SQLite itself says only "unable to open"."""
    from stud.server.holder import sqlite_path
    from stud.server.store import without_password

    path = sqlite_path(url)
    if path is None:
        return
    folder = path.parent
    where = f"--database {without_password(url)}"
    if not folder.is_dir():
        fail(f"{where}: the folder {folder} does not exist")
    if path.is_dir():
        fail(f"{where}: {path} is a folder, not a database file")
    if read_only:
        return
    if path.exists() and not os.access(path, os.W_OK):
        fail(f"{where}: the file {path} is read-only")
    if not os.access(folder, os.W_OK | os.X_OK):
        fail(f"{where}: the folder {folder} is read-only (SQLite writes its journal beside the "
             "database)")


@app.command("bot", cls=_Command)
def bot_command(
    url: Annotated[str, typer.Option(help="the web table's address, like http://host:8000")],
    table: Annotated[int, typer.Option(help="the table's number")],
    bot: Annotated[str, typer.Option(help=f"the bot: {', '.join(BOTS)}")] = "expert",
    hands: Annotated[int | None, typer.Option(help="hands to play (default: until stopped)")]
    = None,
    nickname: Annotated[str | None, typer.Option(help="the account's nickname (default: the "
                                                      "bot's name and a number)")] = None,
    buy_in: Annotated[int | None, typer.Option(help="chips to sit with (default: 100 small "
                                                    "bets)")] = None,
    invite: Annotated[str | None, typer.Option(help="a private table's invite secret (the "
                                                    "link's ?invite=...)")] = None,
) -> None:
    """Sit a bot at a web table with an account of its own; it plays, then leaves.

    It makes the account, sits in the first empty seat, plays HANDS hands (or until Ctrl-C)
    deciding from its seat's view of each hand, and leaves the table with its chips.
    """
    import asyncio
    import secrets

    from stud.bots import make_bot
    from stud.client import ClientError, TableClient, check_table, create_account

    if bot not in BOTS:
        fail(f"--bot {bot!r}: choose one of {', '.join(BOTS)}")
    if hands is not None and hands < 1:
        fail(f"--hands {hands}: at least 1")
    if not url.startswith(("http://", "https://")):
        fail(f"--url {url}: give the whole address, with http:// or https://, like "
             f"http://{url.split('://')[-1] or 'localhost:8000'}")
    name = nickname or f"{bot}-{secrets.randbelow(10_000):04d}"
    try:
        found = check_table(url, table, invite)
        small = found.get("stakes", {}).get("small_bet")
        if buy_in is not None and small and not 10 * small <= buy_in <= 500 * small:
            fail(f"--buy-in {buy_in}: table {table}'s buy-in is from {10 * small} to "
                 f"{500 * small} chips (10 to 500 small bets)")
        token = create_account(url, name)
        client = TableClient(url, table, make_bot(bot, None), token, buy_in,
                             log=lambda line: typer.echo(f"  {line}"), invite=invite)
        typer.echo(f"{name} ({bot}) joins table {table} on {url}")
        outcome = asyncio.run(client.run(hands))
    except ClientError as error:
        fail(str(error))
        return
    except KeyboardInterrupt:
        typer.echo("stopped")
        return
    typer.echo(f"{name} played {outcome.hands} hands and left with {outcome.stack} chips")


@app.command(cls=_Command)
def audit(
    database: Annotated[str | None, typer.Option(
        help="an SQLAlchemy URL, or an SQLite file's path (default: STUD_DATABASE_URL, else "
             "sqlite:///stud.db)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object")] = False,
) -> None:
    """Check the web table's books; exit status 1 if they are wrong.

    Every balance must equal the sum of its ledger rows, and every chip granted must be in a
    wallet, at a table or in a running hand (or a tournament's prize pool). A tournament's
    chips in play must equal its entrants' starting stacks, and once it is over its prizes
    must equal its prize pool.
    """
    url = _database_url(database)
    if url.startswith("sqlite:///") and not Path(url[len("sqlite:///"):]).exists():
        fail(f"no database at {url}")
    store = open_store(url, upgrade=False, read_only=True)  # a server may be running on it
    try:
        problem = store.schema_problem()
        if problem is not None:
            fail(problem)
        problems, books = store.audit(), store.books()
    finally:
        store.close()
    held = (books["wallets"] + books["tables"] + books["in_hands"] + books["prize_pools"]
            + books["tournament_chips"])
    if held != books["granted"]:
        problems.append(f"{books['granted']} chips granted but {held} held")
    if as_json:
        typer.echo(json.dumps({"ok": not problems, "problems": problems, **books}))
    else:
        typer.echo(f"{books['accounts']} accounts, {books['seats']} seats, "
                   f"{books['hand_records']} hands ({books['running_hands']} running), "
                   f"{books['ledger_rows']} ledger rows, {books['tournaments']} "
                   f"tournament{'' if books['tournaments'] == 1 else 's'}")
        typer.echo(f"chips granted {books['granted']:,} = wallets {books['wallets']:,} + tables "
                   f"{books['tables']:,} + running hands {books['in_hands']:,}"
                   + (f" + prize pools {books['prize_pools']:,} - tournament chips in play "
                      f"{-books['tournament_chips']:,}" if books["tournament_chips"]
                      or books["prize_pools"] else ""))
        typer.echo("the books balance" if not problems else "\n".join(problems))
    if problems:
        raise typer.Exit(1)


@app.command("equity", cls=_Command)
def equity_command(
    hands: Annotated[list[str], typer.Argument(
        help="2 to 8 hands, each the cards a player holds in dealing order (two down, door card, "
             "4th-6th street up, 7th down), ?? for an unknown card: AsKs2d '????Qc7d'; their "
             "missing cards must fit in the deck (no community card is modelled)")],
    variant: Annotated[str, typer.Option(help="stud, stud8 or razz")] = "stud",
    dead: Annotated[str, typer.Option(help="cards out of play (folded, seen), like Kd7c")] = "",
    trials: Annotated[int | None, typer.Option(help="Monte Carlo with this many deals (default: "
                                                    "exact when that takes about a second, "
                                                    "else 1,000,000 deals)")] = None,
    exact: Annotated[bool, typer.Option(
        "--exact", help="walk every deal, up to about 2.8 hours of work on one core; a larger "
                        "spot is refused (use Monte Carlo there)")] = False,
    workers: Annotated[int, typer.Option(help="worker processes (results do not depend on it)")]
    = 1,
    backend: Annotated[str, typer.Option(help="process, or ray (RAY_ADDRESS, else a local "
                                              "Ray)")] = "process",
    seed: Annotated[int | None, typer.Option(help="seed for Monte Carlo (default: random)")]
    = None,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object")] = False,
) -> None:
    """Each hand's share of the pot: exact where feasible, Monte Carlo otherwise."""
    from stud.equity import EquityError, equity

    game = parse_variant(variant)
    if exact and trials is not None:
        fail("--trials and --exact: choose one")
    try:
        result = equity(game, hands, dead, trials=trials, exact=exact, workers=workers,
                        backend=backend, seed=seed)
    except EquityError as error:
        fail(str(error))
        raise
    if as_json:
        typer.echo(json.dumps(result.as_dict()))
        return
    how = ("exact" if result.method == "exact"
           else "Monte Carlo" + (f", seed {seed}" if seed is not None else ""))
    typer.echo(f"{game.full_name}: {result.deals:,} deal{'s' * (result.deals != 1)} ({how})")
    width = max(len("hand"), *(len(p.cards) for p in result.players))
    low = game is not Variant.STUD
    columns = ["equity", *(["+/-"] if result.method != "exact" else []), "win hi", "tie hi",
               *(["win lo", "tie lo"] if low else []), "scoop"]
    if game is Variant.RAZZ:
        columns = [c for c in columns if c not in ("win hi", "tie hi")]
    typer.echo(f"{'hand':<{width}}" + "".join(f"{c:>9}" for c in columns))
    for p in result.players:
        figures = {"equity": p.equity, "+/-": p.stderr, "win hi": p.win_high,
                   "tie hi": p.tie_high, "win lo": p.win_low, "tie lo": p.tie_low,
                   "scoop": p.scoop}
        typer.echo(f"{p.cards:<{width}}" + "".join(f"{figures[c]:>9.2%}" for c in columns))


def main() -> None:
    try:
        app()
    except (PHHError, RulesError) as error:
        typer.echo(f"error: {error}", err=True)
        sys.exit(2)


__all__ = ["app", "main", "PROFILES"]
