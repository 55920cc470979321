"""One update: the newest signed release, set up beside the running one, tried, switched to.

The order is the safety: nothing fetched runs before its tag verifies; the running slot is never
written; a slot is switched to only once its set-up finished and its trial start served; with an
installed service the switch stays unconfirmed until the restarted service has said READY=1 and
answered its page, and is undone otherwise. Every failure leaves the version that ran running,
and the last line names the release tried and the one that runs.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pwd
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path

from updater import compiled, download, releases, room, trial, venvs
from updater.bundle import Handed
from updater.releases import Release, ReleaseError, Repository
from updater.slots import HOME_SLOT, READY, RELEASE, SlotError, Slots, sync_folder, write_json

UNIT = Path("/etc/systemd/system/tinker-tray.service")
CONFIRM_SECONDS = 300.0
"""How long the restarted service may take to be confirmed (READY=1 and its page)."""


class UpdateError(Exception):
    """Why the update stopped, in one sentence; the running version is unchanged."""


@dataclass
class Outcome:
    """What an update did: the release tried (None: nothing newer) and what runs now."""

    tried: Release | None
    running: str
    said: list[str] = field(default_factory=list)
    ok: bool = True

    def last_line(self) -> str:
        if self.tried is None:
            return f"tinker-tray update: nothing newer to install; running {self.running}."
        verdict = "now running" if self.ok else "still running"
        return f"tinker-tray update: tried {self.tried.describe()}; {verdict} {self.running}."


Say = Callable[[str], None]
HandedFor = Callable[[Release], AbstractContextManager[Handed | None]]
"""What a release's set-up is handed (an update file's wheels and compiled engine), if any."""


def owner_prefix(home: Path) -> list[str]:
    """Root updating a user's checkout works as that user (the files stay theirs)."""
    uid = home.stat().st_uid
    if os.geteuid() != 0 or uid == 0:
        return []
    return ["runuser", "-u", pwd.getpwuid(uid).pw_name, "--"]


@contextlib.contextmanager
def one_update_at_a_time(slots: Slots) -> Iterator[None]:
    slots.root.mkdir(exist_ok=True)
    with open(slots.root / "lock", "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UpdateError("another update is running (nothing was changed)") from None
        yield


def running_release(slots: Slots, repository: Repository) -> tuple[Release | None, str, str]:
    """(the running release if it is one, its commit, how to name it)."""
    current = slots.current()
    if current != HOME_SLOT:
        known = slots.release_of(current)
        if known.get("tag") and known.get("commit"):
            release = Release(known["tag"], known["commit"])
            return release, release.commit, release.describe()
    commit = repository.head()
    tag = repository.tag_at(commit)
    if tag:
        return Release(tag, commit), commit, f"{tag} ({commit[:12]})"
    return None, commit, f"the commit {commit[:12]}"


def slot_name(release: Release) -> str:
    return f"{release.tag}-{release.commit[:12]}"


def update(
    home: Path,
    say: Say,
    *,
    source: str = "origin",
    handed: HandedFor | None = None,
    service: ServiceControl | None = None,
) -> Outcome:
    """Update the checkout at `home` from `source` (a git remote or a bundle file's path);
    `handed`: what the release's set-up is given (an update file's parts). From the origin,
    the update file its host publishes for the release, where there is one."""
    slots = Slots(home)
    as_owner = owner_prefix(home)
    repository = Repository(home, as_owner)
    with one_update_at_a_time(slots):
        release, refused, running_name = _newest(slots, repository, source, say)
        if release is None:
            if refused:
                raise UpdateError(_none_trusted(refused, running_name))
            return Outcome(None, running_name)
        say(f"the newest signed release is {release.describe()}")
        outcome = Outcome(release, running_name, ok=False)
        name = slot_name(release)
        if name == slots.current():
            outcome.running, outcome.ok = release.describe(), True
            return outcome
        for gone in slots.remove_others(keep=set()):
            say(f"removed the unfinished or old slot {gone}")
        say(room.check_room(home, slots.path(slots.current()), release.describe()))
        folder = slots.path(name)
        running = slots.path(slots.current())
        given = handed or (lambda r: _published(home, repository, r, running, say))
        try:
            with given(release) as parts:
                engine = parts.compiled if parts and parts.compiled else None
                reuse_compiled_engine(engine or running / "build" / "mypyc", folder)
                env = parts.setup_env if parts else {}
                set_up(repository, release, folder, as_owner, say, env, running=running)
            seconds = trial.trial_start(folder, as_owner=as_owner)
            say(f"its trial start said READY=1 and served its page in {seconds:.0f} s")
            (folder / READY).write_text(f"{time.strftime('%Y-%m-%dT%H:%M:%S%z')}\n")
            sync_folder(folder)
        except (ReleaseError, SetUpError, trial.TrialError, OSError) as exc:
            shutil.rmtree(folder, ignore_errors=True)
            outcome.said.append(f"{release.tag} was not installed: {_sentence(exc)}")
            return outcome
        control = service or ServiceControl.for_home(home)
        if control is None:
            slots.switch(name, confirmed=True)
            outcome.running, outcome.ok = release.describe(), True
            say("switched; a `./tinker run` started from now on runs it")
        else:
            outcome.ok = control.switch_and_confirm(slots, name, say)
            outcome.running = release.describe() if outcome.ok else running_name
            if not outcome.ok:
                outcome.said.append(f"{release.tag} did not serve after the restart: back")
        if outcome.ok:
            slots.remove_others(keep=set())
        return outcome


def _published(
    home: Path, repository: Repository, release: Release, running: Path, say: Say
) -> AbstractContextManager[Handed | None]:
    """The release's published update file, unless its set-up needs nothing the file carries."""
    if not needs_its_file(repository, release, running):
        say("it asks for the running release's packages and engine: no update file is needed")
        return contextlib.nullcontext(None)
    return download.published(home, repository.origin(), release, say)


def needs_its_file(repository: Repository, release: Release, running: Path) -> bool:
    """Whether the release's set-up wants anything its update file carries. Not when it asks
    for the packages the running slot's venv holds (updater/venvs.py) and the running slot's
    compiled engine was built from the release's engine sources: a release that changed only
    the tray's own code, the common one. Its file (some 20 MB) then stays unfetched: a slow
    link's minutes."""
    wanted = repository.show(release.commit, "pyproject.toml")
    if wanted is None or not venvs.reusable_for(
        running, venvs.requirements_in(wanted.decode(errors="replace"))
    ):
        return True
    engine = running / "build" / "mypyc"
    if not (engine / compiled.STAMP).is_file():
        return True
    return (
        compiled.stale_source(engine, lambda name: repository.show(release.commit, name))
        is not None
    )


def _none_trusted(refused: list[str], running_name: str) -> str:
    """The last line when every newer tag was refused: the newest one and why (the others are
    on the lines above), so the line alone says what to fix."""
    others = len(refused) - 1
    more = f" (and {others} older refused, above)" if others else ""
    return f"no newer release could be trusted: {refused[0]}{more}; still running {running_name}"


def _newest(
    slots: Slots, repository: Repository, source: str, say: Say
) -> tuple[Release | None, list[str], str]:
    running, running_commit, running_name = running_release(slots, repository)
    signers = releases.allowed_signers()
    say(f"looking for signed releases on {source} ...")
    repository.fetch(source)
    release, refused = releases.newest(repository, signers, running, running_commit)
    for sentence in refused:
        say(f"refused: {sentence}")
    return release, refused, running_name


def check(home: Path, say: Say, *, source: str = "origin") -> tuple[Release | None, str]:
    """(the newest signed release newer than what runs, or None; what runs): nothing set up."""
    slots = Slots(home)
    repository = Repository(home, owner_prefix(home))
    with one_update_at_a_time(slots):
        release, _, running_name = _newest(slots, repository, source, say)
    return release, running_name


def reuse_compiled_engine(engine: Path, folder: Path) -> None:
    """A compiled engine (the update file's, else the running slot's), copied into the new slot
    before its set-up: used only where its recorded sources are the new release's
    (engine/__init__.py checks each one's SHA-256), so a release handed its engine, or one that
    did not change it, compiles nothing; otherwise its set-up compiles it (minutes on a Pi Zero
    2 W; tens of them under emulation)."""
    if engine.is_dir():
        shutil.copytree(engine, folder / "build" / "mypyc", symlinks=True)


class SetUpError(Exception):
    """The release's own set-up failed."""


def set_up(
    repository: Repository,
    release: Release,
    folder: Path,
    as_owner: list[str],
    say: Say,
    setup_env: dict[str, str],
    *,
    running: Path | None = None,
) -> None:
    """The verified release's tree into its slot, set up by its own `tinker` (venv, compiled
    engine, bytecode), as the checkout's owner; the `running` slot's venv taken where the
    release asks for the same packages (updater/venvs.py)."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):
        os.chown(folder.parent, *_owner_ids(repository.home))
    say(f"setting up {release.tag} in {folder} ...")
    repository.export(release, folder)
    write_json(folder / RELEASE, {"tag": release.tag, "commit": release.commit})
    if running is not None and venvs.reusable(running, folder):
        venvs.take(running, folder)
        say("it asks for the running release's packages: it takes that venv, installing nothing")
    else:
        say("its packages are set up by pip (minutes on a Pi) ...")
    if as_owner:
        subprocess.run(
            ["chown", "-R", "--no-dereference", _owner_spec(repository.home), str(folder)],
            check=True,
        )
    log = folder / ".setup.log"
    with open(log, "wb") as out:
        done = subprocess.run(
            [*as_owner, str(folder / "tinker"), "--version"],
            cwd=folder,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**{k: v for k, v in os.environ.items() if k != "TINKER_TRAY_HOME"}, **setup_env},
        )
    if done.returncode != 0 or not (folder / ".venv" / "bin" / "tinker-tray").exists():
        raise SetUpError(f"its set-up failed: {telling_line(log)}")


def telling_line(log: Path) -> str:
    """The line of a set-up's log that says why: pip's last ERROR line if it wrote one (its
    last line only points at the log, which goes with the slot), else the last line."""
    lines = log.read_bytes()[-16000:].decode(errors="replace").strip().splitlines()
    errors = [line for line in lines if line.startswith("ERROR:")]
    return (errors or lines or ["(nothing said)"])[-1].strip()[:300]


def _owner_ids(home: Path) -> tuple[int, int]:
    info = home.stat()
    return info.st_uid, info.st_gid


def _owner_spec(home: Path) -> str:
    uid, gid = _owner_ids(home)
    return f"{uid}:{gid}"


def _sentence(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return f"{exc.filename or 'a file'}: {exc.strerror or exc}"
    return str(exc)


@dataclass
class ServiceControl:
    """The installed service (systemd): restarted on the new slot, confirmed or rolled back."""

    unit: str = "tinker-tray"
    port: int = 8080
    within: float = CONFIRM_SECONDS

    @classmethod
    def for_home(cls, home: Path) -> ServiceControl | None:
        """The installed service, if it runs this checkout and we may restart it."""
        if os.geteuid() != 0 or shutil.which("systemctl") is None:
            return None
        try:
            text = UNIT.read_text()
        except OSError:
            return None
        return cls() if f"{home}/" in text else None

    def restart(self) -> bool:
        return (
            subprocess.run(["systemctl", "restart", self.unit], capture_output=True).returncode == 0
        )

    def switch_and_confirm(self, slots: Slots, name: str, say: Say) -> bool:
        try:
            slots.switch(name, confirmed=False)
        except (SlotError, OSError) as exc:
            say(f"the switch could not be made: {exc}")
            return False
        say("switched; restarting the service on it ...")
        self.restart()
        deadline = time.monotonic() + self.within
        while time.monotonic() < deadline:
            if slots.current() != name:  # its start did not confirm it: the unit went back
                break
            if slots.unconfirmed() is None:
                return True
            time.sleep(1)
        if slots.current() == name:
            slots.roll_back()
        say(f"it was not confirmed: back to {slots.current()}, restarting the service ...")
        self.restart()
        return False
