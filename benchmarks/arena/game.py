"""One arena game: the agents built once per process and re-seeded per game, the game
played, and its record, forfeits included (``play_one``).

An agent that raises, returns something that is not a legal action index, or overruns
the job's ``move_limit_s`` forfeits: the game stops there, that seat is ranked last and
every other seat first, and the record's ``forfeit`` says who and why, with the scores as
they stood.  The run goes on with the next game.  With the job's ``time_per_move_s``
every agent that can think by the clock (``Agent.set_time_budget``: the searches) gets
that budget per move; the record's ``timed_seats`` says which did, and every seat's
thinking time is measured either way (``seat_seconds``).
"""

from __future__ import annotations

import operator
import time
import zlib
from collections.abc import Sequence

import numpy as np


def agent_seed(seed: int, seats: Sequence[str], seat: int) -> int:
    """Each seat's own generator seed: fixed by the deal, the seating and the seat."""
    mix = zlib.crc32("|".join(seats).encode())
    return int(np.random.SeedSequence([seed, seat, mix]).generate_state(1)[0])


_AGENTS: dict[tuple, object] = {}       # per process: agents are built once and reset per game


def play_one(job: dict) -> dict:
    """Play one scheduled game; the record that goes to the JSONL file.

    An agent that raises, returns an illegal move or overruns ``job["move_limit_s"]``
    (when set) forfeits: the game stops there, that seat is ranked last and every other
    seat first, and the record's ``forfeit`` says who and why (scores as at that moment).
    """
    from meeplezoo.agents.registry import make_agent
    from meeplezoo.envs import make

    game, seats, seed = job["game"], job["seats"], job["seed"]
    limit = job.get("move_limit_s")
    started = time.perf_counter()
    agents = []
    for seat, spec in enumerate(seats):
        key = (game, spec, seats[:seat].count(spec))
        if key not in _AGENTS:
            _AGENTS[key] = make_agent(spec, game, seed=0)
        agent = _AGENTS[key]
        if hasattr(agent, "move_timeout"):      # process: agents stop waiting at the limit
            agent.move_timeout = limit
        agents.append(agent)
    budget, only = job.get("time_per_move_s"), job.get("time_per_move_agents")
    timed = [bool(agent.set_time_budget(budget)) if budget and (only is None or spec in only)
             else False for spec, agent in zip(seats, agents, strict=True)]
    env = make(game, num_players=len(seats), **(job.get("env_options") or {}))
    env.reset(seed=seed)
    think = [0.0] * len(seats)
    moves = [0] * len(seats)
    forfeit = None
    for seat, agent in enumerate(agents):
        try:
            agent.reset(seed=agent_seed(seed, seats, seat))
        except Exception as err:                        # the agent's own code failed
            forfeit = forfeit or _forfeit(seat, seats, f"reset raised {_describe(err)}")
    while forfeit is None and not env.game_over:
        seat = env.agent_name_mapping[env.agent_selection]
        tick = time.perf_counter()
        try:
            action = agents[seat].act(env)
        except Exception as err:
            action, reason = None, f"raised {_describe(err)}"
        else:
            reason = _illegal(action, env.action_mask())
        spent = time.perf_counter() - tick
        think[seat] += spent
        moves[seat] += 1
        if reason is None and limit is not None and spent > limit:
            reason = f"took {spent:.3f} s for a move (limit {limit:g} s)"
        if reason is not None:
            forfeit = _forfeit(seat, seats, reason)
            break
        env.step(int(action))
    order = env.possible_agents
    scores, tiebreaks = _scores(env)
    if forfeit is None:
        ranks = [1 + sum((scores[j], tiebreaks[j]) > (scores[i], tiebreaks[i])
                         for j in range(len(order))) for i in range(len(order))]
        rewards = [float(env.rewards[a]) for a in order]
    else:
        loser = forfeit["seat"]
        ranks = [len(order) if s == loser else 1 for s in range(len(order))]
        rewards = [-1.0 if s == loser else 1.0 for s in range(len(order))]
    record = {**job, "scores": scores, "tiebreaks": tiebreaks, "rewards": rewards,
              "ranks": ranks, "decisions": sum(moves), "seat_decisions": moves,
              "seat_seconds": [round(t, 6) for t in think],
              "seconds": round(time.perf_counter() - started, 6)}
    if budget:
        record["timed_seats"] = timed           # the seats that played by the clock
    if forfeit is not None:
        record["forfeit"] = forfeit
    if forfeit is None and any(env.truncations.values()):
        record["truncated"] = True              # cut at the game's decision cap, not ended
    return record


def _scores(env) -> tuple[list[int], list[int]]:
    """Every seat's score and tiebreak: the final ones, or at a forfeit the points on the
    board at that moment."""
    game = env.unwrapped
    return [int(x) for x in game.scores()], [int(x) for x in game.tiebreaks()]


def _illegal(action, mask: np.ndarray) -> str | None:
    """Why ``action`` cannot be played (None if it can)."""
    try:
        index = operator.index(action)
    except TypeError:
        return f"returned {type(action).__name__} {action!r}, not an action index"
    if not 0 <= index < len(mask) or not mask[index]:
        return f"played illegal action {index}"
    return None


def _describe(err: BaseException) -> str:
    text = (str(err).strip().splitlines() or [""])[0][:200]
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


def _forfeit(seat: int, seats, reason: str) -> dict:
    return {"seat": seat, "agent": seats[seat], "reason": reason}


def forfeits(records: Sequence[dict]) -> list[dict]:
    """Games lost by forfeit, grouped by agent and kind of reason, one example each."""
    grouped: dict[tuple[str, str], dict] = {}
    for record in records:
        forfeit = record.get("forfeit")
        if forfeit is None:
            continue
        reason = forfeit["reason"]
        kind = "too slow" if reason.startswith("took ") else reason.split(":")[0]
        row = grouped.setdefault((forfeit["agent"], kind),
                                 {"agent": forfeit["agent"], "games": 0, "reason": reason})
        row["games"] += 1
    return list(grouped.values())
