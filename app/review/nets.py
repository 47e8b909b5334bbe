"""Each player's net over a span of time, from the ledger, and what of it settles among the
friends (docs/review.md, "One truth" and "Settling up").

**One truth.** A player's net over a span is the sum of every ledger movement written in it
between the player's own accounts (``bankroll:P``, ``stack:T:P``, ``bets:T:P``,
``prison:T:P``) and anyone else's: hands, a close's returns, a pot handed back. A movement
between two of the player's own accounts (a buy-in, a top-up, a cash-out, a void hand's
stakes back) moves nothing of theirs, and the host's grants and takes are not winnings. So
the net is the change of what the player holds (bankroll and chips at tables) over the span,
less the host's grants: the figure settle-up, the player page and its sessions all show.

**Settling among friends.** The *group* is the players settling. Everything else a member
dealt with is *apart*, shown in words, never paid to or by anyone:

* **the house** (``house``, Trente et Quarante): what each member won from it or lost to it
  is their own;
* **others at these tables** (bots, people not settling): what a member won from or lost to
  one of their accounts directly (a banker's seat) is their own too;
* **the pot** (a table's own account: En og tredive's pot): chips pass through it from the
  losers to the winners, so what the members put in and took out at a table cancels out,
  except what stayed in it (a match still on at the span's end), what others at the table
  put in or took out, and what was in it before the span. That remainder is borne by the
  members on the side that holds it, in proportion: when the members lost more into a pot
  than they took out, each loser's loss there is cut by their share of it; when they took
  out more, each winner's win there is (largest remainders, whole chips).

What is left of each member's net (``settle`` = net − apart) sums to zero over the group,
and the payments (``app/review/settle.py``) settle exactly that, person to person.

Pure but for :func:`span_nets`, which reads the movements through
:mod:`app.db.store.nets`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from app.db.account_ids import BANKROLL, HOUSE, parse_account
from app.db.store import nets as store
from app.db.store.access import Reader
from app.db.store.nets import Move
from app.db.types import AsyncSession
from app.i18n.messages import N_

POT, OTHERS = "pot", "others"
"""The kinds of what is apart that is not the house (``HOUSE`` is ``"house"``)."""
NAMES = {HOUSE: N_("the house"), POT: N_("the pot"), OTHERS: N_("others at these tables")}
"""What is apart, named in English (the API's ``apart`` rows, the CSV's); settle-up's words
name them in the reader's language (app/review/settle_words.py)."""


def owner(account: str) -> tuple[str, str]:
    """Who holds an account: ``("player", P)``, ``("house", "")`` or ``("pot", T)`` (a
    table's own account, held by nobody)."""
    if account == HOUSE:
        return (HOUSE, "")
    name = parse_account(account)
    if name.player_id is not None:
        return ("player", name.player_id)
    if name.kind == BANKROLL:  # pragma: no cover - a bankroll always names its player
        return ("player", "")
    return (POT, name.table_id or "")


@dataclass
class Party:
    """A player: their net over the span and, for a member of the group, what of it is
    apart (with the house, with others, through a pot) and what settles among the group."""

    id: str
    name: str
    kind: str = "player"
    net: int = 0
    hands: int = 0
    bot: bool = False
    house: int = 0
    others: int = 0
    pot: int = 0

    @property
    def apart(self) -> int:
        """What of the net is not settled among the group."""
        return self.house + self.others + self.pot

    @property
    def settle(self) -> int:
        """What the payments settle: the net less what is apart."""
        return self.net - self.apart

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "bot": self.bot,
            "net": self.net,
            "hands": self.hands,
        }


@dataclass
class PotTable:
    """What went through a table's pot in the span: the members' net with it (``group``: +
    took out more than put in), the others', and the pot's own change."""

    table_id: str
    group: int = 0
    others: int = 0
    change: int = 0
    members: dict[str, int] = field(default_factory=dict)
    shares: dict[str, int] = field(default_factory=dict)


@dataclass
class Split:
    """The group's nets and what is apart: each member (:class:`Party`), the house's net
    against the group, the others' (directly), and each pot table."""

    members: dict[str, Party]
    house: int = 0
    others: int = 0
    pots: dict[str, PotTable] = field(default_factory=dict)

    @property
    def settle_nets(self) -> dict[str, int]:
        """What the payments settle, each member's (sums to zero)."""
        return {p: m.settle for p, m in self.members.items()}


def player_net(moves: Iterable[Move], player_id: str) -> int:
    """THE net of one player over these movements: into their accounts from anyone else's,
    less out of them to anyone else's."""
    net = 0
    for m in moves:
        into = owner(m.target) == ("player", player_id)
        out = owner(m.source) == ("player", player_id)
        if into != out:
            net += m.amount if into else -m.amount
    return net


def nets_by_player(moves: Iterable[Move]) -> dict[str, int]:
    """:func:`player_net` of every player in the movements at once."""
    nets: dict[str, int] = defaultdict(int)
    for m in moves:
        source, target = owner(m.source), owner(m.target)
        if source == target:
            continue
        if source[0] == "player":
            nets[source[1]] -= m.amount
        if target[0] == "player":
            nets[target[1]] += m.amount
    return dict(nets)


def shares(total: int, weights: dict[str, int]) -> dict[str, int]:
    """``total`` split in proportion to the (positive) ``weights``, whole chips summing to
    it exactly: each its floor, then one more to the largest remainders (ties by key)."""
    whole = sum(weights.values())
    if not total or not whole:
        return {k: 0 for k in weights}
    sign = 1 if total > 0 else -1
    magnitude = abs(total)
    exact = {k: magnitude * w for k, w in weights.items()}
    out = {k: v // whole for k, v in exact.items()}
    left = magnitude - sum(out.values())
    for k in sorted(weights, key=lambda k: (-(exact[k] % whole), k))[:left]:
        out[k] += 1
    return {k: sign * v for k, v in out.items()}


def split(moves: Iterable[Move], group: Collection[str], names: dict[str, str]) -> Split:
    """Each member's net, and what of it is apart (the module's rule): pure."""
    members = {p: Party(p, names.get(p, "?")) for p in group}
    out = Split(members)
    for m in moves:
        source, target = owner(m.source), owner(m.target)
        if source == target:
            continue
        for side, other, sign in ((source, target, -1), (target, source, 1)):
            amount = sign * m.amount
            if side[0] == POT:
                pot = out.pots.setdefault(side[1], PotTable(side[1]))
                pot.change += amount
                if other[0] == "player" and other[1] not in members:
                    pot.others -= amount
            if side[0] != "player" or side[1] not in members:
                continue
            party = members[side[1]]
            party.net += amount
            if other[0] == HOUSE:
                party.house += amount
                out.house -= amount
            elif other[0] == POT:
                pot = out.pots.setdefault(other[1], PotTable(other[1]))
                pot.group += amount
                pot.members[party.id] = pot.members.get(party.id, 0) + amount
            elif other[1] not in members:
                party.others += amount
                out.others -= amount
    for pot in out.pots.values():
        holder = 1 if pot.group > 0 else -1  # the side that holds the remainder
        weights = {p: holder * x for p, x in pot.members.items() if holder * x > 0}
        pot.shares = {p: s for p, s in shares(pot.group, weights).items() if s}
        for p, share in pot.shares.items():
            members[p].pot += share
    return out


@dataclass
class SpanNets:
    """The span's candidates (every player with a finished hand or a net in the scope, with
    their net over all of it), the group's split, and the tables' names."""

    candidates: list[Party] = field(default_factory=list)
    parties: list[Party] = field(default_factory=list)
    split: Split = field(default_factory=lambda: Split({}))
    hands: int = 0
    tables: dict[str, store.TableInfo] = field(default_factory=dict)

    @property
    def nets(self) -> dict[str, int]:
        """What the payments settle (each member's net less what is apart)."""
        return {p.id: p.settle for p in self.parties}


async def span_nets(
    session: AsyncSession,
    reader: Reader,
    *,
    start: datetime,
    end: datetime,
    table_id: str | None = None,
    chosen: Collection[str] | None = None,
    around: str | None = None,
    table_ids: Collection[str] | None = None,
) -> SpanNets:
    """The nets over the movements written in ``[start, end)`` (at ``table_id`` when given,
    else at every table the reader may see), for the ``chosen`` players (default: every
    person with a hand or a net in the scope; ``table_ids``: at those tables only, a room's
    evening; with ``around``, that player and every person who
    shared a hand with them or moved chips at a table where they did, in the span)."""
    moves = await store.span_moves(
        session,
        start=start,
        end=end,
        table_id=table_id,
        reader=reader,
        table_ids=table_ids,
    )
    played = await store.span_hand_players(
        session,
        start=start,
        end=end,
        table_id=table_id,
        reader=reader,
        table_ids=table_ids,
    )
    touched: dict[str, set[str]] = defaultdict(set)  # player -> finished hands of the span
    for hand_id, player_id in played:
        touched[player_id].add(hand_id)
    at: dict[str, set[str]] = defaultdict(set)  # player -> tables
    for m in moves:
        for account in (m.source, m.target):
            kind, who = owner(account)
            if kind == "player":
                at[who].add(m.table_id)
    nets = nets_by_player(moves)
    # someone who sat down and stood up again without a hand or a chip won or lost is no one
    # to settle with
    present = {p for p in touched} | {p for p, n in nets.items() if n}
    info = await store.players_info(session, present)
    candidates = {
        p: Party(
            p,
            info[p].name if p in info else "?",
            net=nets.get(p, 0),
            hands=len(touched[p]),
            bot=info[p].bot if p in info else False,
        )
        for p in present
    }
    if chosen is not None:
        group = [p for p in dict.fromkeys(chosen) if p in candidates]
    elif around is not None:
        tables = at.get(around, set()) if around in candidates else set()
        group = [
            p
            for p in candidates
            if p == around
            or (not candidates[p].bot and (touched[p] & touched[around] or at[p] & tables))
        ]
    else:
        group = [p for p in candidates if not candidates[p].bot]
    names = {p: c.name for p, c in candidates.items()}
    result = split(moves, group, names)
    for p, party in result.members.items():
        party.hands, party.bot = candidates[p].hands, candidates[p].bot
    ordered = sorted(candidates.values(), key=lambda p: (p.bot, p.name.casefold(), p.id))
    counted = {h for p in group for h in touched[p]}
    return SpanNets(
        candidates=ordered,
        parties=[result.members[p.id] for p in ordered if p.id in result.members],
        split=result,
        hands=len(counted),
        tables=await store.tables_info(session, set(result.pots) | {m.table_id for m in moves}),
    )
