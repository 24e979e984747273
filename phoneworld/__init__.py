"""phoneworld: compile recorded GUI traces of real phone apps into runnable mock apps."""

from phoneworld.errors import PhoneworldError, TraceError

__version__ = "0.1.0"

__all__ = ["PhoneworldError", "TraceError", "__version__"]
