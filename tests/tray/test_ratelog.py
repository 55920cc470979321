"""An error that arrives by the thousand costs the log a few lines a minute, and the count of the
rest is never lost."""

import logging

from tray.ratelog import RateLimitedLog


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_a_flood_writes_a_few_lines_a_minute_and_counts_the_rest(caplog):
    clock = Clock()
    limited = RateLimitedLog(logging.getLogger("flood"), per_minute=3, clock=clock)
    caplog.set_level(logging.WARNING, logger="flood")
    for i in range(2000):
        limited.warning("error %d", i)
        clock.now += 0.01  # 2,000 in 20 s
    assert [r.getMessage() for r in caplog.records] == ["error 0", "error 1", "error 2"]
    clock.now += 60
    limited.warning("later")
    assert [r.getMessage() for r in caplog.records][3:] == [
        "... and 1997 more like it in the last minute",
        "later",
    ]


def test_a_quiet_source_logs_every_line():
    clock = Clock()
    lines = []
    logger = logging.getLogger("quiet")
    logger.addHandler(handler := logging.Handler())
    handler.emit = lambda record: lines.append(record.getMessage())
    limited = RateLimitedLog(logger, per_minute=2, clock=clock)
    for i in range(5):
        limited.warning("error %d", i)
        clock.now += 61
    assert lines == [f"error {i}" for i in range(5)]
