"""A table on a real mosquitto: availability with a last will, presses, settled picks, scores,
the winner, Home Assistant's discovery and re-announcement, the press command, renames."""

from __future__ import annotations

import json
import time

import pytest

from club import discovery, topics
from club.link import Broker, Link
from club.table import start_table
from tests.club.conftest import QUICK_SHOW
from tests.helpers.broker import wait_until
from tests.helpers.picks import ShowingTray
from tray.config import MqttSettings
from tray.events import ButtonPressed, Pick

pytestmark = pytest.mark.broker


def publish_table(
    broker,
    table,
    name="kitchen",
    *,
    press=None,
    allow_press=False,
    state_dir=None,
    prefix="homeassistant",
):
    settings = MqttSettings(
        url=broker.url, table=name, allow_press=allow_press, discovery_prefix=prefix
    )
    link = Link(
        Broker.from_url(broker.url),
        f"test-{name}-{time.monotonic_ns()}",
        will=(topics.topic(name, topics.AVAILABILITY), topics.OFFLINE),
        backoff=(0.05, 0.2),
    ).start()
    return start_table(settings, link, table.session, table.bus, press=press, state_dir=state_dir)


def pick(table, seq, colour="red"):
    table.bus.publish(ButtonPressed(t=time.time(), source="test"))
    # as the tray service posts it: stamped with its show, then PickSettled as it lands
    ShowingTray(table.bus, QUICK_SHOW).publish(
        Pick(seq=seq, colour=colour, t=time.time(), source="test")
    )


def test_a_pick_goes_out_only_once_its_lights_have_settled(broker, make_table, listen):
    table = make_table("settle")
    listener = listen(broker.port, "tinker-tray/settle/#")
    linked = publish_table(broker, table, "settle")
    try:
        pick(table, 1, "green")
        topic = topics.topic("settle", topics.PICK)
        listener.wait_for(lambda ls: ls.on(topic), what="the pick")
        press = listener.on(topics.topic("settle", topics.PRESS))[0]
        assert json.loads(press.payload)["event_type"] == "press"
        # The press went out at once, the pick only after the show: the session had revealed
        # it (never the raw Pick at the press).
        assert listener.messages.index(press) < listener.messages.index(listener.on(topic)[0])
        payload = json.loads(listener.on(topic)[0].payload)
        assert payload["seq"] == 1 and payload["colour"] == "green"
        assert "green" in payload["says"]
        assert not table.session.view()["pick"]["pending"]
    finally:
        linked.close()
    listener.wait_for(
        lambda ls: (
            ls.on(topics.topic("settle", topics.AVAILABILITY))
            and ls.on(topics.topic("settle", topics.AVAILABILITY))[-1].payload == b"offline"
        ),
        what="offline on a clean stop",
    )


def test_scores_leader_and_winner_are_retained(broker, make_table, listen):
    table = make_table("scores")
    linked = publish_table(broker, table, "scores")
    try:
        table.session.new_game(["Ann", "Bo"], options={"target": 50})
        table.session.submit({"kind": "hand", "winner": 0, "held": [None, ["W"]]})
        late = listen(broker.port, "tinker-tray/scores/#")  # joins after: gets retained states
        late.wait_for(
            lambda ls: [m for m in ls.on("tinker-tray/scores/winner") if b"Ann" in m.payload],
            what="the winner",
        )
        scores = json.loads(late.on("tinker-tray/scores/scores")[-1].payload)
        assert scores["totals"] == {"Ann": 50, "Bo": 0} and scores["leader"] == "Ann"
        assert late.on("tinker-tray/scores/leader")[-1].payload == b"Ann"
        fresh = listen(broker.port, "tinker-tray/scores/winner")  # all of it kept by the broker
        fresh.wait_for(lambda ls: ls.messages, what="the retained winner")
        assert fresh.messages[0].retain
        winner = json.loads(late.on("tinker-tray/scores/winner")[-1].payload)
        assert winner["names"] == ["Ann"] and winner["totals"] == {"Ann": 50, "Bo": 0}
        assert late.on("tinker-tray/scores/availability")[-1].payload == b"online"
    finally:
        linked.close()


def test_discovery_is_retained_and_announced_again_when_home_assistant_comes_online(
    broker, make_table, listen
):
    table = make_table("ha")
    linked = publish_table(broker, table, "ha", prefix="ha-test")
    try:
        table.session.new_game(["Ann", "Bo"])
        configs = listen(broker.port, "ha-test/+/tinker_tray_ha/+/config")
        expected = {
            "ha-test/event/tinker_tray_ha/press/config",
            "ha-test/sensor/tinker_tray_ha/last_pick/config",
            "ha-test/sensor/tinker_tray_ha/leader/config",
            "ha-test/sensor/tinker_tray_ha/score_ann/config",
            "ha-test/sensor/tinker_tray_ha/score_bo/config",
        }
        configs.wait_for(
            lambda ls: expected <= {m.topic for m in ls.messages}, what="the discovery configs"
        )
        retained = listen(broker.port, "ha-test/+/tinker_tray_ha/+/config")
        retained.wait_for(
            lambda ls: expected <= {m.topic for m in ls.messages if m.retain},
            what="the retained configs",
        )
        before = len(configs.messages)
        configs.publish("ha-test/status", "online")
        configs.wait_for(
            lambda ls: len(ls.messages) >= before + len(expected),
            what="the configs announced again",
        )
    finally:
        linked.close()


def test_a_renamed_table_clears_its_old_configs(broker, make_table, listen, tmp_path):
    table = make_table("rename")
    old = publish_table(broker, table, "old-name", state_dir=tmp_path, prefix="ha-rename")
    old.close()
    new = publish_table(broker, table, "new-name", state_dir=tmp_path, prefix="ha-rename")
    try:
        watcher = listen(broker.port, "ha-rename/#")
        watcher.wait_for(lambda ls: len(ls.messages) >= 3, what="the new configs")
        # The old configs were cleared (empty retained) before the new ones went out, on the
        # same connection: a fresh subscriber now gets only the new name's configs.
        fresh = listen(broker.port, "ha-rename/#")
        fresh.wait_for(lambda ls: len(ls.messages) >= 3, what="the retained configs")
        assert {m.topic.split("/")[2] for m in fresh.messages} == {"tinker_tray_new-name"}
    finally:
        new.close()


def test_the_press_command_is_refused_unless_allowed(broker, make_table, listen):
    presses: list[int] = []
    table = make_table("cmd")
    refused = publish_table(broker, table, "cmd", press=lambda: presses.append(1))
    client = listen(broker.port, "nothing/here")
    try:
        for _ in range(50):  # until the publisher's subscription has reached the broker
            client.publish("tinker-tray/cmd/press/set", "PRESS")
            if refused.publisher.refused_presses:
                break
            time.sleep(0.1)
        wait_until(lambda: refused.publisher.refused_presses, what="the refusal")
        assert presses == []
    finally:
        refused.close()
    allowed = publish_table(broker, table, "cmd", press=lambda: presses.append(1), allow_press=True)
    try:
        for _ in range(50):  # until the publisher's subscription has reached the broker
            client.publish("tinker-tray/cmd/press/set", "PRESS")
            if presses:
                break
            time.sleep(0.1)
        wait_until(lambda: presses, what="the press")
    finally:
        allowed.close()


def test_a_flood_of_home_assistant_online_messages_announces_once(broker, make_table, listen):
    table = make_table("flood")
    linked = publish_table(broker, table, "flood", prefix="ha-flood")
    configs = listen(broker.port, "ha-flood/+/tinker_tray_flood/+/config")

    def settled(n: int) -> int:
        """How many configs arrived before marker n, sent on the table's own link after them."""
        marker = f"ha-flood/sensor/tinker_tray_flood/marker{n}/config"
        linked.link.publish(marker, "{}")
        configs.wait_for(lambda ls: ls.on(marker), what=f"marker {n}")
        return len([m for m in configs.messages if "/marker" not in m.topic])

    try:
        table.session.new_game(["Ann", "Bo"])
        configs.wait_for(lambda ls: ls.on("ha-flood/sensor/tinker_tray_flood/score_bo/config"))
        before = settled(1)
        for _ in range(200):
            configs.publish("ha-flood/status", "online")
        wait_until(lambda: linked.publisher.skipped_announcements == 199, what="every online")
        one = len(discovery.configs("flood", "ha-flood", ["Ann", "Bo"], can_press=False))
        assert settled(2) == before + one  # announced once more, not 200 times
    finally:
        linked.close()


def test_the_winner_clears_with_a_new_game_and_every_state_is_defined_from_the_start(
    broker, make_table, listen
):
    table = make_table("evening")
    linked = publish_table(broker, table, "evening")
    try:
        table.session.new_game(["Ann", "Bo"], options={"target": 50})
        started = listen(broker.port, "tinker-tray/evening/+")
        started.wait_for(lambda ls: ls.on("tinker-tray/evening/winner"), what="the states")
        assert started.on("tinker-tray/evening/leader")[-1].payload == b"nobody yet"
        assert json.loads(started.on("tinker-tray/evening/winner")[-1].payload)["names"] == []
        table.session.submit({"kind": "hand", "winner": 0, "held": [None, ["W"]]})
        table.session.new_game(["Ann", "Bo"], options={"target": 50})  # game 2
        late = listen(broker.port, "tinker-tray/evening/winner")  # what a restarted HA reads
        late.wait_for(
            lambda ls: [m for m in ls.messages if json.loads(m.payload)["game"] == 2],
            what="game 2's winner state",
        )
        assert json.loads(late.messages[-1].payload) == {
            "game": 2,
            "names": [],
            "text": "",
            "totals": {},
        }
    finally:
        linked.close()
