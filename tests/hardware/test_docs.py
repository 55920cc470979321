"""hardware/ on its own is enough to build the tray: its pages show the pictures, every link
leads to a file that is there, the sizes the guide gives are the parts', and the guide ends
with the bench test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hardware import dimensions, meshcheck, render

HARDWARE = render.HERE
PAGES = sorted(HARDWARE.glob("*.md"))
LINK = re.compile(r"\]\(([^)#<>]+)\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_link_in_hardware_leads_to_a_file(page: Path):
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if "://" not in target:
            assert (page.parent / target).exists(), f"{page.name} links to missing {target}"


def test_the_readme_and_the_guide_show_every_picture():
    readme = (HARDWARE / "README.md").read_text(encoding="utf-8")
    guide = (HARDWARE / "BUILD.md").read_text(encoding="utf-8")
    for name in ("top", "exploded"):
        assert f"](enclosure/img/{name}.png)" in readme
    for name in render.PICTURES:
        assert f"](enclosure/img/{name}.png)" in guide
        assert (render.IMG_DIR / f"{name}.png").stat().st_size < 100_000, "optimise the PNGs"
    for name in ("tray-gpio", "tray-pico"):
        assert f"](wiring/{name}.png)" in guide


def test_the_guide_gives_each_parts_own_size_and_volume():
    guide = (HARDWARE / "BUILD.md").read_text(encoding="utf-8")
    for part in dimensions.PARTS:
        triangles = meshcheck.read_stl(render.STL_DIR / f"{part}.stl")
        low, high = meshcheck.bounds(triangles)
        size = " × ".join(
            f"{h - lo:.1f}".removesuffix(".0") for lo, h in zip(low, high, strict=True)
        )
        volume = meshcheck.volume(triangles) / 1000
        row = rf"`{part}\.stl` \|[^|]*\| {size} \| {volume:.1f} \|"
        assert re.search(row, guide), f"{part}: {size} mm, {volume:.1f} cm³"


def test_the_guide_ends_with_the_bench_test():
    guide = (HARDWARE / "BUILD.md").read_text(encoding="utf-8")
    last = guide.split("\n## ")[-1]
    assert last.startswith("6. Bench test")
    assert "bench --config hardware/pinmap.toml" in last
