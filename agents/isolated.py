"""``process:<spec>``: any agent in a child process of its own.

For agents from another framework, or code that may crash or hang: the child
(``isolated_child.py``) holds the agent; for every move the parent sends the game's state
(``env.state_to_json()``, one JSON line on the child's stdin) and reads the action back
(one JSON line).  A child that dies
(a segfault in foreign code included) or exceeds ``move_timeout`` seconds is killed and
the move raises, which the arena records as a forfeit; the next game starts a new child.
The agent's own prints go to stderr, so they cannot corrupt the replies.

    meeplezoo arena hansa --agents greedy process:path/to/my_bot.py:MyBot --move-limit 1

POSIX only (the timeout waits on the pipe with ``select``).
"""

from __future__ import annotations

import json
import select
import subprocess
import sys

from .base import Agent

PREFIX = "process:"


class IsolatedAgent(Agent):
    """The agent ``spec`` names, played through a child process (module docstring)."""

    def __init__(self, spec: str, game: str, seed: int | None = None):
        super().__init__(seed)
        self.spec, self.game, self.name = spec, game, PREFIX + spec
        self.move_timeout: float | None = None       # the arena sets its --move-limit
        self.child: subprocess.Popen | None = None
        self._start()
        self._ask({"op": "reset", "seed": seed})      # a bad spec fails here, in the parent

    def _start(self) -> None:
        self.child = subprocess.Popen(
            [sys.executable, "-m", "meeplezoo.agents.isolated_child", self.spec, self.game],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        if self.child is None or self.child.poll() is not None:
            self._start()
        self._ask({"op": "reset", "seed": seed})

    def act(self, env) -> int:
        return self._ask({"op": "act", "players": env.unwrapped.num_players,
                          "state": env.unwrapped.state_to_json()}, self.move_timeout)

    def _ask(self, message: dict, timeout: float | None = None):
        child = self.child
        try:
            child.stdin.write(json.dumps(message) + "\n")
            child.stdin.flush()
        except (BrokenPipeError, OSError):
            self._kill()
            raise RuntimeError(f"the {self.spec} process has died") from None
        # The first startup loads the agent (imports, kernels): no limit on that reply.
        ready, _, _ = select.select([child.stdout], [], [], timeout)
        if not ready:
            self._kill()
            raise TimeoutError(f"no move within {timeout:g} s")
        line = child.stdout.readline()
        if not line:
            code = child.wait()
            self._kill()
            raise RuntimeError(f"the {self.spec} process died (exit code {code})")
        reply = json.loads(line)
        if "error" in reply:
            if message["op"] == "reset" and reply.get("fatal"):
                self._kill()
                raise ValueError(reply["error"])
            raise RuntimeError(reply["error"])
        return reply["ok"]

    def _kill(self) -> None:
        if self.child is not None and self.child.poll() is None:
            self.child.kill()
            self.child.wait()
        self.child = None

    def close(self) -> None:
        self._kill()

    def __del__(self):
        try:
            self._kill()
        except Exception:  # interpreter shutdown: nothing left to clean
            pass
