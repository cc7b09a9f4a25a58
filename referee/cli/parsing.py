"""Shared command-line helpers: a parser whose errors are one line and exit 2."""
from __future__ import annotations

import argparse
import sys
from typing import NoReturn


class UsageError(Exception):
    """Bad command-line input; the message names the value and what is expected."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser that reports a bad argument as one line on stderr, exit 2."""

    def error(self, message: str) -> NoReturn:
        """Print the usage error with the program's name and exit with status 2."""
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(2)


def fail(prog: str, message: str) -> int:
    """Print one error line naming the bad value and return exit code 2."""
    print(f"{prog}: error: {message}", file=sys.stderr)
    return 2
