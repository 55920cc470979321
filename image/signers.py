"""Check an SSH allowed-signers file before the image carries it (`./tinker image build --trust
FILE`): the file git's `gpg.ssh.allowedSignersFile` names and `git verify-tag` reads, whose
signers are the only ones whose releases the tray's update installs. A line that git would skip or
misread would leave a tray refusing every release for years, so each line is parsed here, as
ssh-keygen(1)'s ALLOWED SIGNERS section describes it:

    principals [options] key-type base64-key [comment]

(blank lines and `#` comments aside). Python's standard library only: build.sh runs it on the
host, before the long build, so a mistake costs seconds, not 46 minutes.

    python3 image/signers.py FILE"""

from __future__ import annotations

import base64
import binascii
import re
import struct
import sys
from pathlib import Path

KEY_TYPES = frozenset(
    {
        "ssh-ed25519",
        "ssh-rsa",
        "ecdsa-sha2-nistp256",
        "ecdsa-sha2-nistp384",
        "ecdsa-sha2-nistp521",
        "sk-ssh-ed25519@openssh.com",
        "sk-ecdsa-sha2-nistp256@openssh.com",
    }
)
OPTION = re.compile(r'cert-authority|(namespaces|valid-after|valid-before)="[^"]*"')
TOKEN = re.compile(r'(?:"[^"]*"|[^\s"])+')
MAX_BYTES = 1 << 20
"""An allowed-signers file is a few lines; anything this large is not one."""


class SignersError(Exception):
    """Why the file cannot be the image's allowed signers, in one sentence."""


def _ssh_strings(blob: bytes) -> list[bytes]:
    """The SSH wire strings (a 4-byte length, then the bytes) that make up a public key's blob;
    empty when the blob is not exactly a sequence of them (a key cut short, say)."""
    strings, at = [], 0
    while at < len(blob):
        if at + 4 > len(blob):
            return []
        (length,) = struct.unpack(">I", blob[at : at + 4])
        at += 4 + length
        if at > len(blob):
            return []
        strings.append(blob[at - length : at])
    return strings


def _key_blob_type(text: str) -> str:
    """The key type written inside a whole base64 public key (its first SSH string), else ""."""
    try:
        strings = _ssh_strings(base64.b64decode(text, validate=True))
        return strings[0].decode("ascii") if len(strings) >= 2 else ""
    except (binascii.Error, UnicodeDecodeError):
        return ""


def check_line(line: str) -> str | None:
    """None when `line` is an allowed signer; else what is wrong with it."""
    tokens = TOKEN.findall(line)
    if len(tokens) < 3:
        return "it has fewer than three fields (principals, key type, key)"
    at = 1
    if tokens[1] not in KEY_TYPES:
        options = re.split(r',(?=(?:[^"]*"[^"]*")*[^"]*$)', tokens[1])
        bad = next((o for o in options if not OPTION.fullmatch(o)), None)
        if bad is not None:
            return f"'{bad[:40]}' is neither a key type nor an option"
        at = 2
    if len(tokens) <= at + 1:
        return "it has no key after its key type"
    key_type, key = tokens[at], tokens[at + 1]
    if key_type not in KEY_TYPES:
        return f"'{key_type[:40]}' is not an SSH key type"
    if _key_blob_type(key) != key_type:
        return f"its key is not a base64 {key_type} public key"
    return None


def check(text: str) -> int:
    """The number of signers in `text`; SignersError at the first line that is not one."""
    signers = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        wrong = check_line(line)
        if wrong:
            raise SignersError(
                f"line {number} is not an allowed signer (principals [options] key-type key): "
                f"{wrong}"
            )
        signers += 1
    if signers == 0:
        raise SignersError("it names no signer")
    return signers


def check_file(path: Path) -> int:
    """The number of signers in the file at `path`; SignersError says why it cannot be used."""
    try:
        if path.stat().st_size > MAX_BYTES:
            raise SignersError(f"it is larger than {MAX_BYTES // 1024} KB")
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise SignersError("it is not UTF-8 text") from None
    except OSError as exc:
        raise SignersError(exc.strerror or str(exc)) from None
    return check(text)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python3 image/signers.py ALLOWED_SIGNERS_FILE", file=sys.stderr)
        return 2
    try:
        signers = check_file(Path(args[0]))
    except SignersError as exc:
        print(f"tinker image build: --trust {args[0]}: {exc}.", file=sys.stderr)
        return 1
    print(f"tinker image build: --trust {args[0]}: {signers} allowed signer(s); the image's"
          " update installs only releases they signed.", file=sys.stderr)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
