"""phoneworld: compile recorded GUI traces of real phone apps into runnable mock apps."""

from phoneworld.errors import PhoneworldError, TraceError

__version__ = "0.1.0"

from phoneworld.env.registration import make, register_envs  # noqa: E402 - needs __version__

register_envs()

__all__ = ["PhoneworldError", "TraceError", "__version__", "make"]
