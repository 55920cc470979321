"""The release workflow (.github/workflows/release.yml): actionlint passes on it (and fails on a
broken copy of it, so the check can fail); it uses no action; and its own `run:` text for the
fetch, verify, pack and assets steps is run here as the runner runs it (bash -eo pipefail), on a
small repository with signed tags and a tiny card made from a fake root by the build's own
card step, to a folder of release files whose SHA256SUMS and Imager list match the files. A tag
whose signature does not verify stops the verify step with its sentence.

Not run here: the workflow's real build (`sudo ./tinker image build`: tens of minutes, as root,
300 MB from Debian and PyPI), its boot check (`./tinker image check`: qemu boots), pack's wheels
from PyPI (here a folder of wheels stands in) and the publish step (GitHub's API): the tag on
GitHub does those."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
import yaml

from image import check
from updater import bundle

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"
STEPS = ROOT / "image" / "release-steps.sh"
TAG = "v1.0.0"
NAME = f"tinker-tray-{TAG}-pi-arm64"
ENGINE_SOURCE = b'"""The small repository\'s engine."""\n'
REQUIRED = {"name", "description", "icon", "url", "extract_size", "extract_sha256",
            "image_download_size", "release_date"}  # fmt: skip
"""What rpi-imager's doc/json-schema/os-list-schema.json requires of an OS entry."""
IDENTITY = ["-c", "user.name=Maintainer", "-c", "user.email=maintainer@example.org"]
CARD_TOOLS = {"sfdisk": "fdisk", "mkfs.vfat": "dosfstools", "mcopy": "mtools",
              "mkfs.ext4": "e2fsprogs", "xz": "xz-utils"}  # fmt: skip
PATH = os.environ.get("PATH", "") + ":/usr/sbin:/sbin"


def _need(tools: dict[str, str]) -> None:
    missing = sorted({pkg for tool, pkg in tools.items() if not shutil.which(tool, path=PATH)})
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {missing} are missing: .ci/run installs them")
        pytest.skip(f"no {missing} here (apt-get install {' '.join(missing)})")


def _git(where: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *IDENTITY, "-C", str(where), *args], capture_output=True, text=True
    )
    assert done.returncode == 0, f"git {args}: {done.stderr}"
    return done.stdout.strip()


def _keygen(path: Path) -> Path:
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", path.name, "-f", str(path)],
        check=True,
    )
    return path


def _signed_tag(repo: Path, tag: str, key: Path) -> None:
    _git(repo, "-c", "gpg.format=ssh", "-c", f"user.signingkey={key}",
         "tag", "-s", tag, "-m", f"tinker-tray {tag}")  # fmt: skip


def _workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text())


def _run_text(name: str) -> str:
    """The `run:` text of the step whose name starts with `name`."""
    (step,) = [s for s in _workflow()["jobs"]["release"]["steps"] if s["name"].startswith(name)]
    return step["run"]


def _run_step(name: str, env: dict[str, str], cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """A step as the runner runs it: `bash --noprofile --norc -eo pipefail {0}`."""
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", _run_text(name)],
        cwd=cwd, env={**os.environ, "PATH": PATH, **env}, capture_output=True, text=True,
    )  # fmt: skip


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The maintainer's key (signs tags), the workflow's update key (signs update files only:
    its allowed-signers line names the update's namespace), a stranger's; the signers file."""
    where = tmp_path_factory.mktemp("keys")
    made = {name: _keygen(where / name) for name in ("maintainer", "update", "stranger")}
    signers = where / "allowed_signers"
    signers.write_text(
        f"maintainer@example.org {(where / 'maintainer.pub').read_text()}"
        f'release-ci@example.org namespaces="{bundle.NAMESPACE}" '
        f"{(where / 'update.pub').read_text()}"
    )
    return {**made, "signers": signers}


@pytest.fixture
def repo(tmp_path: Path, keys: dict[str, Path]) -> Path:
    """The project's repository: allowed_signers on main, a release tag the maintainer signed."""
    repo = tmp_path / "origin.git"
    _git(tmp_path, "init", "-q", "-b", "main", str(repo))
    shutil.copy(keys["signers"], repo / "allowed_signers")
    (repo / "NEWS").write_text("release 1.0.0\n")
    (repo / "engine").mkdir()
    (repo / "engine" / "errors.py").write_bytes(ENGINE_SOURCE)
    _git(repo, "add", "allowed_signers", "NEWS", "engine/errors.py")
    _git(repo, "commit", "-qm", "Release 1.0.0")
    _signed_tag(repo, TAG, keys["maintainer"])
    return repo


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What the build leaves in its --out folder, from a small fake root, by the build's own
    steps (build.sh 5): the card (steps/card.sh) and `xz -k`."""
    _need(CARD_TOOLS)
    where = tmp_path_factory.mktemp("build")
    root = where / "root"
    (root / "boot" / "firmware" / "overlays").mkdir(parents=True)
    (root / "boot" / "firmware" / "vmlinuz").write_bytes(os.urandom(64 * 1024))
    (root / "var" / "lib" / "tinker-tray").mkdir(parents=True)
    (root / "etc").mkdir()
    (root / "etc" / "hostname").write_text("tinker-tray\n")
    out = where / "image"
    out.mkdir()
    env = {**os.environ, "PATH": PATH}
    image = out / f"{NAME}.img"
    commands: list[list[str | Path]] = [
        [ROOT / "image" / "steps" / "card.sh", root, ROOT / "image" / "bootfs", image],
        ["xz", "-T0", "-1", "-k", "-f", image],  # (the build's -6, faster)
    ]
    for command in commands:
        done = subprocess.run(command, capture_output=True, text=True, env=env)
        assert done.returncode == 0, done.stderr
    # The compiled engine build.sh leaves beside the image (of the small repository's engine).
    engine = out / f"{NAME}.engine" / "engine"
    engine.mkdir(parents=True)
    digest = hashlib.sha256(ENGINE_SOURCE).hexdigest()
    (engine / "SOURCES").write_text(f"errors.py {digest} 1 1\n")
    (engine / "errors.cpython-313-aarch64-linux-gnu.so").write_bytes(b"\x7fELF stand-in")
    return out


def _wheels(where: Path) -> Path:
    wheels = where / "wheels"
    wheels.mkdir()
    (wheels / "pixie_dust-1.0-py3-none-any.whl").write_bytes(os.urandom(2048))
    return wheels


def _member(tar: tarfile.TarFile, name: str) -> bytes:
    file = tar.extractfile(name)
    assert file is not None, name
    return file.read()


def _sha(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _actionlint() -> str:
    found = shutil.which("actionlint") or shutil.which(
        "actionlint", path=str(Path(sys.executable).parent)
    )
    if not found:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but actionlint is missing: the dev extra installs it")
        pytest.skip("no actionlint here (the dev extra: pip install -e '.[dev]')")
    return found


def test_actionlint_passes_on_the_release_workflow():
    done = subprocess.run([_actionlint(), "-no-color", str(WORKFLOW)], capture_output=True,
                          text=True)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def test_actionlint_finds_a_broken_copy_of_it(tmp_path):
    """The check can fail: the runner's context where a job's env cannot see it, and an
    expression pasted into a script (the injection actionlint names)."""
    broken = tmp_path / ".github" / "workflows" / "release.yml"
    broken.parent.mkdir(parents=True)
    text = WORKFLOW.read_text().replace(
        "      OUT: build/image\n", "      OUT: ${{ runner.temp }}/image\n"
    )
    text = text.replace('verify "$TAG"', 'verify "${{ github.event.head_commit.message }}"')
    broken.write_text(text)
    done = subprocess.run([_actionlint(), "-no-color", str(broken)], capture_output=True,
                          text=True, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert 'context "runner" is not allowed here' in done.stdout
    assert "potentially untrusted" in done.stdout


def test_the_workflow_runs_on_v_tags_uses_no_action_and_the_recipes_own_commands():
    flow = _workflow()
    trigger = flow.get("on", flow.get(True))  # (YAML 1.1 reads a bare `on` as true)
    assert trigger == {"push": {"tags": ["v*"]}}
    assert flow["permissions"] == {"contents": "write"}
    steps = flow["jobs"]["release"]["steps"]
    assert all("uses" not in step for step in steps), [s.get("uses") for s in steps]
    assert "uses:" not in WORKFLOW.read_text()
    runs = [step["run"] for step in steps]
    order = [
        "fetch -q --no-tags origin", "release-steps.sh verify", "apt-get install",
        "sudo ./tinker image build --xz --trust", "./tinker image check",
        "release-steps.sh pack", "release-steps.sh assets", "release-steps.sh publish",
    ]  # fmt: skip
    where = [next(i for i, run in enumerate(runs) if what in run) for what in order]
    assert where == sorted(where), dict(zip(order, where, strict=True))
    assert "--cuts 0" in _run_text("Check the image")
    # Every tool the build's own host check and the boot check name is installed by apt-get.
    host = (ROOT / "image" / "steps" / "host-check.sh").read_text()
    pairs = host.split("for pair in", 1)[1].split(";")[0]
    packages = set(re.findall(r"[\w.+-]+:([\w.+-]+)", pairs))
    packages |= set(check.TOOLS.values())  # and the boot check's (image/check.py)
    installed = set(_run_text("Install").split())
    assert packages <= installed, packages - installed
    # No secret or expression is pasted into a script: they reach it as environment variables.
    assert all("${{" not in run for run in runs)


def test_the_pack_and_assets_steps_make_the_files_imager_and_sha256sum_check(
    tmp_path, repo, keys, build
):
    runner = tmp_path / "runner"
    runner.mkdir()
    env = {
        "TAG": TAG, "OUT": str(build), "RUNNER_TEMP": str(runner),
        "GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "example/tinker-tray",
        "TINKER_UPDATE_KEY": keys["update"].read_text().strip(),
        "TINKER_TRAY_ALLOWED_SIGNERS": str(keys["signers"]),  # (the step's, as the runner's)
        "RELEASE_REPO": str(repo), "RELEASE_WHEELS": str(_wheels(tmp_path)),
        "TINKER_TRAY": f"{sys.executable} -m cli", "PYTHONPATH": str(ROOT),
    }  # fmt: skip
    packed = _run_step("Pack the update file", env)
    assert packed.returncode == 0, packed.stdout + packed.stderr
    assert not (runner / "update_key").exists()  # the key's copy goes with the step
    made = _run_step("Write SHA256SUMS", env)
    assert made.returncode == 0, made.stdout + made.stderr
    assets = runner / "assets"
    update = f"tinker-tray-{TAG}.update"
    assert sorted(p.name for p in assets.iterdir()) == sorted(
        [f"{NAME}.img.xz", update, "tinker-tray.rpi-imager.json", "SHA256SUMS"]
    )
    image, xz = build / f"{NAME}.img", assets / f"{NAME}.img.xz"
    image_sha = _sha(image)
    # SHA256SUMS: sha256sum itself checks the downloads, and the .img once unxz'd.
    lines = (assets / "SHA256SUMS").read_text().splitlines()
    sums = {name: digest for digest, name in (line.split("  ") for line in lines)}
    assert sums == {
        f"{NAME}.img": image_sha, f"{NAME}.img.xz": _sha(xz), update: _sha(assets / update),
        "tinker-tray.rpi-imager.json": _sha(assets / "tinker-tray.rpi-imager.json"),
    }  # fmt: skip
    assert f"{NAME}.img.xz: OK" in made.stdout and f"{update}: OK" in made.stdout
    # Imager's list: the sizes and sums of the files, the release's address, the boards' tags.
    listing = json.loads((assets / "tinker-tray.rpi-imager.json").read_text())
    (entry,) = listing["os_list"]
    assert entry.keys() >= REQUIRED
    assert entry["url"] == (
        f"https://github.com/example/tinker-tray/releases/download/{TAG}/{NAME}.img.xz"
    )
    assert entry["extract_size"] == image.stat().st_size > 100 * 1024 * 1024
    assert entry["extract_sha256"] == image_sha
    assert entry["image_download_size"] == xz.stat().st_size < 10 * 1024 * 1024
    assert entry["image_download_sha256"] == _sha(xz)
    assert entry["devices"] == ["pi3-64bit", "pi4-64bit"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", entry["release_date"])
    assert entry["name"] == f"Tinker Bell tray ({TAG}-pi-arm64)"
    assert {tag for board in listing["imager"]["devices"] for tag in board["tags"]} == set(
        entry["devices"]
    )
    # The update file: its manifest is signed by the workflow's key, which a tray trusts for
    # update files (its namespace) and which names this tag and what it carries.
    with tarfile.open(assets / update) as tar:
        manifest, signature = (_member(tar, name) for name in ("MANIFEST", "MANIFEST.sig"))
        names = tar.getnames()
    assert bundle.verify_signature(manifest, signature, keys["signers"], update) == (
        "release-ci@example.org"
    )
    said = json.loads(manifest)
    assert said["tag"] == TAG and said["commit"] == _git(repo, "rev-parse", f"{TAG}^{{commit}}")
    assert names == ["MANIFEST", "MANIFEST.sig", "release.bundle",
                     "wheels/pixie_dust-1.0-py3-none-any.whl",
                     "mypyc/engine/SOURCES",
                     "mypyc/engine/errors.cpython-313-aarch64-linux-gnu.so"]  # fmt: skip


def test_the_pack_step_without_the_secret_is_one_sentence(tmp_path, repo):
    env = {"TAG": TAG, "RUNNER_TEMP": str(tmp_path), "TINKER_UPDATE_KEY": "",
           "RELEASE_REPO": str(repo), "TINKER_TRAY": "false"}  # fmt: skip
    done = _run_step("Pack the update file", env)
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"tinker release: there is no update-signing key at {tmp_path}/update_key (the "
        "workflow's secret TINKER_UPDATE_KEY: docs/release.md, Publishing a release): no update "
        "file was packed."
    )


def test_the_imager_list_is_read_from_the_xz_a_mib_at_a_time(tmp_path, build):
    """The 646 MiB card inside the .xz is hashed without being held: the process's peak memory
    stays under 64 MiB (its Python, the .xz's dictionary, one MiB)."""
    update = tmp_path / "tinker-tray-v1.0.0.update"
    update.write_bytes(b"update")
    code = (
        "import resource, subprocess, sys; "
        "done = subprocess.run(sys.argv[1:]); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(done.returncode)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, sys.executable, "-m", "image.release_assets",
         str(build / f"{NAME}.img.xz"), "--update", str(update), "--url-base",
         "https://example.org/r", "--out", str(tmp_path / "assets")],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) < 64 * 1024, f"peak {int(done.stdout) // 1024} MiB"


def test_a_cut_short_xz_is_one_sentence_and_no_release_files(tmp_path, build):
    short = tmp_path / f"{NAME}.img.xz"
    short.write_bytes((build / f"{NAME}.img.xz").read_bytes()[:5000])
    update = tmp_path / "tinker-tray-v1.0.0.update"
    update.write_bytes(b"update")
    done = subprocess.run(
        [sys.executable, "-m", "image.release_assets", str(short), "--update", str(update),
         "--url-base", "https://example.org/r", "--out", str(tmp_path / "assets")],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.startswith(
        f"tinker release: the release's files were not written: {NAME}.img.xz is not a whole .xz"
    )
    assert not (tmp_path / "assets").exists()


def _verify(repo: Path, runner: Path, tag: str) -> subprocess.CompletedProcess:
    env = {"TAG": tag, "RUNNER_TEMP": str(runner), "RELEASE_REPO": str(repo)}
    return _run_step("Verify the tag", env)


def test_a_tag_the_maintainer_signed_verifies(tmp_path, repo, keys):
    shutil.copy(keys["signers"], tmp_path / "allowed_signers")
    done = _verify(repo, tmp_path, TAG)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[-1] == (
        f"tinker release: {TAG} verifies against {tmp_path}/allowed_signers."
    )


@pytest.mark.parametrize(
    ("how", "sentence"),
    [
        ("stranger", "the tag v1.1.0 does not verify against {signers} (not signed, or not by a "
         "key in it): nothing was built or published."),
        # The workflow's own key signs update files only: it can never sign a release.
        ("update", "the tag v1.1.0 does not verify against {signers} (not signed, or not by a "
         "key in it): nothing was built or published."),
        ("unsigned", "the tag v1.1.0 does not verify against {signers} (not signed, or not by a "
         "key in it): nothing was built or published."),
        ("lightweight", "the tag v1.1.0 is not a signed annotated tag (git tag -s): nothing was "
         "built or published."),
        ("renamed", "the tag v1.1.0 was signed as 'v1.0.0', not as v1.1.0: nothing was built or "
         "published."),
    ],
)  # fmt: skip
def test_a_tag_that_does_not_verify_stops_the_workflow_with_its_sentence(
    tmp_path, repo, keys, how, sentence
):
    tag = "v1.1.0"
    (repo / "NEWS").write_text("release 1.1.0\n")
    _git(repo, "commit", "-qam", "Release 1.1.0")
    if how in ("stranger", "update"):
        _signed_tag(repo, tag, keys[how])
    elif how == "unsigned":
        _git(repo, "tag", "-a", tag, "-m", f"tinker-tray {tag}")
    elif how == "lightweight":
        _git(repo, "tag", tag)
    else:  # an old release's signed tag object, pushed under a newer name
        _git(repo, "update-ref", f"refs/tags/{tag}", _git(repo, "rev-parse", f"refs/tags/{TAG}"))
    signers = tmp_path / "allowed_signers"
    shutil.copy(keys["signers"], signers)
    done = _verify(repo, tmp_path, tag)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == "tinker release: " + sentence.format(signers=signers)


def test_a_release_tag_name_and_the_signers_file_are_checked_first(tmp_path, repo):
    done = _verify(repo, tmp_path, "nightly")
    assert done.stderr.strip() == (
        "tinker release: nightly is not a release tag (vX.Y or vX.Y.Z): nothing was built or "
        "published."
    )
    (tmp_path / "allowed_signers").write_text("maintainer@example.org ssh-ed25519 AAAA-not-a-key\n")
    done = _verify(repo, tmp_path, TAG)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        f"tinker release: {tmp_path}/allowed_signers is not an allowed-signers file (above): "
        "nothing was built or published."
    )


def _fetch(repo: Path, tmp_path: Path) -> tuple[subprocess.CompletedProcess, Path, Path]:
    """The workflow's first step, in an empty folder, against `repo` as GitHub's remote."""
    work, runner = tmp_path / "work", tmp_path / "runner"
    work.mkdir()
    runner.mkdir()
    env = {"TAG": TAG, "RUNNER_TEMP": str(runner), "TOKEN": "not-a-token",
           "DEFAULT_BRANCH": "main", "GITHUB_SERVER_URL": f"file://{repo.parent}",
           "GITHUB_REPOSITORY": repo.name.removesuffix(".git")}  # fmt: skip
    return _run_step("Fetch the tag", env, cwd=work), work, runner


def test_the_fetch_keeps_the_signed_tag_and_takes_the_signers_from_the_default_branch(
    tmp_path, repo, keys
):
    """A tag whose own tree adds a stranger to allowed_signers is judged by main's file."""
    (repo / "allowed_signers").write_text(
        keys["signers"].read_text()
        + f"me@example.org {keys['stranger'].with_suffix('.pub').read_text()}"
    )
    _git(repo, "commit", "-qam", "Trust me")
    _git(repo, "tag", "-d", TAG)
    _signed_tag(repo, TAG, keys["stranger"])
    _git(repo, "reset", "-q", "--hard", "HEAD~1")  # main: the maintainers' file
    done, work, runner = _fetch(repo, tmp_path)
    assert done.returncode == 0, done.stderr
    assert _git(work, "rev-parse", "HEAD") == _git(repo, "rev-parse", f"{TAG}^{{commit}}")
    assert _git(work, "cat-file", "-t", f"refs/tags/{TAG}") == "tag"  # annotated, as pushed
    assert (runner / "allowed_signers").read_text() == keys["signers"].read_text()
    verify = _verify(work, runner, TAG)
    assert verify.returncode == 1 and "does not verify against" in verify.stderr


def test_the_fetch_without_an_allowed_signers_file_on_main_is_one_sentence(tmp_path, repo):
    _git(repo, "rm", "-q", "allowed_signers")
    _git(repo, "commit", "-qm", "No signers")
    done, _, _ = _fetch(repo, tmp_path)
    assert done.returncode == 1
    assert done.stderr.strip() == (
        "tinker release: there is no allowed_signers file on main: add the maintainers' keys "
        "(docs/release.md, Publishing a release); nothing was built or published."
    )


@pytest.mark.parametrize("exists", [False, True])
def test_the_publish_step_makes_a_draft_uploads_then_makes_it_public(tmp_path, exists):
    """The step's own commands, with a stand-in `gh` that writes down what it was asked: a new
    release is a draft until every file is on it; a re-run uploads over the files."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    log = tmp_path / "gh.log"
    (bin_ / "gh").write_text(
        f'#!/bin/sh\necho "$*" >>{log}\n'
        f'[ "$1 $2" != "release view" ] || exit {0 if exists else 1}\n'
    )
    (bin_ / "gh").chmod(0o755)
    assets = tmp_path / "assets"
    assets.mkdir()
    for name in ("SHA256SUMS", f"{NAME}.img.xz"):
        (assets / name).write_text(name)
    env = {"TAG": TAG, "RUNNER_TEMP": str(tmp_path), "GH_TOKEN": "t", "GH_REPO": "example/r",
           "PATH": f"{bin_}:{PATH}"}  # fmt: skip
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", _run_text("Publish")],
        cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    calls = log.read_text().splitlines()
    create = [
        f"release create {TAG} --verify-tag --draft --title tinker-tray {TAG} --notes The SD-card"
        f" image, its SHA256SUMS, Raspberry Pi Imager's list and the update file of {TAG}"
        " (docs/release.md)."
    ]
    assert calls == [
        f"release view {TAG}",
        *([] if exists else create),
        f"release upload {TAG} {assets}/SHA256SUMS {assets}/{NAME}.img.xz --clobber",
        f"release edit {TAG} --draft=false",
    ]
    assert done.stderr.strip() == f"tinker release: {TAG} published: SHA256SUMS {NAME}.img.xz."
