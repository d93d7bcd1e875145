"""The child process of ``process:<spec>`` (``agents/isolated.py``): it builds the agent
the spec names and answers the parent's reset and act lines, one JSON line each, on
stdout, while the agent's own prints go to stderr.  Kept apart from the parent's side,
which the registry builds, because the child builds its agent through the registry."""

from __future__ import annotations

import json
import os
import sys


def serve(spec: str, game: str) -> int:
    """The child's loop: build the agent, then answer reset / act lines until stdin ends."""
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "w", buffering=1)
    sys.stdout = sys.stderr                            # the agent's prints stay off the pipe
    # Imported after the switch: nothing printed while loading may reach the replies.
    from meeplezoo.envs import make

    from .registry import make_agent

    try:
        agent = make_agent(spec, game, seed=0)
    except Exception as err:
        replies.write(json.dumps({"error": f"{type(err).__name__}: {err}", "fatal": True})
                      + "\n")
        return 1
    # Built now, before the first reset is answered, so that loading the game's kernels
    # is not counted in the first move's time (other player counts reuse the kernels).
    first = make(game)
    first.reset(seed=0)
    envs: dict[int, object] = {first.unwrapped.num_players: first}
    for line in sys.stdin:
        message = json.loads(line)
        try:
            if message["op"] == "reset":
                agent.reset(seed=message["seed"])
                reply = {"ok": None}
            else:
                players = message["players"]
                if players not in envs:
                    envs[players] = make(game, num_players=players)
                    envs[players].reset(seed=0)
                env = envs[players]
                env.state_from_json(message["state"])
                action = agent.act(env)
                reply = {"ok": int(action)}
        except Exception as err:
            text = (str(err).strip().splitlines() or [""])[0][:200]
            reply = {"error": f"{type(err).__name__}: {text}"}
        replies.write(json.dumps(reply) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(serve(sys.argv[1], sys.argv[2]))
