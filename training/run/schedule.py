"""When a training run evaluates, and the compile done before its clock starts.

By default a run evaluates ``evaluations`` times, spread evenly over its budget (the share
``budget_used`` reports: training minutes, or steps / iterations when no ``--minutes``),
the last at the end, so a ``--minutes 10`` run draws a curve of six points whatever the
machine's speed.  ``--eval-every K`` evaluates every K updates instead (and at the end);
``--evaluations 0`` with no ``--eval-every`` turns evaluation off.  Rungs that search
(``mcts:N``) cost ten to thirty times a greedy game, so they are played at every
``eval_search_every``-th evaluation and at the last one only.

The clock of ``--minutes`` starts after :func:`warm_up`: numba compiles a kernel the first
time it runs (a minute or more on a cold cache), and that is not training.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable


class EvalSchedule:
    """Which updates evaluate (module docstring).  ``spent`` is the budget share used at
    the start (a resumed run's next evaluation is the next share it has not reached)."""

    def __init__(self, evaluations: int, every: int, count: int, spent: float,
                 search_every: int = 1):
        self.evaluations, self.every, self.search_every = evaluations, every, search_every
        self.on = bool(evaluations or every)
        self.next_share = self._share_after(spent)
        self.last_evaluated = count if count else None    # resumed: the checkpoint's row
        self.done = 0

    def _share_after(self, spent: float) -> int:
        if not self.evaluations:
            return 0
        # (a hair below an exact share counts as reaching it: float sums of seconds)
        return math.floor(spent * self.evaluations + 1e-9) + 1

    def due(self, count: int, spent: float) -> bool:
        """Whether update ``count``, with ``spent`` of the budget used, evaluates."""
        if not self.on:
            return False
        if self.every:
            return count % self.every == 0
        if spent * self.evaluations + 1e-9 >= self.next_share:
            self.next_share = self._share_after(spent)
            return True
        return False

    def final_due(self, count: int) -> bool:
        """At the end of a run: evaluate unless the last update already did (or none ran)."""
        return self.on and count > 0 and self.last_evaluated != count

    def opponents(self, rungs, final: bool = False) -> tuple[str, ...]:
        """The rungs of the next evaluation: searches every ``search_every``-th time."""
        searches_now = final or (self.done + 1) % max(self.search_every, 1) == 0
        return tuple(r for r in rungs if searches_now or not is_search(r))

    def evaluated(self, count: int) -> None:
        self.last_evaluated = count
        self.done += 1


def is_search(agent: str) -> bool:
    """``mcts:200``, ``mcts``: the search (slow); anything else plays in milliseconds."""
    return agent.split(":", 1)[0] == "mcts"


def warm_up(game: str, extra: Callable[[], None] | None = None, say=print) -> float:
    """Compile ``game``'s paths (``meeplezoo warmup``'s, then ``extra``: the trainer's own,
    e.g. a few moves of its self-play) before the clock starts; returns the seconds."""
    from meeplezoo.play.warmup import warm_game

    say(f"compiling {game}…", end=" ", flush=True)
    started = time.perf_counter()
    warm_game(game)
    if extra is not None:
        extra()
    seconds = time.perf_counter() - started
    say(f"done in {seconds:.1f} s", flush=True)
    return seconds


def quiet(*_args, **_kwargs) -> None:
    """A ``say`` that prints nothing (``--no-progress``)."""
