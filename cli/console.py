"""The command line's rich console: the same, but a reader that has gone (`| head`) ends the
command as every other closed pipe does (cli.main: quietly, status 0).

rich's own answer to a closed pipe is `SystemExit(1)` with no message (Console.on_broken_pipe),
which `simulate ... | head -2` then reported as a failure that says nothing. Here the console
falls silent and raises BrokenPipeError, which cli.main takes as the normal end it is: the
reader took what it wanted, and a script under `set -o pipefail` does not fail for it.
"""

from __future__ import annotations

import errno

from rich.console import Console as RichConsole


class Console(RichConsole):
    def on_broken_pipe(self) -> None:
        self.quiet = True  # nothing more to write: the reader has gone
        raise BrokenPipeError(errno.EPIPE, "the output's reader has gone")
