"""PHH writing: `stud simulate --phh-out` on the fast engine against the reference engine.

Both engines play the same random 6-player stud match (same seed, so the same hands) and write
every hand's PHH file into a temporary folder, as ``sim.simulate`` does; the files of the two
engines are compared byte for byte after every round. Rates are hands per second of this
process's CPU time (playing, writing the text and the files), medians of the rounds, after a
warm-up that loads the compiled kernels.

    python bench/phh_fast.py [--hands 20000] [--reference-hands 2000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from stud.rules import Stakes, Variant, profile
from stud.sim import Match, play_chunk
from stud.sim_fast import play_chunk_fast


def write(folder: Path, first: int, texts: tuple[str, ...]) -> None:
    for number, text in enumerate(texts, start=first):
        (folder / f"{number}.phh").write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--reference-hands", type=int, default=2_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for name in ("hands", "reference_hands", "rounds"):
        if getattr(args, name) < 1:
            what = "round" if name == "rounds" else "hand"
            parser.error(f"--{name.replace('_', '-')} {getattr(args, name)}: at least one {what}")
    if args.reference_hands > args.hands:  # each reference file is compared with the fast one
        parser.error(f"--reference-hands {args.reference_hands}: at most --hands "
                     f"({args.hands}): both engines' files are compared")
    match = Match(Variant.STUD, Stakes(1, 2, 5, 10), profile("standard"), ("random",) * 6)
    play_chunk_fast(match, 1, 10, True)  # load the kernels
    rates: dict[str, list[float]] = {"fast": [], "reference": []}
    for round_ in range(args.rounds):
        with tempfile.TemporaryDirectory() as fast, tempfile.TemporaryDirectory() as reference:
            started = time.process_time()
            for first in range(1, args.hands + 1, 4_000):
                chunk = play_chunk_fast(match, first, min(4_000, args.hands - first + 1), True)
                write(Path(fast), first, chunk.phh)
            rates["fast"].append(args.hands / (time.process_time() - started))
            started = time.process_time()
            chunk = play_chunk(match, 1, args.reference_hands, True)
            write(Path(reference), 1, chunk.phh)
            rates["reference"].append(args.reference_hands / (time.process_time() - started))
            for number in range(1, args.reference_hands + 1):
                name = f"{number}.phh"
                assert (Path(fast) / name).read_bytes() == (Path(reference) / name).read_bytes()
        print(f"round {round_ + 1}: " + ", ".join(f"{k} {v[-1]:,.0f}" for k, v in rates.items()),
              flush=True)
    fast_rate, reference_rate = (statistics.median(rates[k]) for k in ("fast", "reference"))
    print(f"\nPHH written, hands per CPU second (medians of {args.rounds} rounds; the files "
          f"of both engines identical):\n  --engine fast {fast_rate:,.0f}\n  --engine reference "
          f"{reference_rate:,.0f}\n  ratio {fast_rate / reference_rate:.1f}x")


if __name__ == "__main__":
    main()
