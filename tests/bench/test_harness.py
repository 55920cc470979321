"""bench.harness: the benches' one way of reducing and printing their figures. A wrong percentile
or ratio here would be wrong in every bench at once."""

import pytest

from bench import harness as H


def test_a_percentile_is_a_sample_that_was_measured_by_nearest_rank():
    hundred = [float(x) for x in range(100, 0, -1)]  # any order
    assert H.percentile(hundred, 0.99) == 99.0  # the 99th smallest, not the largest
    assert H.percentile(hundred, 0.5) == 50.0
    assert H.percentile(hundred, 1.0) == 100.0
    assert H.percentile(hundred, 0.0) == 1.0
    assert H.percentile([3.0, 1.0, 2.0], 0.99) == 3.0  # few samples: the worst
    assert H.percentile([7.0], 0.5) == 7.0


@pytest.mark.parametrize(
    ("values", "q", "said"),
    [([], 0.5, "no samples"), ([1.0], 1.5, "from 0 to 1, not 1.5"), ([1.0], -0.1, "not -0.1")],
)
def test_a_percentile_of_nothing_or_out_of_range_says_so(values, q, said):
    with pytest.raises(ValueError, match=said):
        H.percentile(values, q)


def test_a_spread_is_median_p99_worst_and_count():
    spread = H.Spread.of([0.004, 0.001, 0.002, 0.003, 0.010])
    assert spread == H.Spread(median=0.003, p99=0.010, worst=0.010, n=5)


def test_the_runs_take_turns_and_the_order_flips_every_round():
    order: list[str] = []

    def side(name: str):
        def run() -> str:
            order.append(name)
            return f"{name}{len(order)}"

        return run

    found = H.interleaved({"ours": side("ours"), "peer": side("peer")}, 3)
    assert order == ["ours", "peer", "peer", "ours", "ours", "peer"]
    assert found == {"ours": ["ours1", "ours4", "ours5"], "peer": ["peer2", "peer3", "peer6"]}
    with pytest.raises(ValueError, match="at least one round"):
        H.interleaved({"ours": side("ours")}, 0)


def test_a_ratio_is_against_the_peer_and_says_when_the_peer_measured_nothing():
    assert H.ratio(3.0, 2.0) == "1.50x"
    assert H.ratio(1.0, 0.0) == "-"
    assert H.versus(1.0, 4.0) == "0.25x the peer"


def test_times_read_in_the_unit_that_fits():
    assert H.duration(0.000_012_3) == "12.3 µs"
    assert H.duration(0.012_345) == "12.35 ms"
    assert H.duration(12.34) == "12.3 s"
    assert H.duration(float("inf")) == "never"


def test_a_side_is_printed_with_its_ratio_to_the_peer():
    ours, peer = [0.002, 0.004, 0.006], [0.001, 0.002, 0.003]
    assert H.timings(peer) == "median 2.00 ms, p99 3.00 ms, worst 3.00 ms (n=3)"
    assert H.timings(ours, peer) == (
        "median 4.00 ms, p99 6.00 ms, worst 6.00 ms (n=3), 2.00x the peer"
    )


def test_a_side_that_measured_nothing_says_so_and_takes_no_ratio():
    assert H.timings([]) == "none measured (n=0)"
    assert H.timings([0.001], []) == "median 1.00 ms, p99 1.00 ms, worst 1.00 ms (n=1)"


def test_rows_line_up_under_one_heading(capsys):
    H.heading("1. a part")
    H.rows([("short", "1 ms"), ("a longer label", "2 ms")])
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "1. a part"
    assert out[1].index("1 ms") == out[2].index("2 ms") == 2 + H.WIDTH + 1


def test_a_win_rate_carries_its_wilson_interval():
    low, high = H.wilson(276, 400)
    assert (round(low, 4), round(high, 4)) == (0.643, 0.7333)  # by hand: 0.6880 ± 0.0451
    assert H.win_rate(276, 400) == "won 276 of 400 = 69.0% (95% CI 64.3% to 73.3%)"
    low, high = H.wilson(0, 10)  # all lost: the interval stays inside 0 to 1
    assert low == pytest.approx(0.0, abs=1e-12) and 0 < high < 0.35
    assert H.win_rate(0, 0) == "won 0 of 0: no game decided"


def test_a_child_runs_a_module_of_this_checkout_with_this_interpreter():
    import sys

    assert H.child("bench.display_latency", "--serve", "bare") == [
        sys.executable, "-m", "bench.display_latency", "--serve", "bare",
    ]  # fmt: skip
    assert (H.ROOT / "bench" / "harness.py").is_file()
