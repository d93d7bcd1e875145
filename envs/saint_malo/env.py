"""Saint Malo (Inka & Markus Brand, alea 2012) as a PettingZoo AEC environment.

| Import             | ``from meeplezoo.envs import saint_malo_v0``                      |
|--------------------|-------------------------------------------------------------------|
| Actions            | Discrete(110), masked (spec §13)                                  |
| Players            | 2-5 (``player_0`` .. ``player_4``)                               |
| Observation        | dict: ``observation`` float32[3924], ``action_mask`` int8[110]   |
| Rewards            | at the end only; ``win_loss`` (default), ``rank``, ``score_margin`` |
| Chance             | dice, rolled by the env's seeded generator (``reset(seed=...)``)  |

Actions: 0 stop rolling, 1-31 re-roll (bit i re-rolls die i of the sorted dice), 32 pass,
33-37 log k, 38-42 crate k, 43-47 wall k, 48-52 church of size k, 53-59 citizen, soldier,
priest, architect, merchant, juggler, noble (53-57 also pick the N-tower bonus), 60-108
place on cell 7r + c, 109 stop building houses.

Observation: see ``observe.py`` (seats rotated so the observer is first, padded to five).

Rule options (spec §16; defaults from the X1 reconstruction, see ``data.DEFAULT_OPTIONS``):
``tower_rewards``, ``start_crates``, ``church_row_values``, ``attack_strengths``,
``boxes_per_player``, ``start_coins``, ``start_logs``, ``dedupe_rerolls``, and the cap
``max_decisions`` (see ``options.py``; every value is checked at construction).
Env options: ``num_players``, ``render_mode`` ("human" prints the text board, "ansi",
"rgb_array"), ``reward_scheme``,
``margin_scale``, ``start_seat`` (a seat or "random"), and in ``env()`` ``illegal``
("raise" | "penalty").

Engine choices where the spec leaves room: a turn's houses phase is skipped when the
architect has no log or no free neighbour (STOP would be the only move); a tower character
with no free space is lost (A-20).  A ``("character", k)`` tower reward offers the
characters of level <= k (the default N tower: k = 3, SM-7.3.2).

Decision cap: nothing in the rules ends a game whose cities never fill (a policy that
always stops and passes plays forever), so after ``max_decisions`` decisions (default
3,000, about 3x the longest measured game: 966 decisions in 1,000 uniform-random 5-player
games, 783 in greedy-agent games) the kernel ends the game as a PettingZoo truncation
(``truncations`` True, ``infos["truncated"]``, rewards from the scores at the cut).
Version history: v0, first release.
"""

from __future__ import annotations

from ..core.aec import KernelEnv
from ..core.game import env_metadata, game_spec
from ..core.wrappers import make_env_factory
from . import chance, masks, policy, rules
from . import data as D
from . import observe as observation
from .notation import action_to_str
from .options import make_config
from .validate import validate_state

SPEC = game_spec(
    "saint_malo_v0", D, (rules, chance, masks, observation, policy),
    make_config=make_config, action_to_str=action_to_str, validate_state=validate_state,
    render_module=__package__ + ".render", turn_owner_slot=D.G_ACTIVE)


class raw_env(KernelEnv):  # noqa: N801 (PettingZoo's naming)
    spec = SPEC
    metadata = env_metadata(SPEC.name)


env = make_env_factory(raw_env)
