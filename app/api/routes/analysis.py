"""The analysis, served (docs/review.md, "The analysis"; docs/protocol/review.md §4.8): a
finished hand's decisions with each option's chances and expected chips, and an evening's
summary ("23 of 25 decisions best; 12 chips given up in expectation").

Who may read a hand's analysis is who may read its replay (:mod:`app.review.access`: the
hand's players and the host; 404 while it is played), and what they read of it is filtered
by :func:`app.analysis.hand.for_reader`: their own decisions, and another's only where every
card the analysis used was shown to them. The analysis is computed off the table's loop
(:mod:`app.runtime.analyses`): kept once computed; a hand not analysed yet is computed when
asked for, and the reader waits for it (503 with ``Retry-After`` only when too many wait).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request

from app.analysis import notes
from app.analysis.hand import VERSION, for_reader
from app.api.deps import ServicesDep, SessionDep
from app.api.errors import ApiRoute, errors
from app.api.locale import request_locale
from app.api.routes.hands import ReaderDep
from app.api.schemas.analysis import EveningAnalysis, HandAnalysis
from app.db.store import analyses as analyses_store
from app.db.store import hand_lists
from app.db.types import AsyncSession
from app.i18n.formats import number
from app.i18n.messages import N_, Text, localize, said
from app.review import access, lists
from app.review.access import Reader
from app.review.history import viewer_seat
from app.review.steps import action_text
from app.runtime.analyses import Busy, NotAnalysable
from app.services import Services

router = APIRouter(
    tags=["review"], route_class=ApiRoute, responses=errors(401, 403, 404, 409, 422, 503)
)

MAX_EVENING_HANDS = 500
"""The newest hands an evening's summary counts at most."""
NO_ANALYSIS = N_("this hand has no analysis")


# --------------------------------------------------------------------------- words


def chips_in_words(amount: float) -> str:
    """``12 chips``, ``1 chip``, ``0.35 chips``: chips given up, to a sensible precision."""
    amount = max(0.0, amount)
    if amount >= 10:
        text = f"{amount:.0f}"
    elif amount >= 1:
        text = f"{amount:.1f}".rstrip("0").rstrip(".")
    else:
        text = f"{amount:.2f}".rstrip("0").rstrip(".")
    return f"{text} chip" if text == "1" else f"{text} chips"


def tally_words(decisions: int, best: int, given_up: float) -> str:
    """ "23 of 25 decisions best; 12 chips given up in expectation"."""
    if decisions == 0:
        return "No decision analysed"
    head = f"{best} of {decisions} decision{'s' if decisions != 1 else ''} best"
    if given_up < 0.005:
        return f"{head}; nothing given up in expectation"
    return f"{head}; {chips_in_words(given_up)} given up in expectation"


def tally(decisions: int, best: int, given_up: float) -> dict[str, Any]:
    return {
        "decisions": decisions,
        "best": best,
        "given_up": round(given_up, 4),
        "text": tally_words(decisions, best, given_up),
    }


def note_words(note: str | None, locale: str) -> str | None:
    """A decision's note (:mod:`app.analysis.notes`) in ``locale``, its numbers as the
    language writes them; a note the notes do not list, as it is (English)."""
    message = notes.worded(note)
    if isinstance(message, Text):
        figures = {name: number(value, locale) for name, value in message.values.items()}
        message = Text(message.msgid, **figures)
    return localize(message, locale)


# --------------------------------------------------------------------------- one hand


def _seat_people(record: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Who sat in each seat during the hand (as it began, then those who sat down in it)."""
    out: dict[int, dict[str, Any]] = {}
    for key in ("seats_before", "seats_after"):
        for seat in record.get(key) or []:
            if isinstance(seat, dict) and "seat" in seat:
                out.setdefault(int(seat["seat"]), seat)
    return out


async def kept_or_computed(
    services: Services, session: AsyncSession, hand_id: str, record: dict[str, Any]
) -> dict[str, Any]:
    """The hand's analysis (every decision, unfiltered): as kept, or computed now."""
    kept = await analyses_store.stored_analysis(session, hand_id)
    if kept is not None and kept[0] == VERSION:
        return kept[1]
    await session.close()  # no connection held while the analysis is computed
    try:
        return await services.analyses.analysis_of(hand_id, record)
    except Busy as busy:
        raise HTTPException(
            503, said(busy), headers={"Retry-After": str(busy.retry_after)}
        ) from None
    except NotAnalysable as why:
        raise HTTPException(
            409, Text(N_("this hand has no analysis: {why}"), why=said(why))
        ) from None


@router.get("/api/hands/{hand_id}/analysis", response_model=HandAnalysis)
async def hand_analysis(
    hand_id: str,
    request: Request,
    session: SessionDep,
    reader: ReaderDep,
    services: ServicesDep,
) -> dict[str, Any]:
    """Every decision of a finished hand, each option with its chances and expected chips,
    as the reader may read them (their own decisions; another's where every card used was
    shown to them), and each seat's summary; each decision's note also in the reader's
    language (``note_words``)."""
    hand = await access.finished_hand(session, hand_id, reader)
    seat = access.check_hand_reader(hand, reader)
    if seat is None and reader.player is not None:
        seat = viewer_seat(hand.record or {}, reader.player.id)
    if hand.status != "finished":
        raise HTTPException(
            409, N_("this hand has no analysis: it was void, nothing was played to the end")
        )
    record = dict(hand.record or {})
    game, number = hand.game, hand.number
    stored = await kept_or_computed(services, session, hand_id, record)
    readable = for_reader(stored, seat)
    locale = request_locale(request)
    for decision in readable["decisions"]:  # each a copy: the kept analysis is left as it is
        decision["options"] = [
            {**option, "label": action_text(option["action"])} for option in decision["options"]
        ]
        decision["note_words"] = note_words(decision.get("note"), locale)
    people = _seat_people(record)
    summary = []
    for key, figures in sorted(readable["summary"].items(), key=lambda kv: int(kv[0])):
        who = people.get(int(key), {})
        summary.append(
            {
                "seat": int(key),
                "player_id": who.get("player_id"),
                "name": who.get("name"),
                **tally(figures["decisions"], figures["best"], figures["given_up"]),
            }
        )
    return {
        "hand_id": hand_id,
        "game": game,
        "number": number,
        "method": int(stored.get("version") or VERSION),
        "viewer_seat": seat,
        "decisions": readable["decisions"],
        "withheld": readable["withheld"],
        "summary": summary,
    }


# --------------------------------------------------------------------------- an evening


async def evening(
    session: AsyncSession, services: Services, reader: Reader, filters: lists.Filters
) -> dict[str, Any]:
    """The summary of the hands ``filters`` names: a player's own hands among them (their
    decisions all, the others' where the player saw every card used), or every hand for the
    host. Hands not analysed yet are queued (``pending``), not waited for."""
    if not reader.host:
        assert reader.player_id is not None
        filters = replace(filters, player_id=reader.player_id)
    rows = await hand_lists.list_rows(session, filters, None, MAX_EVENING_HANDS, reader)
    more = len(rows) > MAX_EVENING_HANDS
    ids = [str(row[0]) for row in rows[:MAX_EVENING_HANDS] if row[4] == "finished"]
    kept = await analyses_store.stored_analyses(session, ids)
    seated: dict[str, dict[int, tuple[str, str]]] = defaultdict(dict)
    for hand_id, seat, _net, player_id, name in await hand_lists.seated_players(session, ids):
        seated[hand_id][int(seat)] = (player_id, name)
    counts: dict[str, list[Any]] = {}
    analysed = pending = unanalysable = withheld = 0
    for hand_id in ids:
        found = kept.get(hand_id)
        if found is None or found[0] != VERSION:
            if services.analyses.failure(hand_id) is not None:
                unanalysable += 1
            else:
                pending += 1
                services.analyses.queue(hand_id)
            continue
        analysed += 1
        seats = seated[hand_id]
        mine = next((s for s, (p, _) in seats.items() if p == reader.player_id), None)
        readable = for_reader(found[1], mine)
        withheld += readable["withheld"]
        for decision in readable["decisions"]:
            player_id, name = seats.get(int(decision["seat"]), ("", "?"))
            if not player_id:
                continue
            row = counts.setdefault(player_id, [name, 0, 0, 0.0])
            row[1] += 1
            row[2] += 1 if decision.get("chose_best") else 0
            row[3] += float(decision.get("given_up") or 0)
    players = [
        {"player_id": player_id, "name": name, **tally(n, best, given_up)}
        for player_id, (name, n, best, given_up) in sorted(
            counts.items(), key=lambda kv: (str(kv[1][0]).lower(), kv[0])
        )
    ]
    you = None
    if reader.player_id is not None and not reader.host:
        own = counts.get(reader.player_id, ["", 0, 0, 0.0])
        you = tally(own[1], own[2], own[3])
    return {
        "hands": len(ids),
        "analysed": analysed,
        "pending": pending,
        "unanalysable": unanalysable,
        "more": more,
        "withheld": withheld,
        "you": you,
        "players": players,
    }


@router.get("/api/rooms/{room_id}/analysis", response_model=EveningAnalysis)
async def room_analysis(
    room_id: str, session: SessionDep, reader: ReaderDep, services: ServicesDep
) -> dict[str, Any]:
    """A room's evening: the reader's decisions over the room's hands (every table of it),
    and each player's where the reader may read them. 404 for a room the reader may not
    see (as for no room)."""
    access.check_signed_in(reader)
    if len(room_id) > 40 or not await access.visible_room(session, room_id, reader):
        raise HTTPException(404, N_("no such room"))
    out = await evening(session, services, reader, lists.Filters(room_id=room_id))
    return {"room_id": room_id, **out}


@router.get("/api/tables/{table_id}/analysis", response_model=EveningAnalysis)
async def table_analysis(
    table_id: str,
    session: SessionDep,
    reader: ReaderDep,
    services: ServicesDep,
    game: str | None = Query(None, max_length=40, pattern=r"^[a-z0-9-]+$"),
    since: str | None = Query(None, max_length=40, description="YYYY-MM-DD or an ISO date-time"),
    until: str | None = Query(None, max_length=40, description="YYYY-MM-DD or an ISO date-time"),
) -> dict[str, Any]:
    """A table's hands over a span (as its hand list filters them; a sitting: from its
    ``sat_down`` to its ``left``): the reader's decisions, and each player's where the
    reader may read them."""
    access.check_signed_in(reader)
    if len(table_id) > 40 or await access.visible_table(session, table_id, reader) is None:
        raise HTTPException(404, access.NO_TABLE)
    try:
        filters = lists.Filters(
            table_id=table_id,
            game=game,
            since=lists.parse_when(since),
            until=lists.parse_when(until, end=True),
        )
    except ValueError as err:
        raise HTTPException(422, said(err)) from None
    out = await evening(session, services, reader, filters)
    return {"table_id": table_id, **out}
