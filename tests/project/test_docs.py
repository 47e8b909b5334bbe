"""The documentation keeps up with the code: every table option of every game is in the rule
book (docs/rules.md, its game's "Table options" table, with its default and limits) and in its
game's protocol page; every error code and every message type of the table socket is in
docs/protocol/; the section citations and the links in the docs resolve; and no file of the
repository points at a numbered tracker item instead of saying what it means.

What the code offers is read from the code at run time (the game registry, the socket's error
codes and message classes), and modules are found by what they are called, not by where they
sit, so the tests keep working while modules move between packages.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
import shutil
import subprocess
import typing
from collections.abc import Iterator
from enum import Enum
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import app

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
RULES = DOCS / "rules.md"
PROTOCOL = DOCS / "protocol"

CONTRACT_CLIENT_TYPES = {"sit", "leave", "act", "ping"}
"""Client-to-server types the minimum contract names: the collector must find at least these."""
CONTRACT_SERVER_TYPES = {"state", "ack", "error", "pong"}
"""Server-to-client types the minimum contract names: the collector must find at least these."""
NOT_MESSAGE_TYPES = {"string", "object", "array", "integer", "number", "boolean", "null"}
"""``{"type": ...}`` values in the code that are JSON Schema types, not socket messages."""


# --------------------------------------------------------------------------- reading the docs


def _fenced_out(text: str) -> list[str]:
    """The lines of a Markdown text outside its fenced code blocks."""
    out, fence = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fence = not fence
        elif not fence:
            out.append(line)
    return out


def section(text: str, heading: str) -> str:
    """The body of the first section whose heading matches the regex ``heading``, up to the
    next heading of the same or a higher level (fenced code left out)."""
    lines = _fenced_out(text)
    for i, line in enumerate(lines):
        found = re.match(r"(#+) (.*)", line)
        if found and re.search(heading, found.group(2)):
            level = len(found.group(1))
            body = []
            for later in lines[i + 1 :]:
                deeper = re.match(r"(#+) ", later)
                if deeper and len(deeper.group(1)) <= level:
                    break
                body.append(later)
            return "\n".join(body)
    raise AssertionError(f"no section matching {heading!r}")


def table_rows(text: str, first_cell: str) -> list[str]:
    """Rows of the Markdown tables in ``text`` whose first cell is ```first_cell```."""
    return [
        line
        for line in text.splitlines()
        if re.match(rf"\|\s*`{re.escape(first_cell)}`\s*\|", line)
    ]


@cache
def protocol_text() -> dict[str, str]:
    return {path.name: path.read_text() for path in sorted(PROTOCOL.glob("*.md"))}


def protocol_section(heading: str) -> str:
    """A section of the protocol, in whichever of its files holds it."""
    for text in protocol_text().values():
        try:
            return section(text, heading)
        except AssertionError:
            continue
    raise AssertionError(f"no section matching {heading!r} in docs/protocol/")


def slug(heading: str) -> str:
    """The anchor a Markdown renderer (GitHub's) gives a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {
        slug(found.group(1))
        for line in _fenced_out(path.read_text())
        if (found := re.match(r"#+ (.*)", line))
    }


# --------------------------------------------------------------------------- reading the code


def _app_module_names() -> Iterator[str]:
    """Every module name under ``app``, found in its folders (some are namespace packages,
    which ``pkgutil`` does not walk), without importing anything."""
    for folder in map(Path, app.__path__):
        for path in sorted(folder.rglob("*.py")):
            parts = path.relative_to(folder).with_suffix("").parts
            if "__pycache__" in parts or parts[-1] == "__main__":
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            yield ".".join(("app", *parts))


def _modules_named(*leaves: str) -> list[ModuleType]:
    """The modules of ``app`` whose last name is one of ``leaves``, imported."""
    return [
        importlib.import_module(name)
        for name in _app_module_names()
        if name.rsplit(".", 1)[-1] in leaves
    ]


@cache
def registry() -> ModuleType:
    """The game registry, wherever it lives: the module named ``registry`` with ``games()``."""
    found = [m for m in _modules_named("registry") if callable(getattr(m, "games", None))]
    assert found, "no game registry (a module named registry with games()) under app/"
    return found[0]


def game_classes() -> dict[str, Any]:
    return dict(registry().games())


def options_of(game: Any) -> list[dict[str, Any]]:
    """A game's table options as ``GET /api/games`` publishes them: name, default, and for
    whole numbers ``min``/``max``, for choices ``choices``."""
    specs = getattr(game, "OPTIONS", None)
    if specs is not None and all(hasattr(spec, "public") for spec in specs):
        return [spec.public() for spec in specs]
    model = next(
        (
            getattr(game, attr)
            for attr in ("Options", "OPTIONS_MODEL", "options_model")
            if hasattr(getattr(game, attr, None), "model_json_schema")
        ),
        None,
    )
    assert model is not None, f"cannot read {game.__name__}'s options: teach options_of()"
    out = []
    for name, prop in model.model_json_schema()["properties"].items():
        entry: dict[str, Any] = {"name": name, "default": prop.get("default")}
        variants = prop.get("anyOf", [prop])
        for variant in variants:
            if "minimum" in variant:
                entry["min"], entry["max"] = variant["minimum"], variant["maximum"]
            if "enum" in variant:
                entry["choices"] = variant["enum"]
        out.append(entry)
    return out


def error_codes() -> set[str]:
    """Every error code the socket may send: the members of each ``ErrorCode`` the code
    defines (an enumeration, or a class of string constants)."""
    codes: set[str] = set()
    for module in _modules_named("errors", "protocol", "codes", "ws"):
        kind = getattr(module, "ErrorCode", None)
        if kind is None:
            continue
        if isinstance(kind, type) and issubclass(kind, Enum):
            codes |= {str(member.value) for member in kind}
        else:
            codes |= {
                value
                for name, value in vars(kind).items()
                if name.isupper() and isinstance(value, str)
            }
    assert codes, "no ErrorCode found under app/"
    return codes


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def client_message_types() -> set[str]:
    """The client-to-server types: the classes of the socket protocol's ``Message`` union,
    by name (``TopUp`` is ``top_up``), each checked against the protocol's own parser."""
    types: set[str] = set()
    for module in _modules_named("protocol", "messages"):
        union = getattr(module, "Message", None)
        if union is None:
            continue
        names = {_snake(cls.__name__) for cls in typing.get_args(union)}
        parse = getattr(module, "parse", None)
        if callable(parse):
            for name in names:
                try:
                    parse(json.dumps({"type": name}), max_bytes=4096)
                except Exception as refused:  # any refusal but "unknown message type" will do
                    assert "unknown message type" not in str(refused), (
                        f"{name!r} (from the Message union) is not a type the parser knows"
                    )
        types |= names
    assert types >= CONTRACT_CLIENT_TYPES, f"the collector found only {sorted(types)}"
    return types


def server_message_types() -> set[str]:
    """The server-to-client types: every ``{"type": "..."}`` object the server's modules
    build (read from the modules' sources as the import system finds them)."""
    types: set[str] = set()
    for name in _app_module_names():
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "get_source"):
            continue
        source = spec.loader.get_source(name) or ""
        types |= set(re.findall(r"\{\s*[\"']type[\"']\s*:\s*[\"']([a-z_]+)[\"']", source))
    types -= NOT_MESSAGE_TYPES
    assert types >= CONTRACT_SERVER_TYPES, f"the collector found only {sorted(types)}"
    return types


# --------------------------------------------------------------------------- options


def _plain(text: str) -> str:
    """Digits without their thousands separators: "1,000,000" reads "1000000"."""
    return re.sub(r"(?<=\d)[, ](?=\d{3}\b)", "", text)


def _shown(value: Any) -> str:
    if value is None:
        return "`null`"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, str):
        return f"`{value}`"
    return str(value)


def undocumented_options(rules: str, protocol: dict[str, str]) -> list[str]:
    """Each option missing from, or misstated in, the rule book or its game's protocol page."""
    problems = []
    for game_id, game in game_classes().items():
        options = section(_game_rules_from(rules, game_id), r"^\d+\.\d+ Table options$")
        page = next(
            (
                text
                for text in protocol.values()
                if re.search(rf"^#+ .*\(`{game_id}`\)", text, re.M)
            ),
            None,
        )
        if page is None:
            problems.append(f"{game_id}: no page of docs/protocol/ has its view")
        for option in options_of(game):
            name = option["name"]
            rows = table_rows(options, name)
            if not rows:
                problems.append(f"{game_id}: option {name} is not in docs/rules.md")
                continue
            row = _plain(rows[0])
            cells = [cell.strip() for cell in row.strip("|").split("|")]
            if _shown(option["default"]) not in cells[2]:
                problems.append(f"{game_id}: {name}'s default {option['default']!r} not in {row}")
            if "min" in option and not re.search(rf"\b{option['min']} to {option['max']}\b", row):
                problems.append(f"{game_id}: {name}'s limits {option['min']} to {option['max']}")
            for choice in option.get("choices", []):
                if _shown(choice) not in cells[3]:
                    problems.append(f"{game_id}: {name}'s choice {choice!r} not in {row}")
            if page is not None and not table_rows(page, name):
                problems.append(f"{game_id}: option {name} is not on its docs/protocol/ page")
    return problems


def _game_rules_from(rules: str, game_id: str) -> str:
    for found in re.finditer(r"^## (\d+)\. .*$", rules, re.M):
        body = section(rules, re.escape(found.group(0)[3:]))
        if f"Game id `{game_id}`" in body:
            return body
    raise AssertionError(f"docs/rules.md has no section for {game_id}")


def test_every_table_option_is_in_the_rule_book_and_its_protocol_page() -> None:
    assert undocumented_options(RULES.read_text(), protocol_text()) == []


def test_an_option_left_out_of_the_rule_book_is_found() -> None:
    """The check above can fail: drop one option's row, or change its default, and it says so."""
    rules = RULES.read_text()
    without = re.sub(r"^\| `knock_min` \|.*\n", "", rules, flags=re.M)
    assert without != rules
    assert any("knock_min" in p for p in undocumented_options(without, protocol_text()))
    wrong = rules.replace(
        "| `dealer_stands_on` | The banker draws until the hand is worth at least this | 27 |",
        "| `dealer_stands_on` | The banker draws until the hand is worth at least this | 26 |",
    )
    assert wrong != rules
    assert any("dealer_stands_on" in p for p in undocumented_options(wrong, protocol_text()))


def marked_sections(rules: str) -> dict[str, set[str]]:
    """For each mark of the rule book, the subsections of its numbered sections (§0 and the
    games, not the appendix) that carry it."""
    marks = {"Decision": set(), "Beyond the sources": set(), "This server": set()}
    number = None
    for line in _fenced_out(rules):
        found = re.match(r"#{2,3} (?:Appendix )?([A-Z\d]+(?:\.\d+)?)\.? ", line)
        if found:
            number = found.group(1)
        elif number and number[0].isdigit():
            for mark in marks:
                if f"**{mark}" in line:
                    marks[mark].add(number)
    return marks


def test_the_rule_books_summary_lists_every_marked_point() -> None:
    """Appendix A names the same subsections as carry the marks: every Decision in A.1, every
    detail beyond the sources in A.2, every choice of this server in A.3."""
    rules = RULES.read_text()
    marks = marked_sections(rules)
    for mark, heading in (
        ("Decision", r"^A\.1 "),
        ("Beyond the sources", r"^A\.2 "),
        ("This server", r"^A\.3 "),
    ):
        listed = set(re.findall(r"§(\d+\.\d+)", section(rules, heading)))
        assert listed == marks[mark], mark


# --------------------------------------------------------------------------- the socket


def undocumented_socket(codes_doc: str, client_doc: str, server_doc: str) -> list[str]:
    problems = []
    for code in sorted(error_codes()):
        if not table_rows(codes_doc, code):
            problems.append(f"error code {code} is not in §5.5")
    for kind in sorted(client_message_types()):
        if not re.search(rf"^#+ `{kind}`", client_doc, re.M) and not table_rows(client_doc, kind):
            problems.append(f"client message {kind} is not in §5.2")
    for kind in sorted(server_message_types()):
        if not table_rows(server_doc, kind):
            problems.append(f"server message {kind} is not in §5.3")
    return problems


def _socket_docs() -> tuple[str, str, str]:
    return (
        protocol_section(r"^5\.5 Error codes"),
        protocol_section(r"^5\.2 Client-to-server messages"),
        protocol_section(r"^5\.3 Server-to-client messages"),
    )


def test_every_error_code_and_message_type_is_in_the_protocol() -> None:
    assert undocumented_socket(*_socket_docs()) == []


def test_an_undocumented_code_or_message_is_found() -> None:
    codes, client, server = _socket_docs()
    assert any(
        "top_up" in p
        for p in undocumented_socket(codes, re.sub(r"`top_up`", "`topup`", client), server)
    )
    assert any(
        "seat_taken" in p
        for p in undocumented_socket(
            re.sub(r"^\| `seat_taken`.*\n", "", codes, flags=re.M), client, server
        )
    )
    assert any(
        "pong" in p
        for p in undocumented_socket(
            codes, client, re.sub(r"^\| `pong`.*\n", "", server, flags=re.M)
        )
    )


# --------------------------------------------------------------------------- citations and links


def _tracked_files() -> list[Path]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    names = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    return [ROOT / name.decode() for name in names if name and (ROOT / name.decode()).is_file()]


def _text(path: Path) -> str | None:
    try:
        return path.read_text()
    except (UnicodeDecodeError, OSError):
        return None


def _sections(path: Path) -> set[str]:
    """The section numbers of a numbered document: "3", "3.7"."""
    return {
        found.group(1)
        for line in _fenced_out(path.read_text())
        if (found := re.match(r"#+ (\d+(?:\.\d+)?)\.? ", line))
    }


def test_every_cited_section_exists() -> None:
    """A citation "docs/rules.md §3.7" (or the brief's "docs/rules.md §3"), "docs/protocol.md §6.6"
    names a section that is there (the protocol's sections are in its parts, docs/protocol/)."""
    rules = _sections(RULES)
    protocol = set().union(*(_sections(path) for path in PROTOCOL.glob("*.md")))
    rules_citation = re.compile(
        r"(?:RULES|rules)\.md\W{0,3}((?:§\s*\d+(?:\.\d+)?[,; ]*(?:and )?)+)"
    )
    protocol_citation = re.compile(r"protocol\.md\W{0,3}((?:§\s*\d+(?:\.\d+)?[,; ]*(?:and )?)+)")
    missing = []
    for path in _tracked_files():
        text = _text(path)
        if not text or "§" not in text:
            continue
        for pattern, known in ((rules_citation, rules), (protocol_citation, protocol)):
            for found in pattern.finditer(text):
                for number in re.findall(r"§\s*(\d+(?:\.\d+)?)", found.group(1)):
                    if number not in known:
                        missing.append(f"{path.relative_to(ROOT)}: {found.group(0).strip()}")
    assert missing == []


BRIEF_FILE = re.compile(r"(?<![\w/.-])(?:RULES|STYLE|PROTOCOL)\.md\b")
"""The brief's own files by name (its rule book, style guide and protocol), which a clone of the
repository does not have: the code cites the project's docs/rules.md and docs/protocol.md."""

CITING_TREES = ("app", "static", "templates", "tests", "bench", "migrations")


def brief_files_named(text: str) -> list[str]:
    """The lines of ``text`` that name one of the brief's files."""
    return [line.strip() for line in text.splitlines() if BRIEF_FILE.search(line)]


def test_no_code_names_the_briefs_files() -> None:
    offenders = []
    for path in _tracked_files():
        if path.relative_to(ROOT).parts[0] not in CITING_TREES:
            continue
        text = _text(path)
        if text is None:
            continue
        offenders += [f"{path.relative_to(ROOT)}: {line[:80]}" for line in brief_files_named(text)]
    assert offenders == []


def test_a_mention_of_the_briefs_files_is_found() -> None:
    rules, style, protocol = ("RULES", "STYLE", "PROTOCOL")  # apart, so this file names none
    assert brief_files_named(f"Seat order (see {rules}.md §1) and the view") == [
        f"Seat order (see {rules}.md §1) and the view"
    ]
    assert brief_files_named(f"as {style}.md asks") and brief_files_named(f"# {protocol}.md §6")
    assert not brief_files_named("docs/rules.md §1.9 and docs/protocol.md §6")


def test_links_in_the_docs_resolve() -> None:
    """Every relative link of README.md and docs/ reaches a file, and a heading when it names
    one (the protocol's parts link to each other's sections)."""
    broken = []
    for path in [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]:
        text = "\n".join(_fenced_out(path.read_text()))
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            file_part, _, anchor = target.partition("#")
            linked = (path.parent / file_part).resolve() if file_part else path
            if not linked.exists() or (
                anchor and linked.suffix == ".md" and anchor not in anchors(linked)
            ):
                broken.append(f"{path.relative_to(ROOT)}: {target}")
    assert broken == []


TRACKER_WORDING = re.compile(r"\bissues?\s*#?\s*\d+", re.IGNORECASE)
"""A numbered tracker item (the word issue, then its number, with or without a hash sign): it
means nothing to a reader of the repository, who should be told what is meant instead."""


def test_no_file_names_a_numbered_tracker_item() -> None:
    offenders = []
    for path in _tracked_files():
        text = _text(path)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if TRACKER_WORDING.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:80]}")
    assert offenders == []


def test_the_tracker_wording_is_recognised() -> None:
    word = "issue"  # spelled apart, so that this file does not name a tracker item itself
    assert TRACKER_WORDING.search(f"Benchmarks for {word.title()} 9, speed and scale")
    assert TRACKER_WORDING.search(f"see {word} #17")
    assert not TRACKER_WORDING.search("the issues of a table; 9 seats")
