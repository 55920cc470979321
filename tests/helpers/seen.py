"""Is a refusal seen where the person is looking? In real Chromium: the sentence is shown (not
hidden, not in a closed section, not scrolled out of the viewport) and close to what caused it
(the button pressed, the field at fault), so a person on a 360 x 740 phone reads it without
scrolling or searching. One check for every page's browser tests."""

from __future__ import annotations

from typing import Any

PHONE = {"width": 360, "height": 740}
"""The phone every refusal is checked on."""
NEAR_PX = 240
"""How far (vertically, in CSS px) a sentence may be from what caused it: a third of the phone's
screen, so both are in one glance."""


def seen_beside(page: Any, sentence: Any, cause: Any, near_px: int = NEAR_PX) -> str:
    """Assert that the locator `sentence` is visible inside `page`'s viewport and within
    `near_px` of the locator `cause`; returns the sentence's text. Waits for the sentence to
    appear (a refusal comes back from the server)."""
    sentence.wait_for(state="visible")
    text = sentence.inner_text().strip()
    assert text, "the refusal is visible but says nothing"
    box, at = sentence.bounding_box(), cause.bounding_box()
    view = page.viewport_size
    assert box is not None and at is not None, "the sentence or its cause has no box"
    assert box["y"] >= 0 and box["y"] + min(box["height"], 40) <= view["height"], (
        f"the sentence {text!r} is outside the viewport (top {box['y']:.0f} px of {view['height']})"
    )
    assert box["x"] >= 0 and box["x"] + box["width"] <= view["width"] + 1, (
        f"the sentence {text!r} runs off the side ({box['x']:.0f} + {box['width']:.0f} px)"
    )
    gap = max(at["y"] - (box["y"] + box["height"]), box["y"] - (at["y"] + at["height"]), 0)
    assert gap <= near_px, f"the sentence {text!r} is {gap:.0f} px from what caused it"
    return str(text)
