"""Seat arithmetic every observation kernel shares: seats are rotated so the observer is 0.

Both helpers replace ``(a - b) % n`` for seats in ``0..n-1``: a compare and an add instead
of an integer division (tens of cycles, and observe kernels do it per piece on the board).
"""

from __future__ import annotations

from .jit import njit


@njit
def relative_seat(owner, seat, n):
    """``owner``'s seat counted from the observer ``seat`` (the observer is 0)."""
    rel = owner - seat
    return rel + n if rel < 0 else rel


@njit
def seat_after(seat, rel, n):
    """The seat ``rel`` places after ``seat`` (``0 <= rel < n``): the inverse of
    ``relative_seat``."""
    other = seat + rel
    return other - n if other >= n else other
