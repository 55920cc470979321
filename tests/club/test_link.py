"""The link: strict about what a person can fix, patient about a broker that is away."""

from __future__ import annotations

import pytest

from club.link import Broker, Link, LinkError
from tests.helpers.broker import Mosquitto, free_port, require_mosquitto, wait_until

pytestmark = pytest.mark.broker


def test_an_unknown_host_is_one_line_at_start():
    link = Link(Broker.from_url("mqtt://no-such-broker.invalid:1883"), "t-unknown")
    with pytest.raises(LinkError, match=r"^cannot find the MQTT broker mqtt://no-such-broker"):
        link.start(wait=1)


def test_a_password_file_that_is_missing_is_one_line():
    with pytest.raises(LinkError, match=r"^cannot read the MQTT password file /nonexistent"):
        Broker.from_url("mqtt://127.0.0.1", password_file="/nonexistent/pw")


def test_the_password_is_never_in_repr(monkeypatch):
    monkeypatch.setenv("TEST_MQTT_PW", "hunter2")
    broker = Broker.from_url("mqtt://127.0.0.1", username="u", password_env="TEST_MQTT_PW")
    assert broker.password == "hunter2" and "hunter2" not in repr(broker)


def test_refused_credentials_are_one_line_at_start(tmp_path, listen):
    require_mosquitto()
    guarded = Mosquitto(tmp_path / "guarded", users={"tray": "right"}).start()
    try:
        (tmp_path / "pw").write_text("wrong\n")
        broker = Broker.from_url(guarded.url, username="tray", password_file=str(tmp_path / "pw"))
        with pytest.raises(LinkError, match=r"^the MQTT broker .* refused us: Not authorized"):
            Link(broker, "t-refused").start()
        (tmp_path / "pw").write_text("right\n")
        broker = Broker.from_url(guarded.url, username="tray", password_file=str(tmp_path / "pw"))
        link = Link(broker, "t-accepted").start()
        assert link.connected
        link.stop()
    finally:
        guarded.stop()


def test_while_the_broker_is_down_the_newest_messages_wait_and_are_delivered(tmp_path, listen):
    require_mosquitto()
    later = Mosquitto(tmp_path / "later")  # its port is chosen, nothing listens there yet
    link = Link(Broker.from_url(later.url), "t-queue", queue_size=3, backoff=(0.05, 0.2))
    link.start(wait=0.2)  # a broker that is down is not an error
    try:
        assert not link.connected
        for n in range(5):
            link.publish("q/n", str(n), retain=n == 4)
        assert (link.queued, link.dropped) == (3, 2)  # the two oldest went
        later.start()
        wait_until(lambda: link.connected and link.queued == 0, what="the queue delivered")
        retained = listen(later.port, "q/n")  # the last one was retained: it is there
        retained.wait_for(lambda ls: ls.messages, what="the retained message")
        assert retained.messages[0].payload == b"4"
    finally:
        link.stop()
        later.stop()


def test_nothing_listening_at_all_still_starts():
    link = Link(Broker.from_url(f"mqtt://127.0.0.1:{free_port()}"), "t-nobody", backoff=(0.05, 0.1))
    link.start(wait=0.1)
    link.publish("x", "y")
    assert link.queued == 1
    link.stop()


def test_mqtts_with_our_own_ca_file(tmp_path):
    require_mosquitto()
    secure = Mosquitto(tmp_path / "tls", tls=True).start()
    try:
        assert secure.url.startswith("mqtts://")
        link = Link(Broker.from_url(secure.url, ca_file=str(secure.ca_file)), "t-tls").start()
        assert link.connected
        link.stop()
        # Without our CA the broker's certificate is not trusted: never connected.
        untrusted = Link(Broker.from_url(secure.url), "t-untrusted", backoff=(0.05, 0.1))
        untrusted.start(wait=0.5)
        assert not untrusted.connected
        untrusted.stop()
    finally:
        secure.stop()
