"""A hand's result, as the table tells it when the hand ends and review shows it later
(docs/protocol.md §6.6): what each player won or lost, and why, from the hand's movements
between engine accounts.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from app.games.core.accounts import owner_of
from app.games.core.coded import said_json


def owner_seat(account: str) -> int | None:
    """The seat whose player owns an engine account (``seat:3``, ``bets:3``), else None."""
    return owner_of(account)


def hand_result(
    hand_id: str,
    number: int,
    moves: list[tuple[str, str, int, str]],
    people: dict[int, tuple[str, str]],
    seats: set[int],
) -> dict[str, Any]:
    """What each player won or lost in a hand, and why (docs/protocol.md §6.6).

    ``moves`` are the hand's movements as ``(from, to, amount, reason)`` between engine
    accounts; ``people`` names the player of each seat (``player_id``, ``name``); ``seats``
    are the seats that took part (listed even when nothing moved). A player's net counts every
    account they own (stack, bets, prison), as :func:`app.runtime.records.net_by_seat` does,
    so a move between two of their own accounts counts nothing; ``lines`` are the movements'
    reasons, each summed per player in the order they first happened (a reason that sums to
    nothing is left out), and they add up to ``net``; a coded reason (an engine's, app/games/
    core/coded.py) is sent with its ``reason_coded`` for each reader's page to word."""
    lines: dict[int, dict[str, int]] = defaultdict(dict)
    for source, target, amount, reason in moves:
        giver, taker = owner_seat(source), owner_seat(target)
        if giver == taker:
            continue
        for seat, signed_amount in ((giver, -amount), (taker, amount)):
            if seat is not None:
                parts = lines[seat]
                parts[reason] = parts.get(reason, 0) + signed_amount
    players = []
    for seat in sorted(seats | set(lines)):
        if seat not in people:
            continue
        parts = lines.get(seat, {})
        player_id, name = people[seat]
        players.append(
            {
                "seat": seat,
                "player_id": player_id,
                "name": name,
                "net": sum(parts.values()),
                "lines": [{**said_json("reason", r), "amount": a} for r, a in parts.items() if a],
            }
        )
    return {"hand_id": hand_id, "number": number, "players": players}
