"""argparse types for the CLI's numbers: a bad value is a usage error naming the option.

    p.add_argument("--n", type=count(0))      # "--n -5": argument --n: -5 is not 0 or more
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def count(minimum: int = 0, maximum: int | None = None) -> Callable[[str], int]:
    """A whole number within [minimum, maximum]."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum or (maximum is not None and value > maximum):
            bound = f"{minimum} or more" if maximum is None else f"{minimum}..{maximum}"
            raise argparse.ArgumentTypeError(f"{value} is not {bound}")
        return value

    parse.__name__ = "count"  # argparse names the type in its messages
    return parse


def seconds(text: str) -> float:
    """A positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number of seconds")
    return value
