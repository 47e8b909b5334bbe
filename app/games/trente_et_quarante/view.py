"""What a viewer sees of a Trente et Quarante table (docs/rules.md §4; docs/protocol.md §6).

Every card of a coup is dealt face up, so everybody sees the same table: the two rows of the last
coup with their totals and the dealer's calls, the tableau's stakes (free and in prison) of every
bettor, seated or standing, and the shoe's count. Nothing of the undealt stock is shown but how
many cards are left. ``seats`` lists the seated players only; ``bettors`` lists everyone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.games.core.accounts import seat_account
from app.games.core.coded import Coded, coded_json, seat_list
from app.games.core.house import UNLIMITED_HOUSE
from app.games.core.views import View, card_view
from app.games.trente_et_quarante.coup import CHANCES
from app.games.trente_et_quarante.stakes import INSURABLE, chance_totals, premium
from app.games.trente_et_quarante.state import TrenteEtQuaranteState


def _bettor(game: TrenteEtQuaranteState, seat: int) -> dict[str, Any]:
    """One bettor's place: stack, free stakes, stakes in prison.

    ``hands`` repeats the stakes in the shape every game's seats share (no cards: the rows are
    the table's), so a client that knows no game can still show what each bettor has at stake.
    """
    mine = game.free.get(seat, {})
    stack = game.balances[seat_account(seat)]
    held = [p for p in game.prison if p.owner == seat]
    hands = [
        {"cards": [], "stake": mine[c].amount, "chance": c, "insured": mine[c].insured}
        for c in CHANCES
        if c in mine
    ] + [
        {"cards": [], "stake": p.amount, "chance": p.chance, "prison_level": p.level} for p in held
    ]
    return {
        "seat": seat,
        "stack": stack,
        "role": "player" if seat < game.options["seats"] else "standing",
        "free_chips": stack - sum(stake.cost for stake in mine.values()),
        "stakes": [
            {
                "chance": chance,
                "amount": mine[chance].amount,
                "insured": mine[chance].insured,
                "premium": premium(mine[chance].amount) if mine[chance].insured else 0,
            }
            for chance in CHANCES
            if chance in mine
        ],
        "prison": [
            {"id": p.id, "chance": p.chance, "amount": p.amount, "level": p.level} for p in held
        ],
        "done": seat in game.done,
        "hands": hands,
    }


def insurance_words(insurance: bool) -> Coded:
    """What insurance costs, in words (docs/rules.md §4.8)."""
    if not insurance:
        return Coded("trente-et-quarante.no_insurance", "No insurance at this table.")
    return Coded(
        "trente-et-quarante.insurance",
        f"A free stake of {INSURABLE} chips or more may be insured: 1 chip for every whole "
        f"{INSURABLE} staked, never more than 1%. A smaller stake cannot be insured.",
        least=INSURABLE,
    )


def _rows(game: TrenteEtQuaranteState) -> dict[str, Any] | None:
    if game.last is None:
        return None
    rows = game.last["rows"]
    return {
        name: {
            "cards": [card_view(card, up=True, visible=True) for card in rows[name]["cards"]],
            "total": rows[name]["total"],
        }
        for name in ("noir", "rouge")
    }


def _status(game: TrenteEtQuaranteState) -> Coded:
    if game.phase == "betting":
        if game.countdown:
            return Coded(
                "trente-et-quarante.betting_clock",
                "Faites vos jeux: stakes close when the clock runs out",
            )
        return Coded(
            "trente-et-quarante.betting_first",
            "Faites vos jeux: the table waits for a first stake",
        )
    if game.phase == "un_apres" and game.settlement is not None:
        seats = sorted(game.settlement.choosing)
        return Coded(
            "trente-et-quarante.un_apres",
            f"Un après: seats {seat_list(seats)} choose to share their stakes or put them in "
            "prison",
            seats=seats,
        )
    if not game.seated:
        return Coded("trente-et-quarante.waiting", "Waiting for bettors")
    return Coded("trente-et-quarante.next_coup", "Waiting for the next coup")


def table_view(game: TrenteEtQuaranteState, seat: int | None) -> View:
    """The table as ``seat`` (None: a spectator) sees it; the same for everybody."""
    bettors = [_bettor(game, s) for s in game.seated]
    free = chance_totals(game.free)
    last = game.last
    pending = game.settlement.pending if game.settlement is not None else {}
    held = game.settlement.held if game.settlement is not None else {}
    said = _status(game)
    insurance = insurance_words(game.options["insurance"])
    return {
        "phase": game.phase,
        "status": str(said),
        "status_coded": coded_json(said),
        "turn": None,
        "coup": game.hand_number,
        "seats": [b for b in bettors if b["role"] == "player"],
        "bettors": bettors,
        "tableau": {
            chance: {
                "stakes": free[chance],
                "prison": sum(p.amount for p in game.prison if p.chance == chance),
            }
            for chance in CHANCES
        },
        "rows": _rows(game),
        "calls": list(last["calls"]) if last else [],
        "result": None
        if last is None
        else {key: last.get(key) for key in ("winner", "colour", "tie", "void")},
        "history": list(game.history),
        "un_apres": [
            {"seat": s, "chance": c, "amount": game.free[s][c].amount}
            for s in sorted(pending)
            for c in CHANCES
            if c in pending[s]
        ]
        + [
            {"seat": p.owner, "chance": p.chance, "amount": p.amount, "stake": p.id}
            for p in game.prison
            if p.id in held.get(p.owner, ())
        ],
        "shoe": {
            "decks": game.options["decks"],
            "cards_left": len(game.stock.cards),
            "coups": game.coups_in_shoe,
        },
        "limits": {
            "min_stake": game.options["min_stake"],
            "max_stake": game.options["max_stake"],
            "insurance": game.options["insurance"],
            # the smallest stake that can be insured: its 1% is one whole chip (§4.8)
            "insure_from": INSURABLE if game.options["insurance"] else None,
            "insurance_words": str(insurance),
            "insurance_words_coded": coded_json(insurance),
            "venice_rule": game.options["venice_rule"],
            "max_apres": game.options["max_apres"],
            # what the house can still cover at this table (None: no limit was set)
            "house_cover": None
            if game.house_available >= UNLIMITED_HOUSE
            else max(0, game.house_available - game.house_exposure()),
        },
    }


def table_views(
    game: TrenteEtQuaranteState, viewers: Iterable[int | None]
) -> dict[int | None, View]:
    """:func:`table_view` for several viewers: everybody sees the same table, built once."""
    public = table_view(game, None)
    return {viewer: dict(public) for viewer in viewers}
