"""A release hands its trays the compiled engine in its update file: packed only when it was
built from the tag's own sources for the trays' Python and machine, and run by the updated tray
without a compile. This machine's own compiled engine (./tinker built it where a compiler is)
stands for the image build's."""

from __future__ import annotations

import sys
import sysconfig
from pathlib import Path

import pytest

from cli.main import main
from tests.update.helpers import ROOT, Bench, git, make_bench

pytestmark = pytest.mark.slow

COMPILED = ROOT / "build" / "mypyc"
PYTHON = f"{sys.version_info[0]}.{sys.version_info[1]}"
MACHINE = sysconfig.get_config_var("MULTIARCH").split("-")[0]


@pytest.fixture
def bench(tmp_path) -> Bench:
    bench = make_bench(tmp_path)
    git(bench.tray, "remote", "set-url", "origin", str(tmp_path / "unreachable"))
    return bench


def needs_compiled() -> None:
    import engine

    if engine.BUILD != "compiled":
        pytest.skip("this checkout's engine is not compiled (no C compiler here): nothing to hand")


def pack(bench: Bench, tag: str, engine: Path, *more: str) -> tuple[int, Path]:
    wheels = bench.origin.parent / "wheels"
    wheels.mkdir(exist_ok=True)
    out = bench.origin.parent / f"tinker-tray-{tag}.update"
    argv = ["release", "pack", tag, "--key", str(bench.key), "--wheels", str(wheels),
            "--repo", str(bench.origin), "--out", str(out), "--engine", str(engine),
            "--python", PYTHON, "--machine", MACHINE, *more]  # fmt: skip
    return main(argv), out


def build_of(slot: Path) -> str:
    import subprocess

    done = subprocess.run(
        [sys.executable, "-P", "-c", "import engine; print(engine.BUILD)"],
        cwd=slot, env={"PYTHONPATH": str(slot)}, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_an_update_file_hands_the_tray_its_compiled_engine(bench):
    needs_compiled()
    bench.release("v1.1.0")
    status, out = pack(bench, "v1.1.0", COMPILED)
    assert status == 0
    assert not (bench.tray / "build" / "mypyc").exists()  # nothing to reuse from the running one
    done = bench.update("--file", str(out), TINKER_TRAY_PURE="0")
    assert done.returncode == 0, done.stderr
    (slot,) = (bench.tray / ".releases" / "slots").iterdir()
    assert (slot / "build" / "mypyc" / "engine" / "SOURCES").read_bytes() == (
        COMPILED / "engine" / "SOURCES"
    ).read_bytes()
    assert build_of(slot) == "compiled"


def test_an_engine_built_from_other_sources_is_not_packed(bench, capsys):
    needs_compiled()
    (bench.origin / "engine" / "errors.py").write_text('"""Changed after the build."""\n')
    git(bench.origin, "add", "engine/errors.py")
    bench.release("v1.1.0")
    status, out = pack(bench, "v1.1.0", COMPILED)
    assert status == 1 and not out.exists()
    said = capsys.readouterr().err.strip()
    assert said == (
        f"tinker-tray release: the compiled engine in {COMPILED} was built from another "
        "engine/errors.py than v1.1.0's: build it from the tag; nothing was downloaded or packed"
    )


def test_an_engine_for_another_machine_is_not_packed(bench, tmp_path, capsys):
    engine = tmp_path / "mypyc"
    (engine / "engine").mkdir(parents=True)
    (engine / "engine" / "SOURCES").write_text("")
    (engine / "engine" / "game.cpython-313-x86_64-linux-gnu.so").write_bytes(b"\x7fELF")
    bench.release("v1.1.0")
    status, out = main_pack(bench, engine, "--python", "3.13", "--machine", "aarch64")
    said = capsys.readouterr().err.strip()
    assert status == 1 and not out.exists()
    assert said == (
        f"tinker-tray release: game.cpython-313-x86_64-linux-gnu.so in {engine} was built for "
        "another Python or machine than the trays' (cpython-313-aarch64-linux-gnu: --python, "
        "--machine); nothing was downloaded or packed"
    )


def main_pack(bench: Bench, engine: Path, *more: str) -> tuple[int, Path]:
    wheels = bench.origin.parent / "wheels"
    wheels.mkdir(exist_ok=True)
    out = bench.origin.parent / "x.update"
    argv = ["release", "pack", "v1.1.0", "--key", str(bench.key), "--wheels", str(wheels),
            "--repo", str(bench.origin), "--out", str(out),
            "--engine", str(engine), *more]  # fmt: skip
    return main(argv), out


@pytest.mark.parametrize("fault", ["no stamp", "a link", "a hidden file"])
def test_a_folder_that_is_no_compiled_engine_is_one_sentence(bench, tmp_path, capsys, fault):
    engine = tmp_path / "mypyc"
    (engine / "engine").mkdir(parents=True)
    if fault != "no stamp":
        (engine / "engine" / "SOURCES").write_text("")
    if fault == "a link":
        (engine / "engine" / "game.so").symlink_to("/etc/passwd")
    if fault == "a hidden file":
        (engine / "engine" / ".game.so").write_bytes(b"x")
    bench.release("v1.1.0")
    status, out = main_pack(bench, engine)
    said = capsys.readouterr().err.strip()
    assert status == 1 and not out.exists() and "\n" not in said
    assert said.endswith("; nothing was downloaded or packed")
    why = {
        "no stamp": "holds no compiled engine",
        "a link": "is a symbolic link",
        "a hidden file": "is not a name a compiled engine's part can have",
    }
    assert why[fault] in said
