"""A settlement in words and as CSV (app/review/settle_words.py): chips always, money when a
chip value is given, to as many decimals as the value has and at least two; a name is never
read as a spreadsheet formula."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

from app.review.settle import Payment
from app.review.settle_words import ChipValue, as_csv, as_text, chips, net_line, payment_line

EURO = ChipValue(Decimal("0.05"), "€")
NAMES = {"b": "Ben", "a": "Ada", "others": "others at these tables", "x": "=SUM(A1)"}


def test_money_to_the_values_decimals_and_at_least_two() -> None:
    assert EURO.shown(45) == "2.25 €"
    assert EURO.of(-66) == "-3.30"
    assert ChipValue(Decimal("0.125"), "EUR").shown(3) == "0.375 EUR"
    assert ChipValue(Decimal("2"), "").shown(7) == "14.00"


def test_the_words() -> None:
    assert chips(1) == "1 chip" and chips(45) == "45 chips"
    assert chips(-45, signed=True) == "−45 chips" and chips(0, signed=True) == "0 chips"
    assert payment_line(Payment("b", "a", 45), NAMES, EURO) == "Ben pays Ada 45 chips (2.25 €)"
    assert payment_line(Payment("b", "a", 1), NAMES, None) == "Ben pays Ada 1 chip"
    assert payment_line(Payment("others", "a", 5), NAMES, None) == (
        "Others at these tables pay Ada 5 chips"
    )
    assert net_line("Ada", 45, EURO) == "Ada: +45 chips (+2.25 €)"
    assert net_line("Ben", -45, EURO) == "Ben: −45 chips (−2.25 €)"


def test_the_text_names_the_value_the_nets_and_the_payments() -> None:
    text = as_text("Tonight", [("Ada", 45), ("Ben", -45)], [Payment("b", "a", 45)], NAMES, EURO)
    assert text.splitlines() == [
        "Tonight",
        "1 chip = 0.05 €",
        "",
        "Nets:",
        "  Ada: +45 chips (+2.25 €)",
        "  Ben: −45 chips (−2.25 €)",
        "",
        "Payments:",
        "  Ben pays Ada 45 chips (2.25 €)",
    ]
    assert "Nobody owes anything." in as_text("Tonight", [("Ada", 0)], [], NAMES, None)


def test_the_csv_rows_and_no_formula() -> None:
    body = as_csv([("a", "Ada", 45), ("x", "=SUM(A1)", -45)], [Payment("x", "a", 45)], NAMES, EURO)
    rows = list(csv.DictReader(io.StringIO(body)))
    assert [(r["row"], r["name"], r["chips"], r["money"], r["currency"]) for r in rows] == [
        ("net", "Ada", "45", "2.25", "€"),
        ("net", "'=SUM(A1)", "-45", "-2.25", "€"),
        ("payment", "'=SUM(A1)", "45", "2.25", "€"),
    ]
    assert rows[2]["to"] == "Ada" and rows[2]["to_id"] == "a" and rows[2]["id"] == "x"
    assert body.startswith("row,name,id,to,to_id,chips,money,currency\r\n")
