"""Settling among friends (app/review/nets.py ``split``, app/review/settle.py ``settle``), pure:
the payments are only person to person and settle exactly what is left of the persons' nets
once what is with the house, with others (bots) and in a pot is taken out; that is told in
words, never as a payment."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.db.store.nets import Move
from app.review.nets import nets_by_player, shares, split
from app.review.settle import balances_after, settle
from app.review.settle_words import apart_lines, apart_rows

T = "t1"
POT = f"pot:{T}"
NAMES = {"a": "Ada", "b": "Ben", "c": "Cy", "d": "Di", "bot": "Robo"}


def stack(p: str) -> str:
    return f"stack:{T}:{p}"


def bets(p: str) -> str:
    return f"bets:{T}:{p}"


def check(moves: list[Move], group: list[str]) -> dict[str, int]:
    """The invariants; returns what the payments settle."""
    result = split(moves, group, NAMES)
    truth = nets_by_player(moves)
    for p in group:
        member = result.members[p]
        assert member.net == truth.get(p, 0)
        assert member.net == member.house + member.others + member.pot + member.settle
    nets = result.settle_nets
    assert sum(nets.values()) == 0
    payments = settle(nets)
    assert all(p.payer in group and p.payee in group for p in payments)
    assert set(balances_after(nets, payments).values()) <= {0}
    return nets


def test_the_finding_an_en_og_tredive_close_with_bets_in_the_pot() -> None:
    """Four friends and a bot; a match is closed by the host with bets in the pot: the
    close hands back what each paid in (pot to stack, bets to stack). Every chip is counted,
    and the pot, empty again, leaves nothing apart: the friends settle their nets exactly."""
    moves = [
        # earlier matches: the pot gathered and paid its winners
        Move(bets("a"), POT, 200, T, "h1"),
        Move(bets("b"), POT, 100, T, "h1"),
        Move(bets("c"), POT, 100, T, "h1"),
        Move(bets("bot"), POT, 100, T, "h1"),
        Move(POT, stack("c"), 250, T, "h1"),
        Move(POT, stack("d"), 150, T, "h1"),  # d had put in before the span
        Move(POT, stack("b"), 100, T, "h1"),
        # the match the host closed: bets in the pot and in front of them, returned
        Move(stack("a"), bets("a"), 90, T, "h2"),
        Move(bets("a"), POT, 60, T, "h2"),
        Move(bets("d"), POT, 30, T, "h2"),
        Move(POT, stack("a"), 60, T, None),
        Move(POT, stack("d"), 30, T, None),
        Move(bets("a"), stack("a"), 30, T, None),
    ]
    nets = check(moves, ["a", "b", "c", "d"])
    result = split(moves, ["a", "b", "c", "d"], NAMES)
    assert {p: m.net for p, m in result.members.items()} == {
        "a": -200,
        "b": 0,
        "c": 150,
        "d": 150,
    }
    # the pot paid out 100 more than the friends put in (the bot's 100): the winners there
    # keep it in proportion, and nobody pays "the pot" or is paid by it
    assert result.pots[T].group == 100 and result.pots[T].others == -100
    assert sum(nets.values()) == 0
    words = apart_lines(result, NAMES, {T: "Friday"}, None)
    assert any("others at the table put 100 chips into it" in w.casefold() for w in words)
    assert words[-1] == "The payments settle the rest among you."
    assert not any("pays the pot" in w or "the house pays" in w.casefold() for w in words)


def test_the_house_is_apart_and_each_keeps_their_own() -> None:
    """Ada won 120 from the house and Ben lost 60 to it, and Ben lost 40 to Ada at a banked
    table: Ben pays Ada 40, nobody pays the house."""
    moves = [
        Move("house", stack("a"), 120, T, "h1"),
        Move(bets("b"), "house", 60, T, "h2"),
        Move(bets("b"), stack("a"), 40, T, "h3"),
    ]
    nets = check(moves, ["a", "b"])
    assert nets == {"a": 40, "b": -40}
    result = split(moves, ["a", "b"], NAMES)
    words = apart_lines(result, NAMES, {}, None)
    assert "Ada won 120 chips from the house." in words
    assert "Ben lost 60 chips to the house." in words
    assert "The group as a whole won 60 chips from the house." in words
    assert ("a", "the house", "house", "house", 120) in apart_rows(result, {})


def test_a_bot_banker_is_apart() -> None:
    moves = [
        Move(bets("a"), stack("bot"), 50, T, "h1"),
        Move(stack("bot"), stack("b"), 50, T, "h2"),
    ]
    nets = check(moves, ["a", "b"])
    assert nets == {"a": 0, "b": 0}  # neither dealt with the other: no payment
    words = apart_lines(split(moves, ["a", "b"], NAMES), NAMES, {}, None)
    assert "Ada lost 50 chips to others at these tables (bots, people not settling)." in words


def test_chips_that_stayed_in_the_pot_are_borne_by_its_losers_in_proportion() -> None:
    moves = [
        Move(bets("a"), POT, 100, T, "h1"),
        Move(bets("b"), POT, 50, T, "h1"),
        Move(POT, stack("c"), 120, T, "h1"),
    ]
    nets = check(moves, ["a", "b", "c"])
    assert nets == {"a": -80, "b": -40, "c": 120}
    words = apart_lines(split(moves, ["a", "b", "c"], NAMES), NAMES, {T: "Friday"}, None)
    assert words[0].startswith("30 chips stayed in the pot at Friday.")
    assert "(Ada −20 chips, Ben −10 chips)" in words[0]


def test_shares_are_whole_and_exact() -> None:
    assert shares(10, {"a": 1, "b": 1, "c": 1}) == {"a": 4, "b": 3, "c": 3}
    assert shares(-7, {"a": 3, "b": 1}) == {"a": -5, "b": -2}
    assert shares(0, {"a": 1}) == {"a": 0}


PEOPLE = ["a", "b", "c", "d", "bot"]
ACCOUNTS = [*(stack(p) for p in PEOPLE), *(bets(p) for p in PEOPLE), POT, "house"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(ACCOUNTS), st.sampled_from(ACCOUNTS), st.integers(1, 500)),
        max_size=30,
    ),
    st.sets(st.sampled_from(PEOPLE), min_size=1),
)
def test_any_movements_settle_person_to_person(
    raw: list[tuple[str, str, int]], group: set[str]
) -> None:
    moves = [Move(s, t, a, T, None) for s, t, a in raw if s != t]
    check(moves, sorted(group))
