"""Hansa's hot kernels against slow, obvious reference code on positions from random games:
the legal mask (spec §14 table), plurality and buy price, route moves and their cost, sale
resolution, scoring, and the exact chance distribution of a draw."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core.contract import H_NUM_PLAYERS, H_PHASE, H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.rng import new_rng
from meeplezoo.envs.hansa import data as D
from meeplezoo.envs.hansa import generate_board, rules
from meeplezoo.envs.hansa.chance import chance_outcomes, sample_chance
from meeplezoo.envs.hansa.masks import plurality
from meeplezoo.envs.hansa.options import make_config


def pb(seat: int) -> int:
    return D.PLAYERS_BASE + seat * D.PLAYER_SIZE


def ref_plurality(state, city) -> int:
    counts = [int(state[pb(s) + D.P_STALLS + city]) for s in range(int(state[H_NUM_PLAYERS]))]
    best = max(counts)
    return counts.index(best) if best > 0 and counts.count(best) == 1 else -1


def ref_legal(state) -> set[int]:
    """Spec §14's table, written out naively."""
    seat, phase = int(state[H_TO_MOVE]), int(state[H_PHASE])
    b = pb(seat)
    hand = [int(v) for v in state[b + D.P_HAND:b + D.P_HAND + 18]]
    pending = [int(v) for v in state[D.G_PENDING:D.G_PENDING + 18]]
    colour_held = [sum(hand[3 * c:3 * c + 3]) for c in range(6)]
    money, supply = int(state[b + D.P_MONEY]), int(state[b + D.P_STALL_SUPPLY])
    ship = int(state[D.G_SHIP])
    out: set[int] = set()
    if phase == D.PH_INIT_PLACE:
        used = int(state[b + D.P_INIT_USED])
        out = {D.A_INIT_PLACE + c for c in range(9) if c != D.CPH and not used >> c & 1}
    elif phase == D.PH_REFILL:
        spaces = [int(state[D.G_WAREHOUSE + 2 * c + j]) for c in range(9)
                  for j in range(int(state[D.C_SPACES + c]))]
        undrawn = int(state[D.G_SUPPLY:D.G_SUPPLY + 18].sum())
        if undrawn and -1 in spaces:
            out.add(D.A_REFILL)
        if not (undrawn and all(s == -1 for s in spaces)):
            out.add(D.A_SKIP_REFILL)
    elif phase == D.PH_ACTIONS:
        out.add(D.A_END)
        if money >= 1:
            out |= {D.A_MOVE + c for c in range(9) if state[D.C_EXITS + ship] >> c & 1}
        if not state[D.G_ACTED]:
            price = 0 if ref_plurality(state, ship) == seat else 1
            for j in range(int(state[D.C_SPACES + ship])):
                if state[D.G_WAREHOUSE + 2 * ship + j] >= 0 and money >= price:
                    out.add(D.A_BUY + j)
            for c in range(6):
                for k in (1, 2, 3):
                    if state[D.C_PLACE_EXACT]:
                        ok = hand[3 * c + k - 1] > 0 and supply >= 1
                    else:
                        ok = sum(hand[3 * c + k - 1:3 * c + 3]) > 0 and supply >= k
                    if ok:
                        out.add(D.A_PLACE + 3 * c + k - 1)
            if state[b + D.P_STALLS + ship] >= 1:
                out |= {D.A_SELL_MARK + t for t in range(18)
                        if hand[t] >= 1 and colour_held[t // 3] >= 2}
    elif phase == D.PH_SELL:
        whole = bool(state[D.C_SELL_WHOLE])
        for t in range(18):
            c = t // 3
            marked = sum(pending[3 * c:3 * c + 3])
            if colour_held[c] >= 2 and hand[t] - pending[t] >= 1 and not (whole and marked):
                out.add(D.A_SELL_MARK + t)
        if all(sum(pending[3 * c:3 * c + 3]) != 1 for c in range(6)):
            out.add(D.A_SELL_COMMIT)
    elif phase == D.PH_TAX:
        out = {D.A_TAX + c for c in range(6) if colour_held[c] > 0}
    return out


def ref_score(state, seat) -> int:
    b = pb(seat)
    players = int(state[H_NUM_PLAYERS])
    total = int(state[b + D.P_HAND:b + D.P_HAND + 18].sum())
    total += sum(int(state[b + D.P_SOLD + t]) * (1 + t % 3 + 1) for t in range(18))
    for city in range(9):
        if state[b + D.P_STALLS + city] > 0:
            others = [s for s in range(players) if s != seat and state[pb(s) + D.P_STALLS + city]]
            total += 2 if others else 4
    return total


def ref_after_sale(state) -> list[list[int]]:
    """Every hand after the pending sale is committed (HS-8.7, A-12)."""
    seat = int(state[D.G_ACTIVE])
    pending = state[D.G_PENDING:D.G_PENDING + 18]
    hands = [[int(v) for v in state[pb(s) + D.P_HAND:pb(s) + D.P_HAND + 18]]
             for s in range(int(state[H_NUM_PLAYERS]))]
    hands[seat] = [h - int(p) for h, p in zip(hands[seat], pending, strict=True)]
    for colour in {t // 3 for t in range(18) if pending[t]}:
        for other, hand in enumerate(hands):
            if other != seat:
                lowest = next((t for t in range(3 * colour, 3 * colour + 3) if hand[t]), None)
                if lowest is not None:
                    hand[lowest] -= 1
    return hands


def positions(players, games, seed, **options):
    """Every decision state (copied) of random games, with the action taken there."""
    rng = new_rng(seed)
    policy = np.random.default_rng(seed)
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
    for game in range(games):
        rules.env_reset(state, players, make_config(**options), game % players, rng, mask)
        while int(state[H_TO_MOVE]) != TERMINAL:
            action = int(policy.choice(np.flatnonzero(mask)))
            yield state.copy(), mask.copy(), action
            rules.env_step(state, action, rng, mask)


OPTION_SETS = [{}, {"place_exact": True}, {"sell_whole_colour": True}]


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernels_match_reference_on_random_positions(players, options):
    scores = np.zeros(players, dtype=np.int64)
    board = generate_board(players) if options else None
    sales = 0
    for state, mask, action in positions(players, 6, seed=players, board=board, **options):
        assert set(np.flatnonzero(mask).tolist()) == ref_legal(state)
        for city in range(9):
            assert plurality(state, city) == ref_plurality(state, city)
        rules.scores(state, scores)
        assert scores.tolist() == [ref_score(state, s) for s in range(players)]
        if action == D.A_SELL_COMMIT:
            expected = ref_after_sale(state)
            after = state.copy()
            rules.apply_action(after, action)
            got = [after[pb(s) + D.P_HAND:pb(s) + D.P_HAND + 18].tolist() for s in range(players)]
            assert got == expected
            sales += 1
        if D.A_MOVE <= action < D.A_REFILL:
            after = state.copy()
            rules.apply_action(after, action)
            seat = int(state[H_TO_MOVE])
            assert after[pb(seat) + D.P_MONEY] == state[pb(seat) + D.P_MONEY] - 1
            assert after[D.G_SHIP] == action - D.A_MOVE and after[D.G_ACTED] == 0
    assert sales > 0


def test_chance_distribution_is_the_undrawn_multiset():
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    rules.init_state(state, 2, make_config(), 0)
    codes = np.zeros(18, dtype=np.int64)
    probs = np.zeros(18)
    count = chance_outcomes(state, codes, probs)
    assert count == 12                                       # 4 colours x 3 barrels
    assert np.isclose(probs[:count].sum(), 1.0)
    assert dict(zip(codes[:count].tolist(), (probs[:count] * 52).round().tolist(),
                    strict=True)) == {t: float((4, 5, 4)[t % 3]) for t in range(12)}
    rng = new_rng(3)
    draws = np.bincount([sample_chance(state, rng) for _ in range(20_000)], minlength=18)
    assert np.allclose(draws[:12] / 20_000, probs[:count], atol=0.01) and draws[12:].sum() == 0


def ref_route_costs(board, start) -> list[int]:
    costs = {start: 0}
    layer = [start]
    while layer:
        nxt = []
        for city in layer:
            for b in board.exits[city]:
                if b not in costs:
                    costs[b] = costs[city] + 1
                    nxt.append(b)
        layer = nxt
    return [costs.get(c, -1) for c in range(9)]


def test_route_costs_match_breadth_first_search_on_many_boards():
    from meeplezoo.envs.hansa.board import load_board
    from meeplezoo.envs.hansa.masks import route_costs

    out = np.zeros(9, dtype=np.int64)
    for seed in range(80):
        doc = None if seed == 0 else generate_board(seed)
        state = np.zeros(D.STATE_SIZE, dtype=np.int64)
        rules.init_state(state, 2, make_config(board=doc), 0)
        board = load_board(doc)
        for start in range(9):
            route_costs(state, start, out)
            assert out.tolist() == ref_route_costs(board, start)
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    rules.init_state(state, 2, make_config(), 0)
    route_costs(state, D.CPH, out)
    assert out[D.TON] == 1 and out[D.STO] == 2 and out[D.RIG] == 4 and out[D.AAL] == 2
