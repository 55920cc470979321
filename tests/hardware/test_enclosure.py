"""The printed tray: every part closed and on the bed, and the holes the parts' makers rely on
(the button, the four lights, each board's screws) measured on the meshes themselves, both
the ones OpenSCAD renders now and the STLs committed for makers without OpenSCAD."""

from __future__ import annotations

import itertools
import math
import subprocess
from pathlib import Path

import pytest

from hardware import dimensions, meshcheck, render
from tests.hardware.conftest import need
from tray.backend import COLOURS

DATA = dimensions.load()
BOARDS = {"base_pi_zero_2w": "pi_zero_2w", "base_pico": "pico"}


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> Path:
    """Every part rendered now from tray.scad (two at a time, as render.py does)."""
    need("openscad")
    out = tmp_path_factory.mktemp("stl")
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda part: render.render_part(part, DATA, out), dimensions.PARTS))
    return out


@pytest.fixture(params=["rendered", "committed"])
def stl_dir(request) -> Path:
    if request.param == "committed":
        return render.STL_DIR
    return request.getfixturevalue("rendered")


def test_dimensions_scad_and_the_bom_are_written_from_the_data_file():
    assert dimensions.SCAD.read_text() == dimensions.scad_text(DATA, COLOURS), (
        "enclosure/dimensions.scad is stale: run python hardware/render.py"
    )
    assert dimensions.BOM.read_text() == dimensions.bom_text(DATA), (
        "BOM.md is stale: run python hardware/render.py"
    )


def test_the_bom_names_the_sizes_the_model_is_built_around():
    bom = dimensions.BOM.read_text()
    assert f"{DATA['button']['thread_d']:g} mm arcade button" in bom
    assert f"its hole is {DATA['button']['hole_d']:g} mm" in bom
    assert f"{DATA['leds']['hole_d']:g} mm hole" in bom
    assert DATA["screws"]["kind"] in bom


@pytest.mark.slow
@pytest.mark.parametrize("part", dimensions.PARTS)
def test_every_part_is_a_closed_surface_that_fits_the_bed(stl_dir, part):
    triangles = meshcheck.read_stl(stl_dir / f"{part}.stl")
    assert meshcheck.open_edges(triangles) == []
    low, high = meshcheck.bounds(triangles)
    bed = DATA["bed"]
    assert high[0] - low[0] <= bed["x"] and high[1] - low[1] <= bed["y"]
    assert high[2] - low[2] <= bed["z"]
    assert low[2] == pytest.approx(0, abs=1e-3), "a part must lie on the bed"


def _deck_circles(stl_dir: Path) -> list[meshcheck.Circle]:
    """The round holes through the deck (the shell lies deck down, so the deck is at the bottom:
    cut halfway up it, under the dial's engraving)."""
    triangles = meshcheck.read_stl(stl_dir / "shell.stl")
    return meshcheck.circles(triangles, DATA["shell"]["deck"] / 2)


@pytest.mark.slow
def test_the_button_and_led_holes_are_the_data_files(stl_dir):
    found = _deck_circles(stl_dir)
    button = [c for c in found if abs(c.d - DATA["button"]["hole_d"]) < 0.01]
    leds = [c for c in found if abs(c.d - DATA["leds"]["hole_d"]) < 0.01]
    assert len(button) == 1, f"no {DATA['button']['hole_d']} mm button hole in {found}"
    assert len(leds) == 4, f"not four {DATA['leds']['hole_d']} mm LED holes in {found}"
    assert len(found) == 5, f"other round holes through the deck: {found}"
    centre = button[0]
    radii = [math.hypot(c.x - centre.x, c.y - centre.y) for c in leds]
    assert radii == pytest.approx([DATA["leds"]["ring_r"]] * 4, abs=0.01)
    angles = sorted(math.degrees(math.atan2(c.y - centre.y, c.x - centre.x)) % 360 for c in leds)
    gaps = [b - a for a, b in itertools.pairwise([*angles, angles[0] + 360])]
    assert gaps == pytest.approx([90] * 4, abs=0.01), "the lights are not a square dial"


def _distances(points: list[tuple[float, float]]) -> list[float]:
    return sorted(math.dist(a, b) for a, b in itertools.combinations(points, 2))


@pytest.mark.slow
@pytest.mark.parametrize("part", BOARDS)
def test_each_base_has_its_boards_hole_pattern(stl_dir, part):
    board = DATA["boards"][BOARDS[part]]
    triangles = meshcheck.read_stl(stl_dir / f"{part}.stl")
    # Halfway up the standoffs: each shows its post and its pilot hole, nothing else is there.
    z = DATA["shell"]["base"] + board["standoff_h"] / 2
    groups = meshcheck.by_diameter(meshcheck.circles(triangles, z))
    assert sorted(groups) == pytest.approx(
        sorted([board["pilot_d"], board["standoff_d"]]), abs=0.01
    )
    pilots = next(c for d, c in groups.items() if abs(d - board["pilot_d"]) < 0.01)
    found = _distances([(c.x, c.y) for c in pilots])
    assert found == pytest.approx(_distances([tuple(h) for h in board["holes"]]), abs=0.01)


@pytest.mark.slow
def test_the_base_screws_meet_the_shells_bosses(stl_dir):
    """The base's clearance holes over the shell's pilot holes: the shell prints deck down
    (turned over about x), so its y runs the other way."""
    screws = DATA["screws"]
    shell = meshcheck.read_stl(stl_dir / "shell.stl")
    pilots = meshcheck.circles(shell, DATA["shell"]["deck"] + 5)
    pilots = [(c.x, -c.y) for c in pilots if abs(c.d - screws["pilot_d"]) < 0.01]
    assert len(pilots) == screws["count"]
    for part in BOARDS:
        base = meshcheck.read_stl(stl_dir / f"{part}.stl")
        found = meshcheck.circles(base, (screws["head_h"] + DATA["shell"]["base"]) / 2)
        holes = [(c.x, c.y) for c in found if abs(c.d - screws["clearance_d"]) < 0.01]
        flat = [*itertools.chain(*sorted(holes))]
        assert flat == pytest.approx([*itertools.chain(*sorted(pilots))], abs=0.01), part


@pytest.mark.slow
def test_the_wells_take_a_whole_deck(stl_dir):
    cards = DATA["cards"]
    shell = meshcheck.read_stl(stl_dir / "shell.stl")
    low, high = meshcheck.bounds(shell)
    assert high[2] - low[2] >= cards["count"] * cards["thickness"], "too shallow for the deck"
    # Below the finger notches (the shell lies deck down), each well is an outline of its own.
    outlines = meshcheck.section(shell, (cards["notch_depth"] + high[2]) / 2)
    sizes = []
    for loop in outlines:
        xs, ys = [p[0] for p in loop], [p[1] for p in loop]
        sizes.append((max(xs) - min(xs), max(ys) - min(ys)))
    well = (cards["width"] + 2 * cards["play"], cards["length"] + 2 * cards["play"])
    assert sum(size == pytest.approx(well, abs=0.01) for size in sizes) == 2, sizes


@pytest.mark.slow
def test_the_committed_stls_are_those_the_model_renders_now(rendered):
    for part in dimensions.PARTS:
        now = meshcheck.read_stl(rendered / f"{part}.stl")
        committed = meshcheck.read_stl(render.STL_DIR / f"{part}.stl")
        corners = [*itertools.chain(*meshcheck.bounds(committed))]
        assert corners == pytest.approx([*itertools.chain(*meshcheck.bounds(now))], abs=1e-3), (
            f"enclosure/stl/{part}.stl is stale: run python hardware/render.py"
        )
        assert len(committed) == len(now), f"enclosure/stl/{part}.stl is stale"


def test_the_closed_surface_check_finds_a_hole_and_a_flipped_face():
    triangles = meshcheck.read_stl(render.STL_DIR / "base_pico.stl")
    assert meshcheck.open_edges(triangles) == []
    assert meshcheck.open_edges(triangles[1:]) != []
    a, b, c = triangles[0]
    assert meshcheck.open_edges([(a, c, b), *triangles[1:]]) != []


@pytest.mark.slow
def test_a_board_that_does_not_fit_stops_the_render(tmp_path):
    """The model's own checks: a bay too narrow for the Pi Zero is refused, not printed."""
    openscad = need("openscad")
    command = [openscad, "-o", str(tmp_path / "x.stl"), "-D", "shell_bay=66"]
    command += ["-D", 'part="base_pico"', "tray.scad"]
    result = subprocess.run(command, cwd=render.ENCLOSURE, capture_output=True, text=True)
    assert "pi_zero_2w does not fit the bay between the wells" in result.stderr
    assert not (tmp_path / "x.stl").exists()


@pytest.mark.slow
def test_the_pictures_render_headless(tmp_path):
    need("openscad")
    need("xvfb-run")
    from PIL import Image

    for name in render.PICTURES:
        with Image.open(render.render_picture(name, tmp_path)) as image:
            expected = tuple(int(n) for n in render.PICTURES[name][3].split(","))
            assert image.size == expected
            assert len(image.getcolors(256) or []) > 8, f"{name}.png is blank"


def test_a_missing_tool_is_one_line_naming_the_package(monkeypatch, capsys):
    monkeypatch.setenv("PATH", "/nonexistent")
    assert render.main(["--only", "stl", "pictures"]) == 1
    err = capsys.readouterr().err
    assert "FAILED stl shell: openscad is missing: sudo apt-get install openscad" in err
    assert "Traceback" not in err


def test_a_broken_pin_map_is_reported_and_nothing_is_drawn(tmp_path, capsys):
    need("dot")  # the wiring step asks for graphviz first (its neighbours skip without it too)
    before = (render.WIRING_DIR / "tray-gpio.yml").read_bytes()
    pinmap = tmp_path / "pinmap.toml"
    pinmap.write_text("[leds]\nred = { pin = 2 }\n", encoding="utf-8")
    assert render.main(["--only", "wiring", "--config", str(pinmap)]) == 1
    err = capsys.readouterr().err
    assert f"FAILED wiring: {pinmap}, line 1: leds.blue is missing" in err
    assert f"{pinmap}, line 2: leds.red.pin: GPIO2 is reserved for the I2C bus" in err
    assert (render.WIRING_DIR / "tray-gpio.yml").read_bytes() == before


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[bed\nx = 1\n", "Expected ']'"),
        ('[bed]\nx = 220\n[[bom]]\nqty = "1"\npart = "{button.hole_d}"\nnotes = ""\n',
         "the BOM names {button.hole_d}, which is not in it"),
    ],
)  # fmt: skip
def test_a_broken_data_file_is_one_line_and_writes_nothing(tmp_path, monkeypatch, capsys, text,
                                                           problem):  # fmt: skip
    data = tmp_path / "dimensions.toml"
    data.write_text(text, encoding="utf-8")
    monkeypatch.setattr(dimensions, "DATA", data)
    monkeypatch.setattr(dimensions, "SCAD", tmp_path / "dimensions.scad")
    monkeypatch.setattr(dimensions, "BOM", tmp_path / "BOM.md")
    assert render.main(["--only", "data"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"FAILED data: {data}: ") and problem in err
    assert "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dimensions.toml"]


@pytest.mark.slow
def test_a_part_too_big_for_the_bed_keeps_the_last_good_stl(tmp_path):
    need("openscad")
    good = tmp_path / "base_pico.stl"
    good.write_bytes(b"the last good render")
    small_bed = DATA | {"bed": {"x": 180, "y": 180, "z": 250}}
    with pytest.raises(render.RenderError, match=r"base_pico.stl is 202 x 114 x 8 mm: larger"):
        render.render_part("base_pico", small_bed, tmp_path)
    assert good.read_bytes() == b"the last good render"
    assert [p.name for p in tmp_path.iterdir()] == ["base_pico.stl"]


def test_the_volume_of_a_box_is_its_volume():
    """The check the guide's figures rest on, on a shape whose answer is known: a 10 mm cube."""
    corners = [(x, y, z) for x in (0.0, 10.0) for y in (0.0, 10.0) for z in (0.0, 10.0)]
    faces = [(0, 2, 3), (0, 3, 1), (4, 5, 7), (4, 7, 6), (0, 1, 5), (0, 5, 4), (2, 6, 7), (2, 7, 3),
             (0, 4, 6), (0, 6, 2), (1, 3, 7), (1, 7, 5)]  # fmt: skip
    cube = [tuple(corners[i] for i in reversed(face)) for face in faces]  # turning outwards
    assert meshcheck.open_edges(cube) == []  # type: ignore[arg-type]
    assert meshcheck.volume(cube) == pytest.approx(1000)  # type: ignore[arg-type]
