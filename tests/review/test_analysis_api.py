"""The analysis served through the real server (docs/review.md, "The analysis").

People play a few hands of each game whose analyser is in the tree (a room's evening); then,
over HTTP as each kind of reader:

* each finished hand is analysed in the background once stored, in a worker process of lower
  CPU priority (niced by ``ANALYSIS_NICENESS``, ``SCHED_BATCH``), before anyone asks, its
  estimates simulating ``ANALYSIS_SAMPLES`` hands; the worker ends with the server;
* ``GET /api/hands/{id}/analysis``: the hand's players and the host read it, a spectator
  or a stranger 403, nobody signed in 401, a hand in play 404; a player reads all of their
  own decisions and another's only where every card it used was shown to them (checked
  against the cards their own replay shows them), never the cards themselves; each decision
  names the recorded action as chosen, the best by ``ev``, what was given up;
* a hand not analysed yet is computed when asked for (and kept); too many waiting: 503 with
  ``Retry-After``; an analysis that fails: 409;
* the evening's summary over a room's hands and over a table's: the reader's own decisions
  counted as the hands' analyses count them, "N of M decisions best; …".
"""

from __future__ import annotations

import importlib.util
import os
from collections import Counter
from typing import Any

import httpx
import pytest

from app.analysis import MODULES
from app.analysis.hand import VERSION
from app.analysis.position import cards_in
from app.api.routes.analysis import note_words
from app.api.schemas.analysis import EveningAnalysis, HandAnalysis
from app.db.store import analyses as analyses_store
from tests.api.test_response_models import unnamed
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer, Serve
from tests.review.live_play import play, records
from tests.waiting import until

GAME = "trianta-ena"
NIGHT_OPTIONS: dict[str, dict[str, Any]] = {"trente-et-quarante": {"decks": 1}}
"""A night's table options beyond tests/review/live_play.py's: Trente et Quarante from a shoe of
one deck, not six. Its analysis is exact, enumerated over the unseen shoe (docs/analysis.md §9,
1.3 to 2.4 s a coup from six decks, more with an un après): one deck is the same method on a
smaller pool, and the night checks what is served, not the figures (tested in
tests/analysis/test_trente_et_quarante.py, six decks and one)."""
LANDED = [game for game, module in MODULES.items() if importlib.util.find_spec(module)]
"""The games whose analysers are in the tree (every game's, in the end)."""


def client(live: LiveServer, token: str | None = None) -> httpx.AsyncClient:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    return httpx.AsyncClient(base_url=live.base_url, headers=headers, timeout=600)


async def kept(live: LiveServer, hand_ids: list[str]) -> dict[str, dict[str, Any]]:
    """The analyses the database keeps of these hands (the current method's)."""
    async with live.services.sessionmaker() as session:
        found = await analyses_store.stored_analyses(session, hand_ids)
    return {h: a for h, (method, a) in found.items() if method == VERSION}


def seat_of(record: dict[str, Any], player_id: str) -> int | None:
    for key in ("seats_before", "seats_after"):
        for seat in record.get(key) or []:
            if seat.get("player_id") == player_id:
                return int(seat["seat"])
    return None


async def cards_seen(reader: httpx.AsyncClient, hand_id: str) -> set[str]:
    """Every card the reader's own replay of the hand shows them, at any step."""
    replay = await reader.get(f"/api/hands/{hand_id}/replay")
    assert replay.status_code == 200, replay.text
    return cards_in([[step["view"], step["events"]] for step in replay.json()["steps"]])


async def check_reader(
    reader: httpx.AsyncClient,
    record: dict[str, Any],
    full: dict[str, Any],
    seat: int | None,
    game: str = GAME,
) -> dict[str, Any]:
    """One reader's answer for one hand, against the whole analysis the server keeps."""
    hand_id = record["hand_id"]
    response = await reader.get(f"/api/hands/{hand_id}/analysis")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["hand_id"] == hand_id and body["game"] == game and body["method"] == VERSION
    assert body["viewer_seat"] == seat
    assert "private" not in response.text and "shown" not in body
    assert unnamed(HandAnalysis.model_validate(body)) == []  # the model names every key
    seen = await cards_seen(reader, hand_id)
    every = {d["step"]: d for d in full["decisions"]}
    given = {d["step"]: d for d in body["decisions"]}
    for step, decision in every.items():
        own = seat is not None and decision["seat"] == seat
        shown = all(card in seen for card in decision["private"])
        if own:
            assert step in given, f"the reader's own decision at step {step} is missing"
        if step in given:
            # never the analysis of a decision that used a card this reader was not shown
            assert own or shown, (step, decision["private"], sorted(seen))
    assert body["withheld"] == len(every) - len(given)
    for step, decision in given.items():
        entry = record["actions"][step - 1]  # the step an action made: its entry's index + 1
        assert entry["seat"] == decision["seat"]
        options = decision["options"]
        assert options[decision["chosen"]]["action"] == entry["action"]
        evs = [o["ev"] for o in options]
        assert evs[decision["best"]] == max(evs)
        assert abs(decision["given_up"] - (max(evs) - evs[decision["chosen"]])) < 1e-3
        for option in options:
            assert abs(option["win"] + option["tie"] + option["lose"] - 1) < 1e-4
            if not option["exact"]:
                low, high = option["interval"]["ev"]
                assert option["samples"] > 0 and low <= option["ev"] <= high
    for row in body["summary"]:
        mine = [d for d in given.values() if d["seat"] == row["seat"]]
        assert row["decisions"] == len(mine)
        assert row["best"] == sum(d["chose_best"] for d in mine)
        assert row["text"].startswith(f"{row['best']} of {row['decisions']} decision")
    return body


@pytest.mark.parametrize("game", LANDED)
async def test_a_night_is_analysed_off_the_loop_and_served_to_who_may_read_it(
    serve: Serve, game: str
) -> None:
    live = await serve(analysis_after_hand=True)
    table_id, people, watcher = await play(
        live, game, hands=3, seed=5, room=True, options=NIGHT_OPTIONS.get(game)
    )
    stored = await records(live, table_id)
    hand_ids = [r["hand_id"] for r in stored]
    assert len(hand_ids) >= 3

    # analysed in the background as each hand was stored: nobody has asked yet
    async def all_kept() -> bool:
        return set(await kept(live, hand_ids)) == set(hand_ids)

    await until(all_kept, "every hand analysed and kept", 600)
    analyses = await kept(live, hand_ids)
    computed = live.services.analyses.computed
    worker = live.services.analyses.worker_pid
    assert worker is not None and worker != os.getpid()
    server, niceness = os.getpriority(os.PRIO_PROCESS, 0), live.settings.analysis_niceness
    assert niceness >= 1  # the tests' (tests/conftest.py): lower, but not starved
    assert os.getpriority(os.PRIO_PROCESS, worker) == min(19, server + niceness) > server
    assert os.sched_getscheduler(worker) == os.SCHED_BATCH
    # the estimates simulate the server's ANALYSIS_SAMPLES (fewer only where the game's method
    # says so: a long En og tredive round's late decisions)
    samples = [
        option["samples"]
        for analysis in analyses.values()
        for decision in analysis["decisions"]
        for option in decision["options"]
        if not option["exact"]
    ]
    if samples:
        assert max(samples) == live.settings.analysis_samples, samples

    readers = {p.player_id: client(live, p.token) for p in people}
    host = client(live, ADMIN_TOKEN)
    stranger_info = await Player.join(live, "Stranger")
    stranger = client(live, stranger_info.token)
    spectator = client(live, watcher.token)
    nobody = client(live)
    try:
        own_decisions: Counter[str] = Counter()
        for record in stored:
            full = analyses[record["hand_id"]]
            for player_id, reader in readers.items():
                seat = seat_of(record, player_id)
                if seat is None:
                    assert (
                        await reader.get(f"/api/hands/{record['hand_id']}/analysis")
                    ).status_code == 403
                    continue
                await check_reader(reader, record, full, seat, game)
                own_decisions[player_id] += sum(d["seat"] == seat for d in full["decisions"])
            await check_reader(host, record, full, None, game)
            path = f"/api/hands/{record['hand_id']}/analysis"
            assert (await stranger.get(path)).status_code == 403
            assert (await spectator.get(path)).status_code == 403
            assert (await nobody.get(path)).status_code == 401
        assert sum(own_decisions.values()) > 0
        assert live.services.analyses.computed == computed  # read as kept, not again

        # a hand dealt before the table was paused is still in play: not found
        actor = live.services.lobby.get(table_id)
        assert actor is not None
        if actor.hand_id is not None:
            path = f"/api/hands/{actor.hand_id}/analysis"
            assert (await readers[people[0].player_id].get(path)).status_code == 404
        assert (await host.get("/api/hands/nope/analysis")).status_code == 404

        # the evening: the room's hands, and the table's
        rooms = (await readers[people[0].player_id].get("/api/rooms")).json()
        room_id = rooms[0]["room_id"]
        for player_id, reader in readers.items():
            for path in (f"/api/rooms/{room_id}/analysis", f"/api/tables/{table_id}/analysis"):
                response = await reader.get(path)
                assert response.status_code == 200, response.text
                summary = response.json()
                assert unnamed(EveningAnalysis.model_validate(summary)) == []
                mine = [r for r in stored if seat_of(r, player_id) is not None]
                assert summary["pending"] == 0 and summary["unanalysable"] == 0
                you = summary["you"]
                assert you["decisions"] == own_decisions[player_id], (path, player_id)
                if you["decisions"]:
                    assert you["text"].startswith(f"{you['best']} of {you['decisions']} decision")
                    assert "given up in expectation" in you["text"]
                    ours = next(p for p in summary["players"] if p["player_id"] == player_id)
                    assert ours["decisions"] == you["decisions"]
                assert summary["hands"] <= len(mine)
        everyone = (await host.get(f"/api/rooms/{room_id}/analysis")).json()
        assert everyone["you"] is None and everyone["hands"] == len(stored)
        assert (await stranger.get(f"/api/rooms/{room_id}/analysis")).json()["you"] == {
            "decisions": 0,
            "best": 0,
            "given_up": 0,
            "text": "No decision analysed",
        }
        assert (await nobody.get(f"/api/rooms/{room_id}/analysis")).status_code == 401
        assert (await host.get("/api/rooms/nope/analysis")).status_code == 404
        bad = await host.get(f"/api/tables/{table_id}/analysis", params={"since": "soon"})
        assert bad.status_code == 422
    finally:
        for c in [*readers.values(), host, stranger, spectator, nobody]:
            await c.aclose()
        await stranger_info.close()
    # the worker ends with the server
    await live.stop()
    await until(lambda: not _alive(worker), "the analysis worker gone", 60)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is gone for good: only its parent has yet to read its status
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def fails(record: dict[str, Any]) -> tuple[str, Any]:
    """An analysis that fails (run in the worker in place of the real one)."""
    return "failed", "the replay went wrong"


async def test_a_hand_is_analysed_when_first_asked_for(live: LiveServer) -> None:
    table_id, people, _ = await play(live, GAME, hands=2, seed=7)
    stored = await records(live, table_id)
    record = stored[0]
    hand_id = record["hand_id"]
    player = next(p for p in people if seat_of(record, p.player_id) is not None)
    reader = client(live, player.token)
    analyses = live.services.analyses
    try:
        assert analyses.computed == 0 and await kept(live, [hand_id]) == {}
        # too many readers waiting already: refused, with when to come back
        analyses.max_waiting = 0
        busy = await reader.get(f"/api/hands/{hand_id}/analysis")
        assert busy.status_code == 503 and int(busy.headers["retry-after"]) > 0
        analyses.max_waiting = 8
        first = await reader.get(f"/api/hands/{hand_id}/analysis")
        assert first.status_code == 200, first.text
        assert analyses.computed == 1
        full = (await kept(live, [hand_id]))[hand_id]
        await check_reader(reader, record, full, seat_of(record, player.player_id))
        again = await reader.get(f"/api/hands/{hand_id}/analysis")
        assert again.json() == first.json() and analyses.computed == 1
        # each decision's note also in the reader's language: the request's
        path = f"/api/hands/{hand_id}/analysis"
        french = (await reader.get(path, headers={"accept-language": "fr"})).json()
        assert french["decisions"], "no decision of this hand to read in French"
        for decision in french["decisions"]:
            assert decision["note"] and decision["note_words"] != decision["note"], decision
            assert decision["note_words"] == note_words(decision["note"], "fr")
        assert [d["note"] for d in french["decisions"]] == [
            d["note"] for d in first.json()["decisions"]
        ]

        # an analysis that fails: 409, and not tried again
        other = next(r for r in stored[1:] if seat_of(r, player.player_id) is not None)
        analyse, analyses.analyse = analyses.analyse, fails
        failed = await reader.get(f"/api/hands/{other['hand_id']}/analysis")
        assert failed.status_code == 409 and "the replay went wrong" in failed.text
        assert (await reader.get(f"/api/hands/{other['hand_id']}/analysis")).status_code == 409
        analyses.analyse = analyse

        # the evening's summary queues the hands not analysed yet, and says so
        evening = (await reader.get(f"/api/tables/{table_id}/analysis")).json()
        mine = [r for r in stored if seat_of(r, player.player_id) is not None]
        assert evening["hands"] == len(mine) and evening["unanalysable"] == 1
        assert evening["analysed"] == 1 and evening["pending"] == len(mine) - 2
        await until(lambda: analyses.waiting == 0, "the queued hands analysed", 600)
        evening = (await reader.get(f"/api/tables/{table_id}/analysis")).json()
        assert evening["pending"] == 0 and evening["analysed"] == len(mine) - 1
    finally:
        await reader.aclose()
