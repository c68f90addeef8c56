"""Time controls over the wire (SPEC.md 8.2, docs/service.md "Time controls"): CreateGame's
``TimeControl`` into genesis's clock, and each seat's time left for GetState and Watch."""
from __future__ import annotations

from afteraction.engine import endings
from afteraction.v1 import game_service_pb2 as gs


def control_of(request) -> dict | None:
    """Genesis's clock from a CreateGameRequest (BAD_CLOCK outside the bounds); None: no time
    control (the server's default abandonment limit still applies)."""
    if not request.HasField("clock"):
        return None
    c = request.clock
    return endings.control(c.decision_ms, c.total_ms, c.abandon_ms)


def clocks_pb(ref, now: int) -> gs.Clocks | None:
    """Every seat's time left at the server's ``now``; None for a game without a clock."""
    c = ref.clock
    if c is None:
        return None
    pending = endings.pending_seat(ref)
    at = max(now, c.last_at)
    out = gs.Clocks(now_ms=now, abandon_left_ms=0 if ref.ended else max(c.abandon_deadline() - at, 0))
    for s, (left, running, total) in c.left(now, ref.seat_order, None if ref.ended else pending).items():
        out.seats.add(seat=s, left_ms=left, running=running, total_left_ms=total)
    return out
