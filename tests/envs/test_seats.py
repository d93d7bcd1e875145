"""The shared seat rotation of the observation kernels (``envs/core/seats.py``)."""

from __future__ import annotations

from meeplezoo.envs.core.seats import relative_seat, seat_after


def test_seat_rotation_matches_modular_arithmetic_and_inverts():
    for n in range(1, 7):
        for seat in range(n):
            for other in range(n):
                rel = relative_seat(other, seat, n)
                assert rel == (other - seat) % n
                assert seat_after(seat, rel, n) == other
            assert relative_seat(seat, seat, n) == 0      # the observer comes first
