"""A finished hand re-played for one viewer, step by step (the replay page).

Each step is the deal or one recorded entry (an action, a timeout, a bot's choice, someone
sitting down or standing up), with the events it produced as the viewer may read them
(:func:`app.review.history.filter_event`) and the table after it as the viewer was entitled to see
it: the engine's own :meth:`~app.games.core.game.Game.view` for the viewer's seat, the code the
live table sends (:mod:`app.review.replay`). The view is dressed as the live table dresses it (the
players' names, ``you``, ``hand_id``; no ``legal``, no ``deadline``), so the table page's
drawing code draws it unchanged.
"""

from __future__ import annotations

from typing import Any

from app.games.core.accounts import owner_of
from app.games.core.registry import game_class
from app.games.core.views import View
from app.review.fairness import shuffles_in
from app.review.history import filter_event, hand_result
from app.review.replay import Step, start

SCHEMA_VERSION = 1


def shoes_of(record: dict[str, Any]) -> list[tuple[str, bool]]:
    """The commitments of the shoes the hand drew from (public from the moment each shoe was
    shuffled): in play at the start, then those shuffled during the hand."""
    out: list[tuple[str, bool]] = []
    private = record.get("private") or {}
    for stock in shuffles_in(private.get("start_state")):
        shuffle = stock.get("shuffle")
        if isinstance(shuffle, dict) and shuffle.get("commit"):
            out.append((str(shuffle["commit"]), False))
    for commit in (record.get("shuffles") or {}).get("new") or []:
        out.append((str(commit), True))
    return out


def seat_listing(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Everyone who sat during the hand: name, stacks before and after, and net result."""
    after = {int(s["seat"]): s for s in record.get("seats_after") or []}
    out = []
    for seat in record.get("seats_before") or []:
        number = int(seat["seat"])
        out.append(
            {
                "seat": number,
                "player_id": seat.get("player_id"),
                "name": seat.get("name"),
                "bot": bool(seat.get("bot")),
                "stack_before": seat.get("stack"),
                "stack_after": after.get(number, {}).get("stack"),
                "net": _own_net(record, number),
            }
        )
    return out


def _own_net(record: dict[str, Any], seat: int) -> int:
    """What the seat's player won or lost: transfers between the player's own accounts
    (stack, bets in front, prison) do not count (as :func:`app.runtime.records.net_by_seat`)."""
    total = 0
    for row in record.get("settlement") or []:
        source = owner_of(str(row.get("from", "")))
        target = owner_of(str(row.get("to", "")))
        if source == target:
            continue
        if source == seat:
            total -= int(row["amount"])
        if target == seat:
            total += int(row["amount"])
    return total


def describe(step: Step, names: dict[int, str]) -> str:
    """One line for a step: "Ada: bet 20", "Basil (timer): stand", "Cleo: stand, concealing
    the first card", "Clio sits down with 300 chips"."""
    entry = step.entry
    if entry is None:
        return "The deal"
    seat = int(entry["seat"])
    who = names.get(seat, f"Seat {seat}")
    roster = entry.get("roster")
    if roster == "sit":
        return f"{who} sits down with {entry.get('amount')} chips"
    if roster == "top_up":
        return f"{who} adds {entry.get('amount')} chips"
    if roster == "leave":
        return f"{who} stands up"
    by = entry.get("by")
    tag = {"timeout": " (timer)", "bot": " (bot)"}.get(str(by), "")
    if tag and tag.strip() in who:  # a bot's name already says so
        tag = ""
    return f"{who}{tag}: {action_text(entry.get('action') or {})}"


def roster_amount(entry: dict[str, Any] | None) -> int | None:
    """The chips a change of the roster brought (a sit, a top-up), for the page to word the
    step in its reader's language as :func:`describe` words it in English; None otherwise."""
    if entry is None or entry.get("roster") is None or entry.get("amount") is None:
        return None
    return int(entry["amount"])


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
PARAM_ORDER = ("amount", "chance", "stake", "to")
"""Parameters read in this order, the others after them in the action's: "stake 20 on rouge"."""


def action_text(action: dict[str, Any]) -> str:
    """An action in words: its kind, then each parameter as a phrase (each game's actions in
    docs/protocol.md): "bet 20", "stake 20 on rouge", "stand, concealing the first card",
    "draw from the stock", "cut at 17", "discard 6D, 2S". A parameter this does not know
    reads "name value"."""
    params = {k: v for k, v in action.items() if k != "kind" and v is not None}
    text = str(action.get("kind", "?")).replace("_", " ")
    names = [n for n in PARAM_ORDER if n in params] + [n for n in params if n not in PARAM_ORDER]
    for name in names:
        text += _phrase(name, params[name], amount="amount" in params)
    return text


def _phrase(name: str, value: Any, *, amount: bool) -> str:
    """One parameter's words, with the space or comma that joins them to what comes before."""
    plain = _param_text(value)
    if name in ("amount", "pattern", "cards"):  # "bet 20", "deal 2-1", "discard 6D, 2S"
        return f" {plain}"
    if name == "chance":  # Trente et Quarante: "stake 20 on rouge", "insure the stake on noir"
        return f" on {plain}" if amount else f" the stake on {plain}"
    if name == "conceal":  # Greek 31: the index of a card in the dealer's hand
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(ORDINALS):
            return f", concealing the {ORDINALS[value]} card"
        return f", concealing card {plain}"
    if name == "source":  # En og tredive
        return " from the discard pile" if value == "discard" else f" from the {plain}"
    if name == "position":  # En og tredive's cut
        return f" at {plain}"
    if name == "stake":  # Trente et Quarante: "move prison stake 3 to noir"
        return f" stake {plain}"
    if name == "to":
        return f" to {plain}"
    return f" {name.replace('_', ' ')} {plain}"


def _param_text(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def dress(
    view: View,
    record: dict[str, Any],
    viewer: int | None,
    *,
    over: bool,
    table_name: str | None,
    people: dict[int, dict[str, Any]],
    max_seats: int,
    table_seats: int,
) -> View:
    """The engine's view with what the live table adds (names, ``you``, ``hand_id``): the
    players' names go on every list of seat entries (``seats``, and Trente et Quarante's
    ``bettors`` with the standing bettors too)."""
    for value in list(view.values()):
        if not isinstance(value, list):
            continue
        for seat in value:
            if not isinstance(seat, dict) or not isinstance(seat.get("seat"), int):
                continue
            if "stack" not in seat:  # a list that names seats but is not of seats
                continue
            info = people.get(int(seat["seat"]))
            if info is not None:
                seat["player_id"] = info.get("player_id")
                seat["name"] = info.get("name")
                seat["bot"] = bool(info.get("bot"))
                seat["connected"] = True
                seat["leaving"] = False
    view.update(
        table_id=record.get("table_id"),
        game=record.get("game"),
        hand_id=None if over else record.get("hand_id"),
        you=viewer,
        legal=[],
        deadline=None,
        table={
            "name": table_name,
            "status": "open",
            "pause_reason": None,
            "max_seats": max_seats,
            "table_seats": table_seats,
            "free_seats": [],
            "standing_room": 0,
            "buy_in": None,
            "over": None,
            "over_coded": None,
            "message": None,
            "can_top_up": False,
            "spectators": 0,
        },
    )
    return view


def replay_for(
    record: dict[str, Any], viewer: int | None, *, table_name: str | None = None
) -> dict[str, Any]:
    """The whole hand for ``viewer`` (a seat of the hand, or None: a spectator's view)."""
    replay = start(record)
    people = {int(s["seat"]): s for s in record.get("seats_before") or []}
    for s in record.get("seats_after") or []:
        people.setdefault(int(s["seat"]), s)
    names = {seat: str(info.get("name") or f"Seat {seat}") for seat, info in people.items()}
    entries = len(replay.entries)
    steps = []
    for step in replay.run():
        view = replay.engine.view(viewer)
        over = step.index == entries
        stamp = step.entry.get("t") if step.entry is not None else None
        steps.append(
            {
                "index": step.index,
                "t": stamp,
                "version": step.version,
                "label": describe(step, names),
                "seat": step.entry.get("seat") if step.entry is not None else None,
                "by": step.entry.get("by") if step.entry is not None else None,
                "action": step.entry.get("action") if step.entry is not None else None,
                "roster": step.entry.get("roster") if step.entry is not None else None,
                "amount": roster_amount(step.entry),
                "events": [filter_event(e, viewer) for e in step.events],
                "view": dress(
                    view,
                    record,
                    viewer,
                    over=over,
                    table_name=table_name,
                    people=people,
                    max_seats=replay.engine.max_seats,
                    table_seats=replay.engine.table_seats,
                ),
            }
        )
    cls = game_class(str(record["game"]))
    return {
        "schema_version": SCHEMA_VERSION,
        "hand_id": record.get("hand_id"),
        "table_id": record.get("table_id"),
        "table_name": table_name,
        "game": record.get("game"),
        "game_title": cls.title,
        "number": record.get("number"),
        "started_at": record.get("started_at"),
        "ended_at": record.get("ended_at"),
        "options": record.get("options"),
        "viewer_seat": viewer,
        "seats": seat_listing(record),
        "settlement": record.get("settlement") or [],
        "result": hand_result(record),
        "summary": record.get("summary") or {},
        "shuffles": record.get("shuffles") or {},
        "shoes": [{"commit": c, "made_in_this_hand": made} for c, made in shoes_of(record)],
        "steps": steps,
    }
