"""Render everything in hardware/ that is drawn from data: one command.

    .venv/bin/python hardware/render.py [--config PINMAP] [--only WHAT ...] [--jobs N]

- from enclosure/dimensions.toml: enclosure/dimensions.scad (what tray.scad includes) and BOM.md;
- with Debian's openscad: one STL per printable part (enclosure/stl/), closed and checked
  against the bed; the pictures (enclosure/img/top.png, exploded.png) under xvfb-run;
- with WireViz (Graphviz's dot): wiring/tray-gpio.{yml,svg,png,bom.tsv} from the pin map
  (tray/default.toml) and wiring/tray-pico.* from the Pico firmware's pin table.

It prints what it wrote and how long each step took; the exit status is 1 with one line per
problem (a missing tool names the package to install).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: the repository's root is the import root
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hardware import dimensions, meshcheck, wiring

HERE = Path(__file__).resolve().parent
ENCLOSURE = HERE / "enclosure"
STL_DIR = ENCLOSURE / "stl"
IMG_DIR = ENCLOSURE / "img"
WIRING_DIR = HERE / "wiring"
DEFAULT_PINMAP = HERE.parent / "tray" / "default.toml"
# Pictures: (name, part, camera: translate x,y,z, rotate x,y,z, distance), image size.
PICTURES = {
    "top": ("assembly", "0,0,0,0,0,0,430", "o", "1000,600"),
    "exploded": ("exploded", "0,0,60,72,0,20,640", "p", "900,900"),
    "inside": ("inside", "0,0,0,40,0,0,480", "p", "900,600"),
    "bases": ("bases", "0,0,0,30,0,0,640", "p", "900,800"),
}
STEPS = ("data", "wiring", "stl", "pictures")
_ONE_SCREEN = threading.Lock()


class RenderError(Exception):
    """A step that cannot run or failed: one line for the maker."""


def _tool(name: str, package: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise RenderError(f"{name} is missing: sudo apt-get install {package}")
    return found


def _run(command: list[str], cwd: Path) -> None:
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    problems = [line for line in result.stderr.splitlines() if "ERROR" in line or "WARNING" in line]
    if result.returncode != 0 or problems:
        tail = "\n".join(problems or result.stderr.splitlines()[-5:])
        raise RenderError(f"{' '.join(command[-3:])} failed:\n{tail}")


def optimise_png(path: Path) -> None:
    """A palette of 64 colours: these pictures are flat shading and lines, and a third the size."""
    from PIL import Image

    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


def write_data(data: dict[str, Any]) -> list[Path]:
    from tray.backend import COLOURS

    scad, bom = dimensions.scad_text(data, COLOURS), dimensions.bom_text(data)  # both, or neither
    dimensions.SCAD.write_text(scad, encoding="utf-8")
    dimensions.BOM.write_text(bom, encoding="utf-8")
    return [dimensions.SCAD, dimensions.BOM]


def render_part(part: str, data: dict[str, Any], out_dir: Path = STL_DIR) -> Path:
    """One printable part as a binary STL, checked (closed, inside the bed) before it replaces
    the last good one: a failed render leaves the old file as it was."""
    openscad = _tool("openscad", "openscad")
    out_dir.mkdir(exist_ok=True)
    out = out_dir / f"{part}.stl"
    new = out_dir / f".{part}.new.stl"
    try:
        _run([openscad, "--export-format", "binstl", "-o", str(new), "-D", f'part="{part}"',
              "tray.scad"], ENCLOSURE)  # fmt: skip
        triangles = meshcheck.read_stl(new)
        if meshcheck.open_edges(triangles):
            raise RenderError(f"{out.name} is not a closed surface")
        low, high = meshcheck.bounds(triangles)
        x, y, z = (h - lo for lo, h in zip(low, high, strict=True))
        bed = data["bed"]
        if x > bed["x"] or y > bed["y"] or z > bed["z"]:
            raise RenderError(f"{out.name} is {x:.0f} x {y:.0f} x {z:.0f} mm: larger than the bed")
        meshcheck.write_stl(new, triangles)
        new.replace(out)
    finally:
        new.unlink(missing_ok=True)
    return out


def render_picture(name: str, out_dir: Path = IMG_DIR) -> Path:
    part, camera, projection, size = PICTURES[name]
    out = out_dir / f"{name}.png"
    command = [_tool("openscad", "openscad"), "-o", str(out)]
    command += ["-D", f'part="{part}"', "--camera", camera, "--projection", projection]
    command += ["--imgsize", size, "--colorscheme", "Tomorrow", "tray.scad"]
    out_dir.mkdir(exist_ok=True)
    # OpenSCAD draws with OpenGL: a virtual screen where there is no real one. One at a time:
    # two `xvfb-run -a` started together can pick the same free display and one fails.
    xvfb = [_tool("xvfb-run", "xvfb"), "-a", "-s", "-screen 0 1280x1024x24"]
    with _ONE_SCREEN:
        _run(xvfb + command, ENCLOSURE)
    optimise_png(out)
    return out


def _shown(path: Path) -> str:
    """A path as the maker typed it, or from the repository's root when it is inside."""
    try:
        return str(path.resolve().relative_to(HERE.parent))
    except ValueError:
        return str(path)


def render_wiring(pinmap: Path) -> list[Path]:
    import yaml
    from wireviz.wireviz import parse

    from firmware_bridge.firmware.tinkerfw import DEFAULT_PINS
    from tray import config
    from tray.backend import COLOURS

    _tool("dot", "graphviz")
    WIRING_DIR.mkdir(exist_ok=True)
    sources = {
        "tray-gpio": (wiring.gpio_harness(config.load(pinmap)), _shown(pinmap)),
        "tray-pico": (
            wiring.pico_harness(DEFAULT_PINS, COLOURS),
            "DEFAULT_PINS in firmware_bridge/firmware/tinkerfw.py",
        ),
    }
    written = []
    for name, (harness, source) in sources.items():
        text = f"# Written by `python hardware/render.py` from {source}: do not edit.\n"
        text += yaml.safe_dump(harness, sort_keys=False, allow_unicode=True)
        yml = WIRING_DIR / f"{name}.yml"
        yml.write_text(text, encoding="utf-8")
        parse(yml, output_formats=("svg", "png", "tsv"), output_dir=WIRING_DIR, output_name=name)
        optimise_png(WIRING_DIR / f"{name}.png")
        written += [yml, *(WIRING_DIR / f"{name}{ext}" for ext in (".svg", ".png", ".bom.tsv"))]
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", type=Path, default=DEFAULT_PINMAP, help="the pin map to draw")
    parser.add_argument("--only", nargs="+", choices=STEPS, default=STEPS, help="some steps")
    parser.add_argument("--jobs", type=int, default=2, help="renders at once (default 2)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    try:
        data = dimensions.load()
        if "data" in args.only:  # first: everything else reads dimensions.scad
            for path in write_data(data):
                print(f"{'data':<22}          {path.relative_to(HERE)}")
    except (OSError, ValueError) as exc:  # tomllib's errors are ValueErrors, so are the BOM's
        print(f"FAILED data: {dimensions.DATA}: {exc}", file=sys.stderr)
        return 1
    jobs: list[tuple[str, Any, tuple[Any, ...]]] = []
    if "stl" in args.only:
        jobs += [(f"stl {part}", render_part, (part, data)) for part in dimensions.PARTS]
    if "pictures" in args.only:
        jobs += [(f"picture {name}", render_picture, (name,)) for name in PICTURES]
    if "wiring" in args.only:
        jobs.append(("wiring", render_wiring, (args.config,)))
    failed = False
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futures = [(name, pool.submit(_timed, fn, *a)) for name, fn, a in jobs]
        for name, future in futures:
            try:
                seconds, written = future.result()
            except Exception as exc:  # each step's failure is reported, the others still run
                print(f"FAILED {name}: {exc}", file=sys.stderr)
                failed = True
                continue
            for path in written if isinstance(written, list) else [written]:
                size = path.stat().st_size / 1024
                print(f"{name:<22} {seconds:5.1f} s  {path.relative_to(HERE)} ({size:.0f} KiB)")
    print(f"all done in {time.monotonic() - started:.1f} s")
    return 1 if failed else 0


def _timed(fn: Any, *args: Any) -> tuple[float, Any]:
    start = time.monotonic()
    result = fn(*args)
    return time.monotonic() - start, result


if __name__ == "__main__":
    sys.exit(main())
