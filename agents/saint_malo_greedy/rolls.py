"""Roll decisions: greedy values of all 252 dice states and the optimal keep (PR-7)."""

from __future__ import annotations

import numpy as np

from ...envs.core.contract import H_NUM_PLAYERS, H_PHASE, H_TO_MOVE
from ...envs.core.jit import njit
from ...envs.saint_malo.data import (
    A_CHARACTER,
    A_PASS,
    C_BOXES_PER_PLAYER,
    C_STRENGTH,
    CHARACTER_LEVEL,
    CRATE_FACE,
    CROSS,
    G_ACTIVE,
    G_ATTACKS_DONE,
    G_DICE,
    G_PIRATE_BOXES,
    HEAD,
    LOG,
    NUM_ACTIONS,
    NUM_ATTACKS,
    NUM_DICE,
    P_COINS,
    PH_SCORE,
    SWORD,
    WALL_FACE,
)
from ...envs.saint_malo.dice import (
    DICE_SORTED,
    DICE_STATES,
    MAX_OUTCOMES,
    OUTCOME_CODES,
    OUTCOME_WAYS,
    STATE_INDEX_OF_CODE,
)
from ...envs.saint_malo.masks import legal_mask, player_base
from ...envs.saint_malo.rules import apply_action, pirate_attack
from .evaluation import NEG, _coin_part, _future, context, static_eval
from .turn import rollout

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
