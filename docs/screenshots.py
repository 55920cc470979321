"""Regenerate docs/img/*.png: a sample game served on 127.0.0.1, shot by headless chromium.

.venv/bin/python docs/screenshots.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cli.app import create_app  # noqa: E402
from scoreboard.journal import Journal  # noqa: E402
from scoreboard.server import ServerThread, bind  # noqa: E402
from tests.helpers.browser import ARGS, CHROMIUM  # noqa: E402
from tray.bus import Bus  # noqa: E402
from tray.events import Pick  # noqa: E402

TV_SMALL = {"width": 1280, "height": 800}
TV_LARGE = {"width": 1920, "height": 1080}
PHONE = {"width": 360, "height": 740}
HANDS = [
    (0, [None, ["R7", "W", "VD4"], 40, ["G2", "YS"]]),
    (2, [["B3", "B4"], ["GD2"], None, 15]),
    (1, [12, None, ["WDA", "Y9"], ["R1", "R2", "RR"]]),
    (0, [None, ["VD4"], ["G5"], ["W", "W"]]),
    (3, [["BS", "B0"], 33, ["Y1"], None]),
]


def main() -> None:
    out = ROOT / "docs" / "img"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "j.sqlite3")
        bus = Bus()
        token = journal.token()
        app = create_app(journal, bus, token, public_url="http://tinkertray.local:8000")
        server = ServerThread(app, bind()).start()  # its lifespan makes the session
        session = app.state.session
        session.new_game(["Ann", "Bea", "Cy", "Dot"], dealer=3)
        for winner, held in HANDS:
            session.submit({"kind": "hand", "winner": winner, "held": held})
        session.submit({"kind": "declare", "card": "RD2", "seat": 1})
        bus.publish(Pick(seq=17, colour="red", t=0.0))
        base = f"http://127.0.0.1:{server.port}"
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
                # the TV sizes (the kiosk cannot scroll: the screen is the whole board)
                for name, size in (("scoreboard-1280x800", TV_SMALL), ("scoreboard", TV_LARGE)):
                    page = browser.new_page(viewport=size)
                    page.goto(f"{base}/?token={token}")
                    page.wait_for_selector("#qr:not(.hidden)")
                    page.wait_for_selector("#chart svg")
                    page.wait_for_timeout(300)  # the chart redrawn to its room
                    page.screenshot(path=str(out / f"{name}.png"))
                    page.close()
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                entry_shot(page, f"{base}/enter?token={token}", out / "entry.png", full=True)
                page = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True)
                entry_shot(page, f"{base}/enter?token={token}", out / "entry-phone.png")
                bus.publish(Pick(seq=18, colour="green", t=0.0))
                page = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True)
                page.goto(f"{base}/")
                page.wait_for_selector("#swatch[data-seq='18']")
                page.screenshot(path=str(out / "scoreboard-phone-readonly.png"))
                page.close()
                keys = app.state.digital.new_game(
                    ["Ann", "Bo", "Cy"], humans=(0,), seed=17, pace=0, confirm=True
                )
                for name, size, phone in (("play", TV_SMALL, False), ("play-phone", PHONE, True)):
                    page = browser.new_page(
                        viewport=size, device_scale_factor=2 if phone else 1, is_mobile=phone
                    )
                    page.goto(f"{base}/play?key={keys[0]}&token={token}")
                    page.wait_for_selector("#hand .card:not([disabled])")  # Ann's move
                    page.screenshot(path=str(out / f"{name}.png"))
                    page.close()
                elite_shot(browser, app, base, out)
                browser.close()
        finally:
            server.stop()
            journal.close()
    print("wrote", ", ".join(sorted(x.name for x in out.glob("*.png"))))


def entry_shot(page, url: str, path: Path, full: bool = False) -> None:
    """The entry page with a hand half entered: Cy went out, Ann's cards tapped, then Bea's."""
    page.goto(url)
    page.wait_for_selector("[data-declare]")
    page.click("#winners button[data-seat='2']")
    page.click(".seat[data-seat='0'] .who")
    for code in ("R7", "BS", "W"):
        colour = {"R": "red", "B": "blue", "W": "wild"}[code[0]]
        if page.is_visible("#keytabs"):  # a phone: the keyboard one colour at a time
            page.click(f"#keytabs [data-colour='{colour}']")
        page.click(f"[data-code='{code}']")
    page.fill(".seat[data-seat='3'] input", "25")
    page.click(".seat[data-seat='1'] .who")
    page.screenshot(path=str(path), full_page=full)
    page.close()  # its event stream too: the display takes 16 connections from one address


def elite_shot(browser, app, base: str, out: Path) -> None:
    """docs/img/play-elite.png: a person's UNO Elite game on a phone, choosing an activation."""
    session = app.state.digital
    keys = session.new_game(
        ["Ann", "Bo", "Cy"], [0], "greedy", ruleset="elite", seed=5, pace=0, confirm=True
    )
    game = session.link.game
    while not any(m["words"].startswith("activate ") for m in game.observation(0)["legal"]):
        session.act(0, keys[0], game.hints.act(game))
    page = browser.new_page(
        viewport={"width": 360, "height": 1100}, device_scale_factor=2, is_mobile=True
    )
    page.goto(f"{base}/play?key={keys[0]}")
    page.wait_for_selector("#actions button .hint")
    page.screenshot(path=str(out / "play-elite.png"))


if __name__ == "__main__":
    main()
