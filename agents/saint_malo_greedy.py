"""A greedy Saint Malo agent: the best immediate score, with sensible tie-breaks.

Every decision is scored by one static evaluation of the position *as if the game ended
now* (``city.end_score``, rules SM-11.3): the player's score minus the best opponent's, plus
small heuristic terms that break ties between moves of equal immediate score.

* **Turn decisions** (scoring option, placements, houses, the N-tower bonus).  Each legal
  action is applied to a copy of the state with the compiled ``apply_action`` kernel; while
  the same player still has to act in the same turn (placing the remaining crates or
  walls, the architect's houses, the tower bonus), the copy is continued greedily, one best
  follow-up at a time, until the turn's action is finished (swords marked, attacks
  resolved).  The finished copy is evaluated.  A character placement looks one level
  deeper (an architect's cell is worth the houses it lets the greedy build), so the
  scoring choice sees the real value of each option.
* **Roll decisions** (DP-1).  The value of each of the 28 scoring options is computed once
  per turn by the same greedy rollout on a copy whose dice all show the option's symbol (no
  coins spent, no swords); the coins paid for changed dice and the 0..5 swords (pirate
  boxes and any attack, SM-9) are then priced exactly on the rollout's final state.  That
  gives the greedy value of every one of the 252 dice states, and the optimal-keep DP of
  rule PR-7 over the exact re-roll distributions picks the re-roll mask with the best
  expected value (stopping on ties).

Heuristic terms (only as tie-breaks and to price the future a little; all shrink to 0 once
the end is triggered): coins and logs kept for later, defence against the coming attacks
(weighted by how soon they come), progress on unbroken sides, the best empty cell for a
future merchant / juggler / priest, churches not yet in a row, and the size of the largest
empty region.  Exact ties are broken by the agent's own generator.
"""

from __future__ import annotations

import numpy as np

from ..envs.core.contract import H_GAME_ID, H_NUM_PLAYERS, H_PHASE, H_PLY, H_TO_MOVE
from ..envs.core.jit import njit
from ..envs.saint_malo.city import (
    church_rows_detail,
    defence,
    empty_bb,
    end_score,
    largest_component,
    popcount,
)
from ..envs.saint_malo.data import (
    A_CHARACTER,
    A_PASS,
    A_STOP_HOUSES,
    C_BOXES_PER_PLAYER,
    C_CHURCH_T,
    C_STRENGTH,
    C_TOWER_AMOUNT,
    C_TOWER_KIND,
    CHARACTER_LEVEL,
    CHURCH_1,
    CITIZEN,
    CRATE,
    CRATE_FACE,
    CROSS,
    EMPTY,
    G_ACTIVE,
    G_ATTACKS_DONE,
    G_DICE,
    G_END_TRIGGERED,
    G_PENDING_CODE,
    G_PIRATE_BOXES,
    G_ROLLS_USED,
    GAME_ID,
    HEAD,
    LOG,
    MAX_ROLLS,
    N8,
    NOBLE,
    NUM_ACTIONS,
    NUM_ATTACKS,
    NUM_CELLS,
    NUM_DICE,
    P_BOARD,
    P_CANNONS_LOST,
    P_COINS,
    P_LOGS,
    P_SIDES_BROKEN,
    P_SIDES_DONE,
    P_VP,
    PH_BONUS_CHOICE,
    PH_GAME_OVER,
    PH_HOUSES,
    PH_PLACE,
    PH_ROLL_DECISION,
    PH_SCORE,
    REWARD_CHARACTER,
    REWARD_COINS,
    SIDE_BB,
    SWORD,
    WALL,
    WALL_FACE,
)
from ..envs.saint_malo.dice import (
    DICE_SORTED,
    DICE_STATES,
    MAX_OUTCOMES,
    OUTCOME_CODES,
    OUTCOME_WAYS,
    STATE_INDEX_OF_CODE,
    code_of_faces,
)
from ..envs.saint_malo.masks import legal_mask, player_base
from ..envs.saint_malo.rules import apply_action, pirate_attack
from .base import Agent

# --- evaluation weights (VP units) ---------------------------------------------------------
COIN_W = 0.6            # a coin beyond its end value floor(coins / 2): it buys changes
LOG_W = 0.8             # a log beyond its 1 VP, for the first 3 logs (one architect's worth)
LOG_W_EXTRA = 0.3       # logs 4..6
DEFENCE_DECAY = 0.85    # weight of holding against an attack, per expected round until it
SWORDS_PER_TURN = 0.6   # rough pirate clock (PR-8) for "rounds until the attack"
SIDE_BASE = 0.05        # an untouched side is worth a little (breaking it costs this)
SIDE_GROWTH = 0.6       # ... and grows with the square of its walls
SIDE_DEFENCE = 3.0      # the +2 defence of a completed side, priced for the side potential
MERCHANT_W = 0.25       # per crate around the best empty cell
JUGGLER_W = 0.4         # per character type around the best empty cell
PRIEST_W = 0.9          # per church around the best empty cell
CHURCH_W = 0.5          # per church not (yet) in a scoring row
SPACE_W = 0.03          # per cell of the largest empty region
BONUS_PENDING = 3.0     # a tower character still to be chosen
FUTURE_SPACES = 15.0    # the future terms fade once some city has fewer empty spaces
WIN_BONUS = 30.0        # a finished game: winning matters more than the margin
NEG = -1e18

NUM_OPTIONS = A_CHARACTER + 7 - A_PASS          # 28 scoring options: actions 32..59
NUM_MASKS = 1 << NUM_DICE


def _option_tables():
    """Symbol, dice used and extra cost of each scoring option (actions 32..59)."""
    sym = np.full(NUM_OPTIONS, -1, dtype=np.int64)
    k = np.zeros(NUM_OPTIONS, dtype=np.int64)
    extra = np.zeros(NUM_OPTIONS, dtype=np.int64)
    for i, face in enumerate((LOG, CRATE_FACE, WALL_FACE, CROSS)):
        for used in range(1, 6):
            o = 1 + 5 * i + used - 1
            sym[o], k[o] = face, used
    extra[1:6] = 2                                         # SM-7.1: 2 coins per delivery
    for kind in range(7):
        o = A_CHARACTER - A_PASS + kind
        sym[o], k[o] = HEAD, CHARACTER_LEVEL[kind]
    return sym, k, extra


OPT_SYM, OPT_K, OPT_EXTRA = _option_tables()
OUT_CODES = np.zeros((NUM_DICE + 1, MAX_OUTCOMES), dtype=np.int64)
OUT_PROBS = np.zeros((NUM_DICE + 1, MAX_OUTCOMES), dtype=np.float64)
OUT_N = np.zeros(NUM_DICE + 1, dtype=np.int64)
for _m in range(NUM_DICE + 1):
    OUT_N[_m] = len(OUTCOME_CODES[_m])
    OUT_CODES[_m, :OUT_N[_m]] = OUTCOME_CODES[_m]
    OUT_PROBS[_m, :OUT_N[_m]] = OUTCOME_WAYS[_m] / float(6**_m)
DICE_STATES_ARR = np.ascontiguousarray(DICE_STATES)
INDEX_OF_CODE = np.ascontiguousarray(STATE_INDEX_OF_CODE)


def _kept_tables():
    """The 210 multisets of 0..4 kept dice, and which one each (state, mask) keeps."""
    codes = np.concatenate(OUTCOME_CODES[:NUM_DICE])
    sizes = np.concatenate([np.full(len(OUTCOME_CODES[k]), k) for k in range(NUM_DICE)])
    kept_id = np.full(6**6, -1, dtype=np.int64)
    kept_id[codes] = np.arange(len(codes))
    rerolled = (np.arange(NUM_MASKS)[:, None] >> np.arange(NUM_DICE)) & 1      # [32, 5]
    powers = 6 ** np.asarray(DICE_SORTED, dtype=np.int64)                     # [252, 5]
    kept_codes = powers @ (1 - rerolled).T                                    # [252, 32]
    same = np.asarray(DICE_SORTED)[:, 1:] == np.asarray(DICE_SORTED)[:, :-1]  # [252, 4]
    # EC-21: canonical iff no die is re-rolled while an equal die before it is kept
    bad = same[:, None, :] & (rerolled[None, :, 1:] == 1) & (rerolled[None, :, :-1] == 0)
    kept_of = np.where(bad.any(axis=2), -1, kept_id[kept_codes])
    kept_of[:, 0] = -1
    return (np.ascontiguousarray(kept_of), codes.astype(np.int64),
            sizes.astype(np.int64))


KEPT_OF, KEPT_CODES, KEPT_SIZES = _kept_tables()


# --- static evaluation ---------------------------------------------------------------------

@njit
def context(state, seat):
    """What the active player cannot change this turn: the opponents' scores before
    cannons (slots 0..4), their empty spaces (5..9) and the fewest of those (10)."""
    ctx = np.zeros(11)
    least = NUM_CELLS
    for other in range(state[H_NUM_PLAYERS]):
        if other == seat:
            continue
        base = player_base(other)
        ctx[other] = end_score(state, base) + 5 * state[base + P_CANNONS_LOST]
        empty = popcount(empty_bb(state, base))
        ctx[5 + other] = empty
        least = min(least, empty)
    ctx[10] = least
    return ctx


@njit
def _coin_part(coins, future):
    """The part of the evaluation that depends on the coins (separable, see roll values)."""
    return coins // 2 + COIN_W * future * coins


@njit
def static_eval(state, seat, ctx):
    """Score as if the game ended now, minus the best opponent's, plus tie-break terms."""
    base = player_base(seat)
    empty = 0
    crates = 0
    walls = 0
    churches = 0
    c1 = c2 = c3 = c4 = c5 = 0
    for cell in range(NUM_CELLS):
        code = state[base + P_BOARD + cell]
        if code == EMPTY:
            empty |= 1 << cell
        elif code == CRATE:
            crates |= 1 << cell
        elif code == WALL:
            walls |= 1 << cell
        elif CHURCH_1 <= code <= CHURCH_1 + 4:
            churches |= 1 << cell
            size = code - CHURCH_1 + 1
            if size == 1:
                c1 += 1
            elif size == 2:
                c2 += 1
            elif size == 3:
                c3 += 1
            elif size == 4:
                c4 += 1
            else:
                c5 += 1
    n_empty = popcount(empty)
    coins = state[base + P_COINS]
    logs = state[base + P_LOGS]
    # SM-11.3 / SM-11.4, as city.end_score (church rows: greedy split)
    rows_value, in_rows = church_rows_detail(c1, c2, c3, c4, c5,
                                             state[C_CHURCH_T:C_CHURCH_T + 6])
    mine = (state[base + P_VP] + (5 if n_empty == 0 else 0) + coins // 2 + logs + rows_value
            - 5 * state[base + P_CANNONS_LOST])
    best_opp = NEG
    opp_best_empty = 0
    for other in range(state[H_NUM_PLAYERS]):
        if other != seat:
            score = ctx[other] - 5 * state[player_base(other) + P_CANNONS_LOST]
            if score > best_opp or (score == best_opp and ctx[5 + other] > opp_best_empty):
                best_opp = score
                opp_best_empty = ctx[5 + other]
    value = mine - best_opp
    if state[H_PHASE] == PH_GAME_OVER:                 # SM-11.5: win, then the margin
        if mine > best_opp or (mine == best_opp and n_empty > opp_best_empty):
            return value + WIN_BONUS
        if mine == best_opp and n_empty == opp_best_empty:
            return value
        return value - WIN_BONUS
    future = 0.0
    if not state[G_END_TRIGGERED]:
        future = min(1.0, min(n_empty, ctx[10]) / FUTURE_SPACES)
    value += COIN_W * future * coins
    value += future * (LOG_W * min(logs, 3) + LOG_W_EXTRA * min(max(logs - 3, 0), 3))
    value += _defence_value(state, base, future)
    if state[H_PHASE] == PH_BONUS_CHOICE and state[H_TO_MOVE] == seat:
        value += BONUS_PENDING
    if future > 0.0:
        potential = _sides_potential(state, base, walls)
        potential += _cells_potential(state, base, empty, crates, churches)
        potential += CHURCH_W * (c1 + c2 + c3 + c4 + c5 - in_rows)
        potential += SPACE_W * largest_component(empty)
        value += future * potential
    return value


@njit
def _future(state, seat, ctx):
    """The ``future`` factor of ``static_eval`` (needed to price coins in roll values)."""
    if state[G_END_TRIGGERED] or state[H_PHASE] == PH_GAME_OVER:
        return 0.0
    n_empty = popcount(empty_bb(state, player_base(seat)))
    return min(1.0, min(n_empty, ctx[10]) / FUTURE_SPACES)


@njit
def _defence_value(state, base, future):
    """5 VP per coming attack this defence holds, weighted by how soon the attack comes."""
    done = state[G_ATTACKS_DONE]
    if done >= NUM_ATTACKS:
        return 0.0
    d = defence(state, base)
    players = state[H_NUM_PLAYERS]
    row = state[C_BOXES_PER_PLAYER] * players
    boxes = state[G_PIRATE_BOXES]
    value = 0.0
    for attack in range(done, NUM_ATTACKS):
        if d < state[C_STRENGTH + attack]:
            break                                      # strengths never decrease
        left = (attack + 1) * row - boxes
        rounds = left / (SWORDS_PER_TURN * players)
        weight = DEFENCE_DECAY ** rounds
        if attack > done:
            weight *= future
        value += 5.0 * weight
    return value


@njit
def _sides_potential(state, base, walls):
    """Unbroken sides, worth more the more walls they hold (a broken one is worth 0)."""
    value = 0.0
    done = state[base + P_SIDES_DONE]
    broken = state[base + P_SIDES_BROKEN]
    for side in range(4):
        bit = 1 << side
        if done & bit or broken & bit:
            continue
        kind = state[C_TOWER_KIND + side]
        amount = state[C_TOWER_AMOUNT + side]
        if kind == REWARD_CHARACTER:
            reward = 3.0
        elif kind == REWARD_COINS:
            reward = 0.75 * amount
        else:
            reward = float(amount)
        w = popcount(walls & SIDE_BB[side]) / 5.0
        value += (reward + SIDE_DEFENCE) * (SIDE_BASE + SIDE_GROWTH * w * w)
    return value


@njit
def _cells_potential(state, base, empty, crates, churches):
    """The best empty cell for a later merchant, juggler and priest."""
    best_crates = 0
    best_types = 0
    best_churches = 0
    rest = empty
    while rest:
        low = rest & -rest
        rest ^= low
        cell = popcount(low - 1)
        around = N8[cell]
        best_crates = max(best_crates, popcount(around & crates))
        if churches:
            best_churches = max(best_churches, popcount(around & churches))
        seen = 0
        others = around & ~empty & ~crates & ~churches
        while others:
            low_other = others & -others
            others ^= low_other
            code = state[base + P_BOARD + popcount(low_other - 1)]
            if CITIZEN <= code <= NOBLE:
                seen |= 1 << (code - CITIZEN)
        best_types = max(best_types, popcount(seen))
    return MERCHANT_W * best_crates + JUGGLER_W * best_types + PRIEST_W * best_churches


# --- greedy continuation within a turn -----------------------------------------------------

@njit
def _own_decision(state, seat):
    phase = state[H_PHASE]
    return state[H_TO_MOVE] == seat and (
        phase == PH_PLACE or phase == PH_HOUSES or phase == PH_BONUS_CHOICE
    )


@njit
def _greedy_houses(state, seat, ctx, mask):
    """Build houses greedily (one static-best follow-up at a time) until the phase ends."""
    while state[H_TO_MOVE] == seat and state[H_PHASE] == PH_HOUSES:
        legal_mask(state, mask)
        best_action = A_STOP_HOUSES
        best = NEG
        for action in range(NUM_ACTIONS):
            if mask[action]:
                child = state.copy()
                apply_action(child, action)
                value = static_eval(child, seat, ctx)
                if value > best:
                    best = value
                    best_action = action
        apply_action(state, best_action)


@njit
def _character_value(state, seat, ctx, mask):
    """State placing a character: the best cell, an architect's cell with its houses."""
    legal_mask(state, mask)
    cells = mask.copy()
    best = NEG
    for action in range(NUM_ACTIONS):
        if cells[action]:
            child = state.copy()
            apply_action(child, action)
            if child[H_TO_MOVE] == seat and child[H_PHASE] == PH_HOUSES:
                _greedy_houses(child, seat, ctx, mask)
            best = max(best, static_eval(child, seat, ctx))
    return best


@njit
def _step_value(state, seat, ctx, mask):
    """Value of a state reached by one follow-up, looking through character placements."""
    if not _own_decision(state, seat):
        return static_eval(state, seat, ctx)
    phase = state[H_PHASE]
    if phase == PH_HOUSES:
        child = state.copy()
        _greedy_houses(child, seat, ctx, mask)
        return static_eval(child, seat, ctx)
    if phase == PH_PLACE and state[G_PENDING_CODE] >= CITIZEN:
        return _character_value(state, seat, ctx, mask)
    if phase == PH_BONUS_CHOICE:
        best = NEG
        for kind in range(5):
            child = state.copy()
            apply_action(child, A_CHARACTER + kind)
            best = max(best, _character_value(child, seat, ctx, mask))
        return best
    return static_eval(state, seat, ctx)


@njit
def rollout(state, seat, ctx, mask):
    """Finish the turn's action greedily in place; return the evaluation at the end."""
    while _own_decision(state, seat):
        legal_mask(state, mask)
        legal = mask.copy()
        best = NEG
        best_action = -1
        for action in range(NUM_ACTIONS):
            if not legal[action]:
                continue
            child = state.copy()
            apply_action(child, action)
            value = _step_value(child, seat, ctx, mask)
            if best_action < 0 or value > best:
                best = value
                best_action = action
        apply_action(state, best_action)
    return static_eval(state, seat, ctx)


@njit
def action_values(state, mask_in):
    """Value of every legal action of a turn decision (NEG for illegal ones)."""
    seat = state[H_TO_MOVE]
    ctx = context(state, seat)
    out = np.full(NUM_ACTIONS, NEG)
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for action in range(NUM_ACTIONS):
        if mask_in[action]:
            child = state.copy()
            apply_action(child, action)
            out[action] = rollout(child, seat, ctx, mask)
    return out


# --- roll decisions ------------------------------------------------------------------------

@njit
def _mark_swords(state, swords):
    """SM-9.1/9.2/9.4: cross boxes, attacking when a row fills (as ``end_turn`` does)."""
    row = state[C_BOXES_PER_PLAYER] * state[H_NUM_PLAYERS]
    for _ in range(swords):
        if state[G_ATTACKS_DONE] >= NUM_ATTACKS:
            break
        state[G_PIRATE_BOXES] += 1
        if state[G_PIRATE_BOXES] == (state[G_ATTACKS_DONE] + 1) * row:
            pirate_attack(state, state[C_STRENGTH + state[G_ATTACKS_DONE]])
            state[G_ATTACKS_DONE] += 1


@njit
def option_table(state, opt_sym):
    """Greedy value of each scoring option with free dice and 0..5 swords.

    Returns ``(feasible[28], values[28, 6], final_coins[28], future[28])``: the option
    rolled out on a copy whose five dice all show its symbol, then ``s`` swords marked.
    """
    seat = state[G_ACTIVE]
    base = player_base(seat)
    ctx = context(state, seat)
    feasible = np.zeros(NUM_OPTIONS, dtype=np.bool_)
    values = np.full((NUM_OPTIONS, NUM_DICE + 1), NEG)
    final_coins = np.zeros(NUM_OPTIONS, dtype=np.int64)
    future = np.zeros(NUM_OPTIONS)
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    hyp_mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for face in range(LOG, HEAD + 1):
        hyp = state.copy()
        hyp[H_PHASE] = PH_SCORE
        hyp[H_TO_MOVE] = seat
        for die in range(NUM_DICE):
            hyp[G_DICE + die] = face
        legal_mask(hyp, hyp_mask)
        for o in range(NUM_OPTIONS):
            if opt_sym[o] != face and not (o == 0 and face == LOG):
                continue
            action = A_PASS + o
            if not hyp_mask[action]:
                continue
            feasible[o] = True
            child = hyp.copy()
            apply_action(child, action)
            rollout(child, seat, ctx, mask)
            final_coins[o] = child[base + P_COINS]
            future[o] = _future(child, seat, ctx)
            for swords in range(NUM_DICE + 1):
                marked = child.copy()
                _mark_swords(marked, swords)
                values[o, swords] = static_eval(marked, seat, ctx)
    return feasible, values, final_coins, future


@njit
def dice_values(coins, feasible, values, final_coins, future, opt_sym, opt_k, opt_extra,
                dice_states):
    """Greedy value of stopping with each of the 252 dice states (best legal option)."""
    out = np.full(dice_states.shape[0], NEG)
    for s in range(dice_states.shape[0]):
        swords = dice_states[s, SWORD]
        best = values[0, swords]                           # PASS is always legal
        for o in range(1, opt_sym.shape[0]):
            if not feasible[o] or opt_k[o] > NUM_DICE - swords:
                continue
            changes = max(0, opt_k[o] - dice_states[s, opt_sym[o]])
            if 2 * changes + opt_extra[o] > coins:
                continue
            value = values[o, swords]
            if changes:
                value += (_coin_part(final_coins[o] - 2 * changes, future[o])
                          - _coin_part(final_coins[o], future[o]))
            best = max(best, value)
        out[s] = best
    return out


@njit
def _kept_values(v, kept_codes, kept_sizes, out_codes, out_probs, out_n, index_of_code):
    """Expected ``v`` after re-rolling, for each kept multiset K of 0..4 dice.

    Re-roll values depend only on what is kept, so the 210 kept multisets replace the
    252 x 31 (state, mask) pairs: ``sum_o P(o) v(K + o)`` over the outcomes of 5 - |K| dice.
    """
    kept = np.empty(kept_codes.shape[0])
    for i in range(kept_codes.shape[0]):
        code = kept_codes[i]
        m = NUM_DICE - kept_sizes[i]
        total = 0.0
        for j in range(out_n[m]):
            total += out_probs[m, j] * v[index_of_code[code + out_codes[m, j]]]
        kept[i] = total
    return kept


@njit
def reroll_values(v0, current, rolls_left, kept_of, kept_codes, kept_sizes, out_codes,
                  out_probs, out_n, index_of_code):
    """PR-7: value of stopping (index 0) and of each canonical re-roll mask (1..31).

    ``kept_of[s, mask]`` is the kept multiset of dice state s under a canonical mask
    (-1 for mask 0 and for non-canonical masks).
    """
    v = v0
    if rolls_left >= 2:
        kept = _kept_values(v0, kept_codes, kept_sizes, out_codes, out_probs, out_n,
                            index_of_code)
        v = v0.copy()
        for s in range(kept_of.shape[0]):
            for reroll in range(1, NUM_MASKS):
                if kept_of[s, reroll] >= 0:
                    v[s] = max(v[s], kept[kept_of[s, reroll]])
    kept = _kept_values(v, kept_codes, kept_sizes, out_codes, out_probs, out_n,
                        index_of_code)
    out = np.full(NUM_MASKS, NEG)
    out[0] = v0[current]
    for reroll in range(1, NUM_MASKS):
        if kept_of[current, reroll] >= 0:
            out[reroll] = kept[kept_of[current, reroll]]
    return out


# --- the agent -------------------------------------------------------------------------------

class SaintMaloGreedyAgent(Agent):
    """Greedy on the immediate score (see the module docstring); ``act`` ~0.1-1 ms."""

    name = "greedy"
    TOLERANCE = 1e-9

    def __init__(self, seed: int | None = None):
        super().__init__(seed)
        self._table_key: bytes | None = None
        self._table = None

    def act(self, env) -> int:
        state = env.state
        if int(state[H_GAME_ID]) != GAME_ID:
            raise ValueError(f"{type(self).__name__} plays saint_malo, not game {state[H_GAME_ID]}")
        mask = env.action_mask()
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError(f"no legal action for {env.agent_selection} (is the game over?)")
        if legal.size == 1:
            return int(legal[0])
        phase = int(state[H_PHASE])
        if phase == PH_ROLL_DECISION:
            values = np.full(NUM_ACTIONS, NEG)
            values[:NUM_MASKS] = self._roll_values(state)
        else:
            values = action_values(state, mask)
        values = np.where(mask.astype(bool), values, -np.inf)
        best = values.max()
        tied = np.flatnonzero(values >= best - self.TOLERANCE)
        if phase == PH_ROLL_DECISION and values[0] >= best - self.TOLERANCE:
            return 0                                        # stopping wins a tie
        if tied.size == 1:
            return int(tied[0])
        return int(self.rng.choice(tied))

    def _roll_values(self, state: np.ndarray) -> np.ndarray:
        """Expected greedy value of stopping / each re-roll mask (index = action 0..31)."""
        key = self._board_key(state)
        if key != self._table_key:
            self._table = option_table(state, OPT_SYM)
            self._table_key = key
        feasible, values, final_coins, future = self._table
        coins = int(state[player_base(int(state[G_ACTIVE])) + P_COINS])
        v0 = dice_values(coins, feasible, values, final_coins, future, OPT_SYM, OPT_K,
                         OPT_EXTRA, DICE_STATES_ARR)
        dice = state[G_DICE:G_DICE + NUM_DICE]
        current = int(INDEX_OF_CODE[code_of_faces(dice)])
        rolls_left = MAX_ROLLS - int(state[G_ROLLS_USED])
        return reroll_values(v0, current, rolls_left, KEPT_OF, KEPT_CODES, KEPT_SIZES,
                             OUT_CODES, OUT_PROBS, OUT_N, INDEX_OF_CODE)

    @staticmethod
    def _board_key(state: np.ndarray) -> bytes:
        """The state without the dice: the option table is the same for every roll."""
        key = state.copy()
        key[G_DICE:G_DICE + NUM_DICE] = 0
        key[G_ROLLS_USED] = 0
        key[H_PLY] = 0
        return key.tobytes()


__all__ = ["SaintMaloGreedyAgent", "action_values", "option_table", "static_eval"]
