"""Which build runs: the compiled modules only while every source is as it was compiled."""

import hashlib
import os

import pytest

import engine


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A source folder with one module, and a compiled folder whose stamp records it."""
    sources, compiled = tmp_path / "engine", tmp_path / "build"
    sources.mkdir()
    (compiled / "engine").mkdir(parents=True)
    module = sources / "cards.py"
    module.write_text("RED = 0\n")
    monkeypatch.setattr(engine, "_HERE", str(sources))
    monkeypatch.setattr(engine, "COMPILED", str(compiled))
    return module, compiled / "engine" / engine.STAMP


def stamp(module, stamp_file, *, seen=True):
    digest = hashlib.sha256(module.read_bytes()).hexdigest()
    line = f"{module.name} {digest}"
    if seen:
        now = module.stat()
        line += f" {now.st_size} {now.st_mtime_ns}"
    stamp_file.write_text(line + "\n")


def test_a_build_of_the_sources_as_they_are_is_current(tree):
    module, stamp_file = tree
    stamp(module, stamp_file)
    assert engine._compiled_is_current()


def test_a_source_touched_but_unchanged_keeps_the_build(tree):
    module, stamp_file = tree
    stamp(module, stamp_file)
    later = module.stat().st_mtime_ns + 5_000_000_000
    os.utime(module, ns=(later, later))
    assert engine._compiled_is_current()


def test_a_changed_source_makes_the_build_stale(tree):
    module, stamp_file = tree
    stamp(module, stamp_file)
    module.write_text("RED = 1\n")  # the same size: the digest tells
    assert not engine._compiled_is_current()


def test_a_stamp_without_sizes_is_checked_by_digest(tree):
    module, stamp_file = tree
    stamp(module, stamp_file, seen=False)
    assert engine._compiled_is_current()
    module.write_text("RED = 2\n")
    assert not engine._compiled_is_current()


def test_no_stamp_or_a_missing_source_means_no_build(tree):
    module, stamp_file = tree
    assert not engine._compiled_is_current()
    stamp(module, stamp_file)
    module.unlink()
    assert not engine._compiled_is_current()
