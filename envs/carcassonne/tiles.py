"""The 72 base tiles and 18 Inns & Cathedrals tiles as data (spec §4 and §5, CA-4.1, CA-5.2).

Each tile type is written once, in canonical orientation (r = 0), in the spec's notation:
edge types N E S W and the segments in slot order (CA-3.7: monastery, cities, roads,
fields).  A segment is ``kind ports [+shield] [+inn] [+cathedral] [>k,l]`` where city and
road ports are sides (``N E S W``), field ports are half-edges (``Nw Ne En Es Se Sw Ws
Wn``, CA-3.3) and ``>k,l`` lists the city slots on the same tile the field borders
(CA-3.6, CA-12.3).  ``data.py`` compiles these rows into numpy tables; the tests check
every row for internal consistency (ports agree with edge types, counts, shields).
"""

from __future__ import annotations

# (id, JCloisterZone id, count, edges N E S W, distinct rotations, segments)
BASE_TILES = (
    ("A", "LR", 2, "FFRF", 4, ("monastery", "road S", "field Nw Ne En Es Se Sw Ws Wn")),
    ("B", "L", 4, "FFFF", 1, ("monastery", "field Nw Ne En Es Se Sw Ws Wn")),
    ("C", "Cccc+", 1, "CCCC", 1, ("city N E S W +shield",)),
    ("D", "RCr", 4, "CRFR", 4, ("city N", "road E W", "field En Wn >0", "field Es Se Sw Ws")),
    ("E", "C", 5, "CFFF", 4, ("city N", "field En Es Se Sw Ws Wn >0")),
    ("F", "CFc+", 2, "FCFC", 2, ("city E W +shield", "field Nw Ne >0", "field Se Sw >0")),
    ("G", "CFc.1", 1, "FCFC", 2, ("city E W", "field Nw Ne >0", "field Se Sw >0")),
    ("H", "CFC.2", 3, "CFCF", 2, ("city N", "city S", "field En Es Ws Wn >0,1")),
    ("I", "CC.2", 2, "CFFC", 4, ("city N", "city W", "field En Es Se Sw >0,1")),
    ("J", "CRr", 3, "CRRF", 4, ("city N", "road E S", "field En Sw Ws Wn >0", "field Es Se")),
    ("K", "RrC", 3, "CFRR", 4, ("city N", "road S W", "field En Es Se Wn >0", "field Sw Ws")),
    ("L", "CRRR", 3, "CRRR", 4, ("city N", "road E", "road S", "road W", "field En Wn >0",
                                 "field Es Se", "field Sw Ws")),
    ("M", "Cc+", 2, "CFFC", 4, ("city N W +shield", "field En Es Se Sw >0")),
    ("N", "Cc.1", 3, "CFFC", 4, ("city N W", "field En Es Se Sw >0")),
    ("O", "CcRr+", 2, "CRRC", 4, ("city N W +shield", "road E S", "field En Sw >0",
                                  "field Es Se")),
    ("P", "CcRr", 3, "CRRC", 4, ("city N W", "road E S", "field En Sw >0", "field Es Se")),
    ("Q", "Ccc+", 1, "CCFC", 4, ("city N E W +shield", "field Se Sw >0")),
    ("R", "Ccc", 3, "CCFC", 4, ("city N E W", "field Se Sw >0")),
    ("S", "CccR+", 2, "CCRC", 4, ("city N E W +shield", "road S", "field Se >0", "field Sw >0")),
    ("T", "CccR", 1, "CCRC", 4, ("city N E W", "road S", "field Se >0", "field Sw >0")),
    ("U", "RFr", 8, "FRFR", 2, ("road E W", "field Nw Ne En Wn", "field Es Se Sw Ws")),
    ("V", "Rr", 9, "FFRR", 4, ("road S W", "field Nw Ne En Es Se Wn", "field Sw Ws")),
    ("W", "RRR", 4, "FRRR", 4, ("road E", "road S", "road W", "field Nw Ne En Wn", "field Es Se",
                                "field Sw Ws")),
    ("X", "RRRR", 1, "RRRR", 1, ("road N", "road E", "road S", "road W", "field Nw Wn",
                                 "field Ne En", "field Es Se", "field Sw Ws")),
)

# CA-5.2: IE's fields are {Nw Wn}, {Ne En Sw Ws}, {Es Se}; IH's field 4 touches no edge.
EXPANSION_TILES = (
    ("IA", "Rr.i", 1, "FFRR", 4, ("road S W +inn", "field Nw Ne En Es Se Wn", "field Sw Ws")),
    ("IB", "RFr.i", 1, "FRFR", 2, ("road E W +inn", "field Nw Ne En Wn", "field Es Se Sw Ws")),
    ("IC", "RRR.i", 1, "FRRR", 4, ("road E +inn", "road S", "road W", "field Nw Ne En Wn",
                                   "field Es Se", "field Sw Ws")),
    ("ID", "LRFR", 1, "FRFR", 2, ("monastery", "road E", "road W", "field Nw Ne En Wn",
                                  "field Es Se Sw Ws")),
    ("IE", "RrRr", 1, "RRRR", 2, ("road N W", "road E S", "field Nw Wn", "field Ne En Sw Ws",
                                  "field Es Se")),
    ("IF", "CcR", 1, "CRFC", 4, ("city N W", "road E", "field En >0", "field Es Se Sw >0")),
    ("IG", "C!", 1, "CFFF", 4, ("city N", "field En Es >0", "field Se Sw Ws Wn >0")),
    ("IH", "CCCC", 1, "CCCC", 1, ("city N", "city E", "city S", "city W", "field >0,1,2,3")),
    ("II", "CRCR", 1, "CRCR", 2, ("city N", "city S", "road E", "road W", "field En >0",
                                  "field Es >1", "field Ws >1", "field Wn >0")),
    ("IJ", "CFR", 1, "CFRF", 4, ("city N", "road S", "field En Es Se >0", "field Sw Ws Wn >0")),
    ("IK", "Cccc.c", 2, "CCCC", 1, ("city N E S W +cathedral",)),
    ("IL", "CcRr+.i", 1, "CRRC", 4, ("city N W +shield", "road E S +inn", "field En Sw >0",
                                     "field Es Se")),
    ("IM", "RrC.i", 1, "CFRR", 4, ("city N", "road S W +inn", "field En Es Se Wn >0",
                                   "field Sw Ws")),
    ("IN", "RCc.i", 1, "CFRC", 4, ("city N W", "road S +inn", "field En Es Se >0", "field Sw >0")),
    ("IO", "CCC", 1, "CCFC", 4, ("city N", "city E", "city W", "field Se Sw >0,1,2")),
    ("IP", "CCc+", 1, "CFCC", 4, ("city N W +shield", "city S", "field En Es >0,1")),
    ("IQ", "CRcR+", 1, "RCRC", 2, ("city E W +shield", "road N", "road S", "field Nw >0",
                                   "field Ne >0", "field Se >0", "field Sw >0")),
)

ALL_TILES = BASE_TILES + EXPANSION_TILES
SIDE_LETTERS = "NESW"
HALF_EDGE_NAMES = ("Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn")
