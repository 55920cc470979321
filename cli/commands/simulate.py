"""`tinker-tray simulate`: bots play hands or whole games; statistics for people or scripts."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cli.arguments import at_least
from cli.files import make_directory

if TYPE_CHECKING:
    from cli.commands.simulate_workers import Job
    from engine.registry import Entry


def add_arguments(p: argparse.ArgumentParser) -> None:
    size = p.add_mutually_exclusive_group(required=True)
    size.add_argument("--hands", type=positive, metavar="N", help="play N single hands")
    size.add_argument("--games", type=positive, metavar="N", help="play N games to the target")
    p.add_argument(
        "--players",
        type=int,
        default=4,
        metavar="P",
        help="players (2-10; classic 2-20, two decks from 11; default 4)",
    )
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed (default 0)")
    p.add_argument(
        "--bots",
        default="random",
        metavar="NAMES",
        help="random, greedy, search (search:300 rollouts a move), or a comma-separated mix "
        "dealt round the table (default random)",
    )
    p.add_argument(
        "--ruleset",
        default="disney",
        help="rules to play: disney (default), classic, official-2018, elvis, elite (UNO Elite: "
        "--option mode=quick|draft|dynasty, deck=PATH, cards=PATH, decks=PATH,PATH,...)",
    )
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a ruleset option, e.g. target=200, scoring=challenge, partners=true (repeatable)",
    )
    p.add_argument(
        "--workers",
        type=positive,
        metavar="N",
        help="processes to play on (default: every core); a seed gives the same results for any N",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--records",
        type=Path,
        metavar="DIR",
        help="write each hand (or game) as a game record into DIR, for `tinker-tray replay`",
    )


positive = at_least(1)


def parse_options(pairs: list[str]) -> dict[str, object]:
    """`name=value` pairs with JSON-ish values: numbers, true/false, else the text itself."""
    options: dict[str, object] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            raise ValueError(f"--option takes NAME=VALUE, not {pair!r}")
        try:
            options[name] = json.loads(raw)
        except json.JSONDecodeError:
            options[name] = raw
    return options


def run(args: argparse.Namespace) -> int:
    from cli.commands import simulate_workers as W

    try:
        job, entry = _job(args)
    except ValueError as exc:
        print(f"tinker-tray simulate: {exc}", file=sys.stderr)
        return 2
    if args.records and (problem := make_directory(args.records)):
        print(f"tinker-tray simulate: --records: {problem}", file=sys.stderr)
        return 2
    written: list[Path] = []
    kind = "hand" if args.hands else "game"
    started = time.perf_counter()
    bar = W.ProgressBar(job.total, None if args.json else sys.stderr)
    try:
        stats = W.run(
            job,
            args.workers or W.default_workers(),
            on_records=_record_writer(args.records, kind, written) if args.records else None,
            bar=bar,
        )
    except ValueError as exc:
        print(f"tinker-tray simulate: {exc}", file=sys.stderr)
        return 2
    stats["seconds"] = round(time.perf_counter() - started, 3)
    if args.json:
        print(json.dumps(stats))
    else:
        _print_table(stats, entry.features(job.options), entry.report(stats))
    if args.records:
        print(written_summary(written, args.records), file=sys.stderr if args.json else sys.stdout)
    return 0


def _job(args: argparse.Namespace) -> tuple[Job, Entry]:
    """The run asked for, and its ruleset's registry entry; ValueError, in one line, for a bad
    option, bot or ruleset, or an input file the ruleset cannot use (before any worker starts)."""
    from cli.commands import simulate_workers as W
    from engine import registry
    from engine.bots import bot_names

    options = parse_options(args.option)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    bot_names(bots, args.players)  # (every ruleset's bots: a bad name is one line here)
    entry = registry.get(args.ruleset)  # (an unknown ruleset: one line naming the known)
    inputs: dict[str, Any] = {}
    if entry.inputs:
        options, inputs = _input_files(args.ruleset, options, args.players)
    job = W.Job(
        players=args.players,
        seed=args.seed,
        hands=args.hands,
        games=args.games,
        bots=bots,
        options=options,
        ruleset=args.ruleset,
        records=bool(args.records),
        inputs=inputs,
    )
    return job, entry


def _record_writer(folder: Path, kind: str, written: list[Path]) -> Callable[[list[str]], None]:
    """`--records`: what writes each batch of records the workers send into `folder`, numbered
    on from the `kind-NNNNN.jsonl` files already there, each path added to `written`."""

    def save(texts: list[str]) -> None:
        index = len(list(folder.glob(f"{kind}-*.jsonl")))
        for text in texts:
            index += 1
            path = folder / f"{kind}-{index:05d}.jsonl"
            path.write_text(text)
            written.append(path)

    return save


def _input_files(
    ruleset: str, options: dict[str, object], players: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The options and the files of a ruleset that needs some (UNO Elite's cards and deck),
    checked by making one game with them (so a bad option or file is one sentence here, not an
    error in every worker)."""
    from cli.inputs import game_inputs
    from engine import registry

    options, inputs = game_inputs(ruleset, options)
    registry.new_game(ruleset, [f"p{s}" for s in range(players)], None, options, inputs)
    return options, inputs


def written_summary(written: list[Path], folder: Path) -> str:
    """What --records wrote: how many files, where, and how to replay one."""
    if not written:
        return f"No game record was written to {folder}."
    noun = "record" if len(written) == 1 else "records"
    span = written[0].name if len(written) == 1 else f"{written[0].name} to {written[-1].name}"
    return (
        f"Wrote {len(written)} game {noun} to {folder} ({span}); "
        f"replay one with: tinker-tray replay {written[0]}"
    )


def _print_table(stats: dict, features: frozenset[str], report: Sequence[str]) -> None:
    """The statistics as a table, then the lines of what the ruleset declares (`features`) and
    the lines it adds of its own (its registry entry's `report`)."""
    from rich.cells import cell_len
    from rich.table import Table

    from cli.console import Console

    console = Console()
    hands = stats["hands"]
    title = f"{hands} hands" + (f", {stats['games']} games" if stats["games"] else "")
    title += f" · {stats['players']} players · {stats['seconds']} s"
    # The title is as wide as the table under it: a table narrower than its title would wrap
    # it onto two lines, so the table is made at least as wide (up to the terminal's width).
    table = Table(title=title, min_width=cell_len(title))
    table.add_column("seat")
    table.add_column("bot")
    table.add_column("hands won", justify="right")
    if stats["games"]:
        table.add_column("games won", justify="right")
    for seat in range(stats["players"]):
        row = [
            str(seat),
            stats["bots"][seat],
            f"{stats['hand_wins_by_seat'][seat]} ({stats['hand_wins_by_seat'][seat] / hands:.1%})",
        ]
        if stats["games"]:
            row.append(str(stats["game_wins_by_seat"][seat]))
        table.add_row(*row)
    console.print(table)
    console.print(f"average turns per hand: {stats['average_turns_per_hand']}")
    if "points" in features:
        console.print(f"average points per hand: {stats['average_points_per_hand']}")
    if "tinker_bell" in features:  # the tray's own cards
        console.print(
            f"Tinker Bell matched a Draw 2: {stats['draw2_matches']} of {stats['draw2_picks']} "
            f"({stats['draw2_match_rate']:.1%})"
        )
        console.print(
            f"Villain Draw 4 fully protected against: {stats['villain_draw4s_fully_protected']} "
            f"of {stats['villain_draw4s']} ({stats['villain_draw4_fully_protected_rate']:.1%})"
        )
    for line in report:  # what the ruleset counts of its own (UNO Elite: its Action Cards)
        console.print(line)
    if stats["blocked_hands"]:
        console.print(f"blocked hands (nobody could move): {stats['blocked_hands']}")
