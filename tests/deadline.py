"""Waiting for an event with a generous deadline instead of a fixed sleep or a hang."""

from __future__ import annotations

import contextvars
import threading


def finishes(call, seconds: float = 60.0):
    """``call()``'s result or exception, from a thread given a generous deadline: a call
    that blocks (a read of a FIFO with no writer, a request that never answers) fails the
    test instead of hanging the suite.  The caller's context variables (a read policy of
    ``envs/core/files.py``) go with it."""
    outcome = {}

    def run():
        try:
            outcome["value"] = call()
        except BaseException as err:          # noqa: BLE001 - handed to the caller
            outcome["error"] = err

    context = contextvars.copy_context()
    thread = threading.Thread(target=context.run, args=(run,), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s"
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
