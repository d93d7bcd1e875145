"""Serenissima (D. Ehrhardt, Ystari 2012) as a PettingZoo AEC environment.

| Import             | ``from meeplezoo.envs import serenissima_v0``                          |
|--------------------|------------------------------------------------------------------------|
| Actions            | Discrete(395), masked (spec §15.2, sized for maps of <= 24 zones/ports) |
| Players            | 2-4 (``player_0`` .. ``player_3``)                                    |
| Observation        | dict: ``observation`` float32[2423], ``action_mask`` int8[395]        |
| Rewards            | at the end only; ``win_loss`` (default), ``rank``, ``score_margin``   |
| Chance             | Doge cards, battle and fort dice, closed ports (seeded, explicit)      |

**The default map is a reconstruction, not the printed board.**  Much of the 2012 board is
unknown (spec §3.3); the shipped ``map="placeholder"`` is the spec's Appendix A: real
facts (Valencia wood/5 next to Algiers, Antioch gold/3, the five start ports, 19 ports on
20 zones) completed with invented ports U1..U10, goods, sizes, adjacency, sale values
and scoring scale.  Do not report results on it as results on the real game.  A user
with the board passes ``map="board.json"`` (or a dict, schema in ``maps.py``), validated
with specific errors (``MapError``, whatever the file holds; a track needs exactly three
scoring spaces, SE-11.1); ``map="generated:<seed>"`` gives a random valid map
(``mapgen.py``), and ``map="generated:<a>-<b>"`` / ``"generated:train"`` /
``"generated:test"`` a distribution: each ``reset(seed=...)`` draws one
(``env.board_seed``; ``core/boards.py``).  The observation holds the map (ports, zones,
adjacency, padded to 24 zones and ports), so a policy can play any map.

Actions: 0 pass/done/decline, 1 action, 2 investment, 3 block, 4 continue, 5 withdraw,
6 sailor port->active, 7 sailor active->port, 8 load a good, 9 attack port, 10 claim,
11-16 jettison t, 17-22 sell t, 23-28 take t, 29-34 land k (0..5), 35-49 galley g (setup
pick / buy / attack), 50-64 sailor g->active, 65-79 sailor active->g, 80-169 good (g, t)
to active, 170-259 good active->(g, t), 260-283 move to zone z, 284-307 port p (start
port / close / place a bought galley), 308-331 recruit to port p, 332-346 recruit to
galley g, 347-370 fort at p, 371-394 basilica at p (goods t: wood, stone, marble, wine,
gold, spices).  Off-turn decisions (a blocker, a defender taking goods) make that agent
the next one selected.

Rule options (spec §14 flags, defaults = the spec's recommendations): ``map``,
``galley_capacity`` (5; 4 = the seed's literal text, A-01), ``block_in_start_zone``
(False, A-08; True adds sale and claim blocks in a galley's start zone, never a movement
block, SE-6.4.3), ``sell_after_breaking_block`` (False, A-09), ``new_galley_acts_this_round``
(True, A-21), ``close_ports`` ("random" chance or "choose", SE-12.3.3), ``hidden_money``
(False, SE-4.1.7), ``goods_supply`` (14, 12, 12, 12, 10, 10), ``max_decisions`` (5,000,
below).  Each is checked at construction with one clear ``ValueError``.  Env options:
``num_players``, ``render_mode`` ("human", "ansi", "rgb_array"), ``reward_scheme``,
``margin_scale``, ``start_seat`` (the first player, a seat or "random"), and in ``env()``
``illegal`` ("raise" | "penalty").

Engine choices: decisions where only PASS is legal are skipped (an empty Load step, a
finished move, a step 3 with nothing to do, an Investment with no money); the Doge pile is
kept as its public composition, each draw a chance event over the cards left.  The start
player is drawn from the seed (SE-4.1.2; ``start_seat=k`` fixes it).  Two v0 readings are
not the spec's, and ``serenissima_v1`` drops them: a Load step ends after 40
micro-actions (``data.MAX_LOAD_STEPS``, an engine guard against endless sailor and goods
shuffles, not a rule: SE-6.2 sets no limit), and in the special investment a second
galley can be bought only once the first has its sailor (SE-10.1 and A-23 only ask that
each new galley be manned before the Investment ends).

Decision cap: the rules end every game after the third scoring (SE-11.1), but the
kernels also end any game after ``max_decisions`` decisions (default 5,000), in the AEC
env, the batched env and MCTS rollouts alike, as a PettingZoo *truncation*
(``truncations`` True, ``infos["truncated"]``, rewards from the ducats at the cut).  The
default is eight times the longest game measured (uniform random play: 480 decisions
with 4 players; greedy self-play: 621; always-first/always-last/always-pass policies end
by the rules within 252), so it only catches what should never happen: a hand-made
state, a loop on a custom map, a future bug.
Version history: v0, first release; v1 (``env_v1.py``), the spec's legal moves where
v0 deviated: the special investment may buy a second galley before the first is manned
(SE-10.1, A-23), and a Load step ends only when the player ends it (v0 cuts it after 40
micro-actions, ``data.MAX_LOAD_STEPS``, an engine guard).  v0 is kept unchanged: its
shipped networks, ladders and golden playthrough were made on it.
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
    "serenissima_v0", D, (rules, chance, masks, observation, policy),
    make_config=make_config, action_to_str=action_to_str, validate_state=validate_state,
    render_module=__package__ + ".render", turn_owner_slot=D.G_TURN_OWNER)


class raw_env(KernelEnv):  # noqa: N801 (PettingZoo's naming)
    spec = SPEC
    metadata = env_metadata(SPEC.name)


env = make_env_factory(raw_env)
