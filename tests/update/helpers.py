"""A tray checkout, its origin and a maintainer's keys, for the update's tests.

The origin is a clone of this repository; the tray is a clone of the origin (the checkout the
tray was installed from). Releases are made on the origin as a maintainer makes them: a commit,
a tag signed with an SSH key (`git tag -s`, gpg.format=ssh). A release's own set-up (its `tinker
--version`) is replaced, in the release's commit, by a stand-in that makes a venv running that
release's tree with this test run's Python: a real set-up would download the world. Everything
else is real: git's signatures, the slots, the trial start of the release's real service.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
IDENTITY = ("-c", "user.name=Maintainer", "-c", "user.email=maintainer@example.org")

STAND_IN_SETUP = """#!/bin/sh
# The release's set-up, stood in for by the tests: a venv whose tinker-tray runs this tree.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -x "$here/.venv/bin/tinker-tray" ]; then
  {extra}
  mkdir -p "$here/.venv/bin"
  cat >"$here/.venv/bin/tinker-tray" <<'SCRIPT'
#!/bin/sh
here=$(cd "$(dirname "$0")/../.." && pwd)
{service}PYTHONPATH="$here" exec {python} -P -m cli.main "$@"
SCRIPT
  chmod +x "$here/.venv/bin/tinker-tray"
  touch "$here/.venv/.installed-runtime"
fi
[ $# -gt 0 ] || exit 2
cmd=$1; shift
exec "$here/.venv/bin/tinker-tray" "$cmd" "$@"
"""


SELF_LOCATED = 'here=$(cd "$(dirname "$0")/../.." && pwd)\n' + (
    'PYTHONPATH="$here" exec {python} -P -m cli.main "$@"'
)
"""The venv's tinker-tray runs the tree its venv is in (as an editable install's .pth makes a
real one do, and the slot's copy of it once the update rewrote that: updater/venvs.py)."""
REQUIREMENT = ('"pyserial>=3.5,<4",', '"pyserial>=3.5,<4.1",')
"""A release that asks for other packages than the running one: its set-up runs."""


def stand_in(extra: str = ":", service: str = "") -> str:
    return STAND_IN_SETUP.format(extra=extra, service=service, python=sys.executable)


def git(where: Path, *args: str, check: bool = True) -> str:
    done = subprocess.run(
        ["git", *IDENTITY, "-c", "safe.directory=*", "-C", str(where), *args],
        capture_output=True,
        text=True,
    )
    if check and done.returncode != 0:
        raise AssertionError(f"git {args}: {done.stderr}")
    return done.stdout.strip()


def keygen(path: Path) -> Path:
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", path.name, "-f", str(path)],
        check=True,
    )
    return path


@dataclass
class Bench:
    """An origin, a tray cloned from it, the maintainer's key and a stranger's."""

    origin: Path
    tray: Path
    key: Path
    stranger: Path
    signers: Path

    def release(
        self,
        tag: str,
        *,
        key: Path | None = None,
        signed: bool = True,
        setup: str | None = None,
        news: str = "",
        new_packages: bool | None = None,
    ) -> str:
        """A commit on the origin's main line, tagged `tag`; returns its commit. A release
        with a `setup` of its own asks for other packages too (unless `new_packages` is
        False), so that its set-up runs rather than taking the running venv."""
        (self.origin / "NEWS").write_text(news or f"release {tag}\n")
        (self.origin / "tinker").write_text(setup or stand_in())
        if new_packages if new_packages is not None else setup is not None:
            pyproject = self.origin / "pyproject.toml"
            pyproject.write_text(pyproject.read_text().replace(*REQUIREMENT))
        git(self.origin, "add", "NEWS", "tinker", "pyproject.toml")
        git(self.origin, "commit", "-qm", f"Release {tag}")
        if signed:
            git(
                self.origin,
                "-c", "gpg.format=ssh", "-c", f"user.signingkey={key or self.key}",
                "tag", "-s", tag, "-m", f"tinker-tray {tag}",
            )  # fmt: skip
        else:
            git(self.origin, "tag", "-a", tag, "-m", f"tinker-tray {tag}")
        return git(self.origin, "rev-parse", "HEAD")

    def env(self, **extra: str) -> dict[str, str]:
        return {
            **{k: v for k, v in os.environ.items() if k != "TINKER_TRAY_HOME"},
            "TINKER_TRAY_ALLOWED_SIGNERS": str(self.signers),
            "TINKER_TRAY_PURE": "1",
            "PIP_NO_INDEX": "1",
            **extra,
        }

    def update(self, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.tray / "tinker"), "update", *args],
            cwd=self.tray,
            env=self.env(**extra),
            capture_output=True,
            text=True,
            timeout=240,
        )

    def version(self) -> str:
        done = subprocess.run(
            [str(self.tray / "tinker"), "--version"],
            cwd=self.tray,
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    def slots(self) -> list[str]:
        folder = self.tray / ".releases" / "slots"
        return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []

    def serves(self, within: float = 60) -> bool:
        """`./tinker run` in the tray's checkout starts and answers its page (then stops)."""
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        journal = self.tray.parent / f"journal-{port}.sqlite3"
        service = subprocess.Popen(
            [str(self.tray / "tinker"), "run", "--host", "127.0.0.1", "--port", str(port),
             "--journal", str(journal)],
            cwd=self.tray, env=self.env(GPIOZERO_PIN_FACTORY="mock"),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + within
            while time.monotonic() < deadline and service.poll() is None:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
                        if page.status == 200:
                            return True
                except OSError:
                    time.sleep(0.3)
            return False
        finally:
            os.killpg(service.pid, 15)
            service.wait(20)


def make_bench(where: Path) -> Bench:
    origin, tray = where / "origin", where / "tray"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(origin)], check=True)
    git(origin, "checkout", "-q", "-B", "main")
    subprocess.run(["git", "clone", "--quiet", str(origin), str(tray)], check=True)
    bin_ = tray / ".venv" / "bin"
    bin_.mkdir(parents=True)
    lines = {
        "python": f'exec {sys.executable} "$@"',
        "tinker-tray": SELF_LOCATED.format(python=sys.executable),
    }
    for name, line in lines.items():
        (bin_ / name).write_text(f"#!/bin/sh\n{line}\n")
        (bin_ / name).chmod(0o755)
    (tray / ".venv" / ".installed-runtime").touch()
    key, stranger = keygen(where / "maintainer"), keygen(where / "stranger")
    signers = where / "allowed_signers"
    signers.write_text(f"maintainer@example.org {(where / 'maintainer.pub').read_text()}")
    return Bench(origin, tray, key, stranger, signers)
