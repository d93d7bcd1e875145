"""A seeded generator of random valid Serenissima maps (research on generalisation).

Each map has the shape of the real board as far as it is known (spec §3.2): 20 sea zones,
19 ports (one zone of open sea), 5 start ports of size 5, every one of wood, stone,
marble and wine produced by at least two ports (so closing one of each for 2/3 players
leaves the good in play), gold and spices by at least one, sale values 2..6 ascending
and the placeholder's scoring scale.  Zones are points in the unit square joined to
their nearest neighbours (a planar-looking sea), always connected.  The same seed gives
the same map.
"""

from __future__ import annotations

import numpy as np

from . import data as D
from .maps import PLACEHOLDER_SCALE, validate_map


def generate_map(seed: int, num_zones: int = 20, num_ports: int = 19,
                 num_start: int = 5) -> dict:
    if not (D.MAX_PLAYERS <= num_start <= num_ports < num_zones + 1
            and num_zones <= D.MAX_ZONES and num_ports <= D.MAX_PORTS):
        raise ValueError("need 4 <= num_start <= num_ports <= num_zones <= 24")
    rng = np.random.default_rng(seed)
    xy = rng.uniform(0.05, 0.95, size=(num_zones, 2))
    dist = np.linalg.norm(xy[:, None] - xy[None], axis=2)
    adj = np.zeros((num_zones, num_zones), dtype=bool)
    # A minimum spanning tree (Prim) makes the sea connected; then each zone joins its
    # nearest few neighbours for a sea with loops (degrees about 2..6, like Appendix A).
    inside = {0}
    while len(inside) < num_zones:
        best = None
        for a in inside:
            for b in range(num_zones):
                if b not in inside and (best is None or dist[a, b] < best[0]):
                    best = (dist[a, b], a, b)
        _, a, b = best
        adj[a, b] = adj[b, a] = True
        inside.add(b)
    for z in range(num_zones):
        extra = int(rng.integers(1, 4))
        for n in np.argsort(dist[z])[1:1 + extra]:
            if adj[z].sum() < 6 and adj[n].sum() < 6:
                adj[z, n] = adj[n, z] = True
    port_zones = rng.permutation(num_zones)[:num_ports]
    goods = [D.WOOD, D.WOOD, D.STONE, D.STONE, D.MARBLE, D.MARBLE, D.WINE, D.WINE, D.GOLD,
             D.SPICES]
    goods += list(rng.integers(0, D.NUM_GOODS, size=max(0, num_ports - len(goods))))
    goods = [int(g) for g in rng.permutation(goods[:num_ports])]
    while True:     # keep a non-start producer of each closable good (SE-12.3.3)
        starts = set(int(i) for i in rng.permutation(num_ports)[:num_start])
        if all(any(goods[p] == good and p not in starts for p in range(num_ports))
               for good in D.CLOSE_GOODS):
            break
    zones = [{"name": f"S{z + 1}", "adjacent": [f"S{n + 1}" for n in np.flatnonzero(adj[z])],
              "xy": [round(float(v), 3) for v in xy[z]]} for z in range(num_zones)]
    ports = []
    for p in range(num_ports):
        size = 5 if p in starts else int(rng.integers(3, 6))
        ports.append({"name": f"P{p + 1}", "zone": f"S{int(port_zones[p]) + 1}",
                      "good": D.GOOD_NAMES[goods[p]], "size": size, "start": p in starts,
                      "slot_values": list(range(2, size + 2)),
                      "score": list(PLACEHOLDER_SCALE[:size + 1])})
    spec = {"map_id": f"generated_{seed}", "name": f"generated map (seed {seed})",
            "zones": zones, "ports": ports,
            "track": {"last": 10, "scoring_4p": [4, 7, 10], "start_23p": 0,
                      "scoring_23p": [4, 7, 10]}}
    validate_map(spec)
    return spec
