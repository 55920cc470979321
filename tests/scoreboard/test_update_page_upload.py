"""Issue 48, item 4, through the host's page: the page keeps any tar the family sends (it checks
only that it is one), so the 10 KB file with a 20 GB sparse member reaches the update, which
reads it through its descriptor and refuses it, naming it, with nothing unpacked."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings

from cli.commands.update import _uploaded
from tests.helpers import examples
from tests.scoreboard.test_update_page import HOST, OPENED, folders, serve  # noqa: F401 (a fixture)
from tests.update.test_unpack_fuzz import HOSTILE, hostile
from tests.update.update_files import bytes_under, make_maker, sparse_update_file
from updater import requests
from updater.bundle import BundleError, unpack


def test_an_uploaded_sparse_file_is_kept_then_refused_unpacking_nothing(
    folders,  # noqa: F811
    tmp_path,
    monkeypatch,
):
    maker = make_maker(tmp_path / "keys")
    monkeypatch.setenv("TINKER_TRAY_ALLOWED_SIGNERS", str(maker.signers))
    hostile = sparse_update_file(maker, tmp_path / "hostile.update")
    client, updates = serve(folders, root=True)
    with client:
        res = client.post("/api/update/file", headers=HOST, content=hostile.read_bytes())
    assert res.status_code == 202, res.text
    into = tmp_path / "incoming"
    into.mkdir()
    with (
        _uploaded(requests.open_upload(updates.state)) as file,
        pytest.raises(BundleError) as caught,
    ):
        unpack(file, into, "the uploaded update file")
    assert str(caught.value) == (
        "the uploaded update file is not an update file (its release.bundle is a sparse file)"
    )
    assert sorted(Path(into).rglob("*")) == [] and bytes_under(into) == 0


@settings(
    max_examples=examples(30),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(HOSTILE)
def test_every_hostile_upload_is_refused_by_the_route_or_by_the_unpack(signing, case):
    """The route and the update it asks for, as a fuzzer meets them: the page answers 202 or one
    sentence (never a 500), and what it kept unpacks to the signed parts or is one sentence."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        for name in ("state", "home"):
            (folder / name).mkdir()
        file = hostile(signing, folder, *case)
        client, updates = serve(folder, root=True)
        with client:
            res = client.post("/api/update/file", headers=HOST, content=file.read_bytes())
        try:
            if res.status_code != 202:
                event(f"route {res.status_code}")
                assert 400 <= res.status_code < 500, res.text
                assert res.json()["error"].strip(), res.text
                return
            into = folder / "incoming"
            into.mkdir()
            with _uploaded(requests.open_upload(updates.state)) as kept:
                try:
                    unpack(kept, into, "the uploaded update file")
                except BundleError as exc:
                    event("unpack refused")
                    assert "\n" not in str(exc) and bytes_under(into) == 0
                else:
                    event("unpacked")
        finally:
            while OPENED:
                OPENED.pop().close()


@pytest.fixture(scope="module")
def signing(tmp_path_factory):
    made = make_maker(tmp_path_factory.mktemp("keys"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TINKER_TRAY_ALLOWED_SIGNERS", str(made.signers))
        made.good = made.members()  # type: ignore[attr-defined]
        yield made
