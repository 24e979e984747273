"""Errors the server answers with: a JSON body `{"error": message, "field"?: name}` and a
4xx status a client can act on (fix the request, wait and retry, or create a session)."""

from __future__ import annotations

from phoneworld.errors import InvalidAction, PhoneworldError


class ApiError(PhoneworldError):
    """A request the server refuses; `status` is the HTTP status (always 4xx)."""

    def __init__(self, message: str, status: int = 400, *, field: str | None = None,
                 retry_after: int | None = None) -> None:
        self.message = message
        self.status = status
        self.field = field
        self.retry_after = retry_after
        super().__init__(f"{field}: {message}" if field else message)

    def body(self) -> dict[str, object]:
        out: dict[str, object] = {"error": str(self), "status": self.status}
        if self.field is not None:
            out["field"] = self.field
        return out


class NoSuchSession(ApiError):
    """An unknown or expired session id (404)."""

    def __init__(self, session_id: str, idle_timeout: float) -> None:
        super().__init__(f"no session {session_id!r}: it was deleted, expired after "
                         f"{idle_timeout:g} s idle, or never existed; create one with "
                         "POST /api/sessions", 404)


class TooManySessions(ApiError):
    """The session cap is reached (429)."""

    def __init__(self, cap: int, idle_timeout: float) -> None:
        super().__init__(f"the server holds its maximum of {cap} sessions; DELETE sessions "
                         f"you no longer need, or wait for idle ones to expire "
                         f"({idle_timeout:g} s)", 429, retry_after=max(1, int(idle_timeout / 10)))


class ScreenshotUnavailable(ApiError):
    """No browser to take screenshots with (424: the request depends on Chromium)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, 424)


class ServerBusy(ApiError):
    """The screenshot queue is full or a screenshot took too long (429, retry later)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, 429, retry_after=1)


def refusal(err: PhoneworldError) -> tuple[dict[str, object], int, dict[str, str] | None]:
    """The JSON body, status and extra headers that answer `err`: an `ApiError` as it
    says, an invalid action as a 400 naming its field, any other `PhoneworldError` as a
    409 (a well-formed request the app cannot carry out here: its spec says no). Both
    Flask's error handlers and the hot routes (`hot`) answer through this."""
    if isinstance(err, ApiError):
        headers = {"Retry-After": str(err.retry_after)} if err.retry_after else None
        return err.body(), err.status, headers
    if isinstance(err, InvalidAction):
        body: dict[str, object] = {"error": str(err), "status": 400}
        if err.field:
            body["field"] = err.field
        return body, 400, None
    return {"error": f"the app cannot do this: {err}", "status": 409}, 409, None


def bug_body(err: BaseException) -> dict[str, object]:
    """The 500 body for an unexpected exception (a bug, logged with its traceback)."""
    return {"error": f"internal error ({type(err).__name__}); this is a bug in phoneworld, "
                     "please report it", "status": 500}
