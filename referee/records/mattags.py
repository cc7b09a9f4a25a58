""".mat header tags: the rules they give (:func:`rules_from_meta`) and take
(:func:`rule_tags`), and the order the writers put them in (:func:`ordered_meta`,
:func:`header_lines`; the SGF writer uses the order too)."""
from __future__ import annotations

from typing import Any, Iterable

from referee.records.record import RuleSettings


#: header tags in the order they are written: gnubg's own four (Site, Event, Round,
#: EventDate) keep gnubg's order; every other tag of the record follows its place here,
#: then any unknown tag in the record's order; ClockType last (gnubg keeps it as the
#: match comment, after a blank line)
_META_ORDER = ("Site", "Match ID", "Event", "Round", "Player 1", "Player 1 Elo", "Player 2", "Player 2 Elo",
               "EventDate", "EventTime", "Variation", "Unrated", "Crawford", "CubeLimit", "Transcriber")

#: the tags gnubg 1.07 writes on export (it drops the others)
GNUBG_TAGS = ("Site", "Event", "Round", "EventDate")


def _on(v: str) -> bool:
    return v.strip().lower() in ("on", "yes", "true", "1")


def rules_from_meta(meta: list[tuple[str, str]]) -> RuleSettings:
    """The rule settings (Crawford, Jacoby, beavers, cube limit, automatic doubles) a .mat header's tags give."""
    kw: dict[str, Any] = {}
    for k, v in meta:
        key = k.strip().lower()
        if key == "crawford":
            kw["crawford"] = _on(v)
        elif key == "jacoby":
            kw["jacoby"] = _on(v)
        elif key in ("beaver", "beavers"):
            kw["beavers"] = _on(v)
        elif key == "cubelimit" and (v.strip().isascii() and v.strip().isdigit()):
            kw["cube_limit"] = int(v)
        elif key in ("autodoubles", "automatic doubles") and (v.strip().isascii() and v.strip().isdigit()):
            kw["automatic_doubles"] = int(v)
    return RuleSettings(**kw)


def ordered_meta(meta: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """A record's header tags (empty ones too: they are kept) in the order the writers use
    (:data:`_META_ORDER`, then unknown tags as they come, ClockType last)."""
    tags = list(meta)
    rank = {k.lower(): i for i, k in enumerate(_META_ORDER)}
    known = sorted((kv for kv in tags if kv[0].lower() in rank), key=lambda kv: rank[kv[0].lower()])
    other = [kv for kv in tags if kv[0].lower() not in rank and kv[0].lower() != "clocktype"]
    return known + other + [kv for kv in tags if kv[0].lower() == "clocktype"]


def header_lines(meta: Iterable[tuple[str, str]]) -> list[str]:
    """The ``; [Key "Value"]`` lines for a record's header tags, in :func:`ordered_meta`'s order."""
    tags = ordered_meta(meta)
    out = [f'; [{k} "{v}"]' for k, v in tags if k.lower() != "clocktype"]
    if out:
        out.append("")
    clock = [v for k, v in tags if k.lower() == "clocktype"]
    if clock:  # gnubg keeps it as the match comment
        out += [f'; [ClockType "{clock[0]}"]', ""]
    return out


def rule_tags(rules: RuleSettings, meta: Iterable[tuple[str, str]] = ()) -> list[tuple[str, str]]:
    """Header tags for the optional rules a .mat has no other place for (Jacoby, beavers,
    automatic doubles; the ones :func:`rules_from_meta` reads back), unless ``meta`` has them."""
    have = {k.strip().lower() for k, _ in meta}
    out = []
    if rules.jacoby and "jacoby" not in have:
        out.append(("Jacoby", "On"))
    if rules.beavers and not have & {"beaver", "beavers"}:
        out.append(("Beaver", "On"))
    if rules.automatic_doubles and not have & {"autodoubles", "automatic doubles"}:
        out.append(("AutoDoubles", str(rules.automatic_doubles)))
    return out

