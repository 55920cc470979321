"""`simulate --workers N`: the same results for a seed whatever N is; a bar only on a terminal."""

from __future__ import annotations

import io
import json

from cli.commands import simulate_workers as W
from cli.main import main
from engine.disney.simulate import simulate


def _run(capsys, tmp_path, workers: int, *args: str) -> tuple[dict, list[str]]:
    out = tmp_path / f"records-{workers}"
    assert (
        main(["simulate", *args, "--json", "--workers", str(workers), "--records", str(out)]) == 0
    )
    stats = json.loads(capsys.readouterr().out)
    stats.pop("seconds")
    return stats, [p.read_text() for p in sorted(out.glob("*.jsonl"))]


def test_hands_are_the_same_on_one_or_two_workers(capsys, tmp_path):
    args = ("--hands", "450", "--players", "2", "--seed", "4", "--bots", "random,greedy")
    assert len(W.Job(2, 4, 450, None, ["random"], {}, "disney").chunks) == 3
    one, records_one = _run(capsys, tmp_path, 1, *args)
    two, records_two = _run(capsys, tmp_path, 2, *args)
    assert one == two and one["hands"] == 450
    assert records_one == records_two and len(records_one) == 450


def test_games_are_the_same_on_one_or_two_workers(capsys, tmp_path):
    args = ("--games", "9", "--players", "3", "--seed", "11", "--option", "target=200")
    one, records_one = _run(capsys, tmp_path, 1, *args)
    two, records_two = _run(capsys, tmp_path, 2, *args)
    assert one == two and one["games"] == 9 and sum(one["game_wins_by_seat"]) >= 9
    assert records_one == records_two and len(records_one) == 9


def test_a_run_of_one_chunk_is_a_plain_simulation(capsys):
    assert main(["simulate", "--hands", "30", "--players", "3", "--seed", "2", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    plain = simulate(players=3, seed=2, hands=30)
    stats.pop("seconds")
    assert stats == plain


def test_chunk_seeds_depend_only_on_the_master_seed():
    job = W.Job(4, 7, 2000, None, ["random"], {}, "disney")
    assert [c.seed for c in job.chunks] == [
        c.seed for c in W.Job(4, 7, 2000, None, [], {}, "disney").chunks
    ]
    assert job.chunks[0].seed == 7 and len({c.seed for c in job.chunks}) == len(job.chunks)
    assert sum(c.hands for c in job.chunks) == 2000 and job.chunks[0].hands % 4 == 0


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_no_bar_on_a_pipe_and_none_in_json(capsys):
    bar = W.ProgressBar(100, io.StringIO(), clock=lambda: 1000.0)
    bar.advance(50)
    assert not bar.enabled and not bar.shown
    assert main(["simulate", "--hands", "5", "--seed", "1", "--json"]) == 0
    captured = capsys.readouterr()
    json.loads(captured.out)  # nothing but the JSON object
    assert captured.err == ""


def test_bar_on_a_terminal_only_after_a_couple_of_seconds():
    now = [0.0]
    stream = _Tty()
    bar = W.ProgressBar(100, stream, clock=lambda: now[0])
    bar.advance(10)
    assert bar.enabled and not bar.shown  # a quick run shows nothing
    now[0] = W.BAR_AFTER_SECONDS + 0.1
    bar.advance(10)
    assert bar.shown
    bar.close()
    assert not bar.shown
