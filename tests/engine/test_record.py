"""The game record: writing, reading, replaying, and refusing malformed files clearly."""

import json

import pytest

from cli.main import main
from engine import record
from engine.disney import cards as C
from engine.disney.simulate import simulate
from engine.record import RecordError
from tests.engine.helpers import deck_for


def recorded_games(n=3, players=3, seed=11):
    games = []
    simulate(
        players=players,
        seed=seed,
        games=n,
        record=True,
        on_game=games.append,
        options={"target": 150},
    )
    return games


def test_written_record_replays_to_the_same_state():
    for g in recorded_games():
        replayed, count = record.replay(record.dumps(g))
        assert count == len(g.events)
        assert replayed.summary() == g.summary()
        assert replayed.sheet == g.sheet


def test_header_with_seed_writes_back_the_deck():
    """ "Instead of deck, seed (an integer) lets the engine shuffle; then the record it writes back
    holds the resulting deck, so a replay never needs the seed." """
    text = json.dumps(
        {
            "format": record.FORMAT,
            "ruleset": "disney",
            "players": ["a", "b"],
            "dealer": 1,
            "seed": 42,
        }
    )
    g, _ = record.replay(text)
    header = json.loads(record.dumps(g).splitlines()[0])
    assert "seed" not in header and len(header["deck"]) == 112
    again, _ = record.replay(record.dumps(g))
    assert again.summary() == g.summary()


def header(**extra):
    deck = [C.code(c) for c in deck_for(2, {1: ["R5", "B5"]}, top="R9")]
    return json.dumps(
        {
            "format": record.FORMAT,
            "ruleset": "disney",
            "players": ["Ann", "Ben"],
            "dealer": 0,
            "options": {},
            "deck": deck,
            **extra,
        }
    )


@pytest.mark.parametrize(
    ("lines", "line", "words"),
    [
        (["{not json"], 1, "not valid JSON"),
        ([json.dumps({"format": "pgn"})], 1, "not a game record"),
        ([header(deck=["R1"] * 112)], 1, "not the disney deck"),
        ([header(deck=["R1", "X9"])], 1, "unknown card 'X9'"),
        ([header(ruleset="poker")], 1, "unknown ruleset"),
        ([header(options={"stacking": True})], 1, "unknown option 'stacking'"),
        ([header(), "[1, 2]"], 2, "JSON object"),
        ([header(), '{"seat": 1, "act": "play", "card": "Q7"}'], 2, "unknown card 'Q7'"),
        ([header(), '{"seat": 1, "act": "fly"}'], 2, "unknown act 'fly'"),
        ([header(), '{"chance": "dice"}'], 2, "unknown chance"),
        ([header(), '{"chance": "tinker_bell", "colour": "pink"}'], 2, "unknown colour 'pink'"),
        ([header(), '{"seat": "one", "act": "draw"}'], 2, "seat number"),
    ],
)
def test_malformed_records_name_the_line(lines, line, words):
    with pytest.raises(RecordError) as info:
        record.replay("\n".join(lines))
    assert info.value.line == line and words in str(info.value)


def test_event_out_of_turn_stops_the_replay_with_the_state_before_it(capsys, tmp_path):
    """ "An event the rules forbid stops the replay: ok is false, error names the rule broken ...
    event is its 1-based line number among the events, the state printed is the state before it,
    and the exit status is non-zero." """
    path = tmp_path / "bad.jsonl"
    path.write_text(
        "\n".join(
            [
                header(),
                '{"seat": 1, "act": "play", "card": "R5"}',
                '{"seat": 1, "act": "play", "card": "B5"}',
            ]
        )
        + "\n"
    )
    assert main(["replay", str(path)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False and out["event"] == 2 and out["events"] == 1
    assert out["rule"] == "turn" and "Ann's move" in out["error"] and out["discard_top"] == "R5"
    assert len(out["hands"]["1"]) == 6  # seven dealt, one played


@pytest.mark.parametrize("content", ["", "{oops", '{"format": "x"}'])
def test_replay_command_malformed_file_exits_2_without_traceback(content, tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    path.write_text(content)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "line 1" in err and "Traceback" not in err


def test_replay_command_prints_the_state(tmp_path, capsys):
    g = recorded_games(1)[0]
    path = tmp_path / "g.jsonl"
    path.write_text(record.dumps(g))
    assert main(["replay", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is True and out["events"] == len(g.events)
    for key in [
        "hand",
        "turn",
        "direction",
        "colour",
        "discard_top",
        "draw_pile",
        "hands",
        "awaiting",
        "scores",
        "hand_winner",
        "game_winner",
    ]:
        assert key in out
    assert out["game_winner"] == g.sheet.winner


def test_missing_file_is_a_clear_error(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_simulate_json_and_records(tmp_path, capsys):
    assert (
        main(
            [
                "simulate",
                "--hands",
                "5",
                "--players",
                "3",
                "--seed",
                "2",
                "--json",
                "--records",
                str(tmp_path),
            ]
        )
        == 0
    )
    stats = json.loads(capsys.readouterr().out)
    assert stats["hands"] == 5 and sum(stats["hand_wins_by_seat"]) == 5
    files = sorted(tmp_path.glob("hand-*.jsonl"))
    assert len(files) == 5
    assert main(["replay", str(files[0])]) == 0


def test_simulate_is_deterministic_for_a_seed(capsys):
    args = ["simulate", "--games", "2", "--players", "4", "--seed", "9", "--json"]
    runs = []
    for _ in range(2):
        main([*args, "--bots", "random,greedy"])
        runs.append(json.loads(capsys.readouterr().out))
        runs[-1].pop("seconds")
    assert runs[0] == runs[1] and runs[0]["games"] == 2 and runs[0]["hands"] >= 2


@pytest.mark.parametrize(
    "args",
    [
        ["--bots", "genius"],
        ["--option", "nonsense"],
        ["--players", "11"],
        ["--option", "target=-5"],
    ],
)
def test_simulate_bad_arguments(args, capsys):
    assert main(["simulate", "--hands", "1", *args]) == 2
    assert "simulate:" in capsys.readouterr().err


def test_clone_is_independent_of_the_original_record():
    """A clone's discards must not leak into the original's events (found by the property test)."""
    from tests.engine.helpers import act, game, play, tinker

    g = game(3, {1: ["WDA", "R3", "R2", "B5"]}, top="Y4")
    play(g, "WDA")
    tinker(g, "red")
    act(g, "discard", cards=["R3"], more=True)
    before = record.dumps(g)
    c = g.clone()
    act(c, "discard", cards=["R2"])
    assert record.dumps(g) == before
    assert before.rstrip().endswith('"cards": ["R3"]}')
    assert record.dumps(c).rstrip().endswith('"cards": ["R3", "R2"]}')


@pytest.mark.parametrize("ruleset", ["classic", "official-2018"])
def test_simulate_and_replay_every_ruleset(ruleset, tmp_path, capsys):
    """`tinker-tray simulate --ruleset R` plays and writes records that `replay` runs."""
    options = ["--option", "stacking=mixed", "--option", "seven_o=true", "--option", "jump_in=true"]
    args = ["simulate", "--ruleset", ruleset, "--hands", "4", "--players", "3", "--seed", "5"]
    assert main([*args, "--json", "--records", str(tmp_path), *options]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["hands"] == 4 and stats["ruleset"] == ruleset
    for path in sorted(tmp_path.glob("hand-*.jsonl")):
        assert json.loads(path.read_text().splitlines()[0])["ruleset"] == ruleset
        assert main(["replay", str(path)]) == 0
        assert json.loads(capsys.readouterr().out)["ok"] is True
    assert main([*args]) == 0
    assert "Tinker Bell" not in capsys.readouterr().out
