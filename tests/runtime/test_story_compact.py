"""The story's events once their hand is over are kept as JSON text (app/runtime/story.py):
read back they are the same events, a private one still filtered for anyone not entitled to
it, and what orjson cannot write is kept as it was."""

from __future__ import annotations

from app.runtime.records import SeatInfo
from app.runtime.story import Story, Told

PRIVATE = {"kind": "deal", "seat": 1, "cards": ["AS", "KH"], "private_to": [1], "t": 1.0}
PUBLIC = {"kind": "stake", "seat": 0, "amount": 20, "t": 2.0}


def test_a_finished_hands_events_are_kept_as_text_and_read_back_the_same() -> None:
    story = Story()
    roster = {0: SeatInfo("ada", "Ada"), 1: SeatInfo("ben", "Ben")}
    story.tell(dict(PRIVATE), roster)
    story.tell(dict(PUBLIC), roster)
    before = {who: [t.for_viewer(who) for t in story.recent()] for who in ("ben", "ada", None)}
    story.hand_ended({"hand_id": "h1", "number": 1, "players": []}, 3.0)
    kept = story.recent()
    assert all(isinstance(t._event, str) for t in kept)  # compact
    after = {who: [t.for_viewer(who) for t in kept[:2]] for who in ("ben", "ada", None)}
    assert after == before
    assert after["ben"][0]["cards"] == ["AS", "KH"]  # the entitled player sees the cards
    assert after["ada"][0]["cards"] == after[None][0]["cards"] == [None, None]  # face down
    assert kept[2].event["kind"] == "hand_end" and kept[2].event["result"]["hand_id"] == "h1"


def test_what_orjson_cannot_write_stays_a_dict() -> None:
    odd = Told({"kind": "note", 1: "a key that is not a string"}, None)
    odd.compact()
    assert isinstance(odd._event, dict) and odd.event[1] == "a key that is not a string"
