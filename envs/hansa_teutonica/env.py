"""Hansa Teutonica (Andreas Steding, Argentum Verlag 2009) as a PettingZoo AEC environment.

| Import             | ``import meeplezoo.envs.hansa_teutonica_v0``                         |
|--------------------|-------------------------------------------------------------------|
| Actions            | Discrete(513), masked (spec §14.2, PLACE/DISPLACE share slots)     |
| Players            | 2-5 (``player_0`` .. ``player_4``); 2-3 side for 2-3, 4-5 side else |
| Observation        | dict: ``observation`` float32[2089], ``action_mask`` int8[513]     |
| Rewards            | at the end only; ``win_loss`` (default), ``rank``, ``score_margin`` |
| Chance             | tavern markers and plate-marker draws, by the env's seeded generator |

Actions (spec §14.2, with placement and displacement in one slot per space and piece
type): 0 end turn, 1-5 income with m merchants, 6 + 2s + t put a piece of type t on space s
(a placement on an empty space, HT-6.2; a displacement where a rival stands, HT-6.3; also
compensation placements and Move drops), 220-221 pay T/M, 222 begin Move, 223 + s pick
(Move, Remove 3, board-sourced compensation), 330 done, 331 + r establish, 365 + k reward
(0 none, 1-2 Kontor, 3-6 extra Kontor, 7-8 ability, 9-12 Coellen), 378/379 +3/+4, 380 +
track upgrade, 385 + 3c + i swap, 466 remove 3, 467 + r place the revealed marker, 501 + g
pawn to region g, 512 pawn stays.  The spec's layout gives displacements their own 214
slots (727 in all); sharing them changes no rule and makes every mask 30% smaller.

A displaced player's compensation is an off-turn decision: ``agent_selection`` moves to
that player and back to the active player afterwards (HT-6.3.3).

Rule options (``options.py``): ``two_player_regions`` (2 players only; region data
DERIVED, UNVERIFIED, spec §12.6), ``regions``, ``remove3_opponents_only``, ``tie_break``,
``max_decisions``.  Env options: ``num_players``, ``render_mode`` ("human", "ansi",
"rgb_array"), ``reward_scheme``, ``margin_scale``, ``start_seat``, and in ``env()``
``illegal`` ("raise" | "penalty").

Decision cap (HT-9.5): a game reaching ``max_decisions`` decisions (default 3,000; chance
events not counted) is truncated there (``truncations`` set, ``infos[agent]["truncated"]``,
rewards from the scores at the cut; in the kernels TERMINAL with the state's ``truncated``
flag, so batched play and MCTS rollouts end too).  Without a cap a game can stall forever
(every piece on the board, no trigger left).  3,000 is about 5 times the longest game of
the heuristic (greedy) policy, 535 decisions over 2,000 games with 5 players (1,126 with
the 2-player regions), while uniformly random play runs 23,000-28,000 decisions at the
median: under the default a learner's first random-policy episode stays short.  Pass
``max_decisions`` (100..10**8) to change it.

Engine choices: a turn ends by itself when END_TURN is its only legal move; the REWARD
phase is skipped when "none" is the only option.  Version history: v0, first release
(727 actions); v0.1, placement and displacement share their slots (513 actions; saved
games and replays of v0 name their moves by index and do not load).
"""

from __future__ import annotations

from ..core.aec import KernelEnv
from ..core.game import env_metadata, game_spec
from ..core.options import check_bool
from ..core.wrappers import make_env_factory
from . import board, chance, masks, policy, rules
from . import data as D
from . import observe as observation
from .notation import action_to_str
from .options import make_config
from .validate import validate_state

SPEC = game_spec(
    "hansa_teutonica_v0", D, (rules, chance, masks, board, observation, policy),
    make_config=make_config, action_to_str=action_to_str, validate_state=validate_state,
    render_module=__package__ + ".render", turn_owner_slot=D.G_ACTIVE)


class raw_env(KernelEnv):  # noqa: N801 (PettingZoo's naming)
    spec = SPEC
    metadata = env_metadata(SPEC.name)

    def __init__(self, num_players: int = 2, **kwargs):
        # The option's own check first, so 'yes' or 2 get its ValueError, not this one.
        regions = check_bool("two_player_regions", kwargs.get("two_player_regions", False))
        if regions and num_players != 2:
            raise ValueError(
                "two_player_regions is the 2-player variant (HT-11), "
                f"got num_players={num_players!r}"
            )
        super().__init__(num_players=num_players, **kwargs)



env = make_env_factory(raw_env)
