"""Issue 48, item 4, through the host's page: the page keeps any tar the family sends (it checks
only that it is one), so the 10 KB file with a 20 GB sparse member reaches the update, which
reads it through its descriptor and refuses it, naming it, with nothing unpacked."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.commands.update import _uploaded
from tests.scoreboard.test_update_page import HOST, folders, serve  # noqa: F401 (a fixture)
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
