"""`python -m phoneworld.serve PATH ...`: the `serve` command on its own."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from phoneworld.errors import PhoneworldError
from phoneworld.serve.commands import register


class _Alone:
    """Stands in for `add_subparsers()`, so `register` builds a top-level parser."""

    def add_parser(self, name: str, **kw: Any) -> argparse.ArgumentParser:
        kw.pop("help", None)
        return argparse.ArgumentParser(prog="python -m phoneworld.serve", **kw)


def main(argv: Sequence[str] | None = None) -> int:
    parser = register(_Alone())
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except PhoneworldError as err:
        print(err.show(), file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
