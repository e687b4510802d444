"""The score with no network: what the phone's browser runs, in Pyodide, beside the rules
engine (static/js/offline-engine.js loads it with `scorekeeper/rules` from engine_files.py).

Standard library, `scorekeeper.rules` and the pages' word builders of `scorekeeper.words`
(the meld verdicts' and the deal's, which the phone runs over the same catalog through
play/phone_babel.py), never Flask itself: the browser has nothing else. The entry points
each take and give JSON text:

* `score_json(request)`: a hand as `POST /api/v1/hands/score` takes it, scored as that
  endpoint answers (the golden hands' contract): so a test can hold the browser's answers
  against the server's, hand for hand.
* `meld_check_json(request)`: a meld as `POST /api/v1/melds/check` takes it, answered as
  that endpoint answers, verdict line and words included: the hand page's verdict on each
  meld with no network.
* `preview_json(setup, fields)`: the hand form's fields (as the page would post them) against
  the match's setup kept with the page (`offline_setup()` in engine_files.py), answered in the
  shape of the live preview (the "hand:preview" contract at the top of hand-entry.js), so the
  page draws it as it draws the server's.

Only fixed-team formats are previewed here (the sides that form each hand credit shares to
players, which needs the seating the server reads); for those the answer says so in `errors`.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from scorekeeper.rules.cards import Card, CardError, Suit, parse_cards
from scorekeeper.rules.formats import find_format
from scorekeeper.rules.i18n import translations
from scorekeeper.rules.match import MatchSetup, deal_order, dealer_for, state_after
from scorekeeper.rules.points import format_points, parse_points, points_json
from scorekeeper.rules.presets import find_variant
from scorekeeper.rules.scoring import (
    Cut,
    HandScore,
    TeamHand,
    kozi_missing,
    meld_answer,
    score_hand,
)
from scorekeeper.rules.variants import Variant, options_from_json
from scorekeeper.words import api_words, deal_text, opening_line, requirement_text


def _(message: str, **values: Any) -> str:
    """The page's words as Flask-Babel gives them: the same catalog, the same formatting."""
    text = translations().gettext(message)
    return text % values if values else text


def _variant(body: dict[str, Any]) -> Variant:
    return find_variant(str(body["variant"])).with_options(**options_from_json(body.get("options")))


def _suit(value: Any) -> Suit | None:
    for suit in Suit:
        if value in (suit.value, suit.symbol):
            return suit
    return None


def _cards(text: Any) -> tuple[Card, ...]:
    return parse_cards(str(text or ""))


# --- the referee's contract ------------------------------------------------------------------


def score_json(request: str) -> str:
    """`POST /api/v1/hands/score`'s answer for a readable request (golden hands)."""
    body = json.loads(request)
    variant = _variant(body)
    table_format = find_format(body.get("format") or "4p")
    teams = [
        TeamHand(
            name=str(t["name"]),
            melds=tuple(_cards(m) for m in t.get("melds", [])),
            hands=None if t.get("hands") is None else tuple(_cards(h) for h in t["hands"]),
            hand_points=t.get("hand_points"),
            went_out=bool(t.get("went_out")),
            took_biribaki=bool(t.get("took_biribaki")),
            score_before=parse_points(str(t.get("score_before", 0))),
            opening=None if t.get("opening") is None else _cards(t["opening"]),
            opening_melds=None if t.get("opening_melds") is None else tuple(t["opening_melds"]),
            cut=None if t.get("cut") is None else Cut(t["cut"]),
            failed_openings=int(t.get("failed_openings") or 0),
            biribaki_unplayed=None
            if t.get("biribaki_unplayed") is None
            else _cards(t["biribaki_unplayed"]),
        )
        for t in body["teams"]
    ]
    hand = score_hand(variant, teams, _suit(body.get("kozi")), table_format)
    return json.dumps(_contract(hand), ensure_ascii=False)


def _contract(hand: HandScore) -> dict[str, Any]:
    return {
        "legal": hand.legal,
        "problems": list(hand.problems),
        "teams": [
            {
                "name": team.name,
                "score": points_json(team.score),
                "lines": [
                    {"label": line.label, "points": points_json(line.points)} for line in team.lines
                ],
                "problems": list(team.problems),
                "opening_required": team.opening_required,
            }
            for team in hand.teams
        ],
    }


def meld_check_json(request: str) -> str:
    """`POST /api/v1/melds/check`'s answer (the referee service asks `meld_answer` too, and
    the API words it with `api_words`); a meld that is not cards answers its `error`, as the
    API's 400 does."""
    body = json.loads(request)
    variant = _variant(body)
    table_format = None if body.get("format") is None else find_format(str(body["format"]))
    try:
        cards = _cards(body.get("cards"))
    except CardError as error:
        return json.dumps({"error": str(error)}, ensure_ascii=False)
    answer = meld_answer(cards, variant, _suit(body.get("kozi")), table_format)
    answer.update(api_words(answer, variant))
    return json.dumps(answer, ensure_ascii=False)


# --- the live preview ------------------------------------------------------------------------


def _whole(text: str) -> int | None:
    """ASCII digits only, as scorekeeper.numbers reads them: "²" passes isdigit and fails
    int(). (This module runs on the phone too, with the engine alone, so it cannot import
    that reader.)"""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else None


def marked_melds(melds: list[str], marks: list[str]) -> tuple[int, ...]:
    """The opening marks of a side, posted as the positions of their meld rows, as indexes
    into the melds that hold cards (empty rows are not melds; a mark on one is dropped).
    The hand form reads them with this too, so the phone and the server read them alike."""
    positions = {_whole(m) for m in marks} - {None}
    filled, marked = 0, []
    for position, meld in enumerate(melds):
        if not meld.strip():
            continue
        if position in positions:
            marked.append(filled)
        filled += 1
    return tuple(marked)


def _side(
    setup: dict[str, Any], fields: dict[str, list[str]], i: int, errors: list[str]
) -> TeamHand:
    side = setup["sides"][i]

    def one(name: str) -> str:
        return (fields.get(name) or [""])[0]

    where = _("Team %(name)s", name=side["name"])

    def cards(text: str, what: str) -> tuple[Card, ...]:
        try:
            return parse_cards(text)
        except CardError as error:
            errors.append(f"{what}: {error}")
            return ()

    raw_melds = fields.get(f"s{i}-meld", [])
    melds = tuple(
        cards(m, _("%(where)s, meld %(number)d", where=where, number=n))
        for n, m in enumerate((m for m in raw_melds if m.strip()), 1)
    )
    points = one(f"s{i}-points").strip()
    hands = [one(f"p{seat}-hand").strip() for seat in side["players"]]
    opening_text = one(f"s{i}-opening").strip() if setup.get("opening") else ""
    marked = marked_melds(raw_melds, fields.get(f"s{i}-open", [])) if setup.get("opening") else ()
    cut = one(f"s{i}-cut")
    failed = one(f"s{i}-failed").strip() if setup.get("failed") else ""
    unplayed = one(f"s{i}-unplayed").strip()
    return TeamHand(
        name=side["name"],
        melds=melds,
        hands=None
        if points
        else tuple(
            cards(h, _("%(where)s, hand %(number)d", where=where, number=n))
            for n, h in enumerate(hands, 1)
        ),
        hand_points=_whole(points) if points else None,
        went_out=f"s{i}-out" in fields,
        took_biribaki=bool(setup.get("biribaki")) and f"s{i}-biribaki" in fields,
        score_before=Fraction(side["before"]),
        opening=cards(opening_text, _("%(where)s, opening", where=where)) if opening_text else None,
        opening_melds=marked if marked and not opening_text else None,
        cut=Cut(cut) if cut in setup.get("cuts", []) else None,
        failed_openings=_whole(failed) or 0,
        biribaki_unplayed=cards(unplayed, where) if unplayed else None,
    )


def _scored(
    setup: dict[str, Any], fields: dict[str, list[str]]
) -> tuple[HandScore | None, list[str]]:
    """The hand the form's `fields` hold, scored for the match `setup` (each side's total
    before it in `before`), with the errors that keep it from being saved as it stands; no
    score where a field cannot be read."""
    variant = _variant(setup)
    kozi = _suit((fields.get("kozi") or [""])[0]) if variant.kozi else None
    errors: list[str] = []
    teams = [_side(setup, fields, i, errors) for i in range(len(setup["sides"]))]
    if errors:
        return None, errors
    missing = kozi_missing(variant, kozi)
    if missing:
        errors.append(str(missing))
    return score_hand(variant, teams, kozi, find_format(setup["format"])), errors


#: A hand waiting on the phone, as outbox.js hands it over: `hand` is "new" or the number of
#: the hand it corrects; `fields` the form's ({name: [values]}); a correction's `base` what
#: its form kept of the match (draft.js): each side's total before it and its stored score.
Queued = dict[str, Any]


def _correct(
    setup: dict[str, Any], item: Queued, moved: dict[str, Fraction]
) -> tuple[HandScore | None, list[str]]:
    """A correction scored against the totals before its hand: those its form kept, moved
    by the corrections of earlier hands waiting with it (`moved`). No base, no score."""
    base = item.get("base") or {}
    if not base.get("before") or not base.get("was"):
        return None, []
    before = {
        **setup,
        "sides": [
            {**s, "before": str(Fraction(base["before"][s["name"]]) + moved[s["name"]])}
            for s in setup["sides"]
        ],
    }
    return _scored(before, item["fields"])


def _row(number: int, fields: dict[str, list[str]], correction: bool) -> dict[str, Any]:
    kozi = _suit((fields.get("kozi") or [""])[0])
    return {
        "number": number,
        "correction": correction,
        "kozi": None if kozi is None else kozi.symbol,
        "red": bool(kozi and kozi.red),
        "scores": [],
        "totals": [],
        "errors": [],
    }


def _after(
    setup: dict[str, Any], queued: list[Queued]
) -> tuple[list[dict[str, Any]], dict[str, Fraction] | None]:
    """Each hand of `queued` (saved on the phone, in order) as the server will have it once
    all are sent: a correction with its new score and the totals after its hand, every new
    hand numbered after the server's last one and scored on from the setup's totals moved
    by the corrections, with its kózi, each side's score and the totals after it. A hand's
    points never hang on the totals before it (they set only its opening's need, which
    words its problems: `scores_alike`), so a correction moves every later total by what it
    changed, as the server's rescoring of the later hands does. A hand that cannot be
    scored (a field unreadable, a correction without its base) has its `errors`, and the
    totals from it on are not known: then the totals after them all are None."""
    names = [side["name"] for side in setup["sides"]]
    rows: list[dict[str, Any]] = []
    number = int(setup.get("next") or 1)
    for item in queued:
        if item.get("hand") == "new":
            rows.append(_row(number, item["fields"], False))
            number += 1
        else:
            rows.append(_row(int(item["hand"]), item["fields"], True))
    # The corrections first, oldest hand first: each moves the totals of every hand after it.
    moved: dict[int, dict[str, Fraction]] = {}  # by hand number: what its correction changed
    unknown_from: int | None = None  # the first hand whose totals after are not known
    fixes = sorted(
        (i for i, item in enumerate(queued) if item.get("hand") != "new"),
        key=lambda i: int(queued[i]["hand"]),
    )
    for i in fixes:
        item, row = queued[i], rows[i]
        earlier = {
            n: sum((d[n] for h, d in moved.items() if h < row["number"]), Fraction(0))
            for n in names
        }
        scored, errors = _correct(setup, item, earlier)
        if scored is None:
            row["errors"] = errors
            unknown_from = row["number"] if unknown_from is None else unknown_from
            continue
        was = item["base"]["was"]
        moved[row["number"]] = {t.name: t.score - Fraction(was[t.name]) for t in scored.teams}
        row["scores"] = [{"name": t.name, "score": format_points(t.score)} for t in scored.teams]
        if unknown_from is None:
            score = {t.name: t.score for t in scored.teams}
            after = {n: Fraction(item["base"]["before"][n]) + earlier[n] + score[n] for n in names}
            row["totals"] = [{"name": n, "total": format_points(t)} for n, t in after.items()]
    totals = {side["name"]: Fraction(side["before"]) for side in setup["sides"]}
    for change in moved.values():
        totals = {n: totals[n] + change[n] for n in names}
    known = unknown_from is None
    for item, row in zip(queued, rows, strict=True):
        if row["correction"]:
            continue
        if not known:
            continue
        before = {
            **setup,
            "sides": [{**s, "before": str(totals[s["name"]])} for s in setup["sides"]],
        }
        scored, errors = _scored(before, item["fields"])
        if scored is None:
            row["errors"] = errors
            known = False
            continue
        totals = {n: totals[n] + t.score for n, t in zip(names, scored.teams, strict=True)}
        row["scores"] = [{"name": t.name, "score": format_points(t.score)} for t in scored.teams]
        row["totals"] = [{"name": n, "total": format_points(t)} for n, t in totals.items()]
    return rows, totals if known else None


def progress_json(setup_text: str, queued_text: str) -> str:
    """The scoreboard's hands saved on the phone (`queued`, in order: new hands and
    corrections, see `Queued`) after the server's last hand: each numbered, with its kózi,
    its scores and the totals after it (`_after`); the standings they leave (each side's
    total and next opening need, as the scoreboard's cards show them; none where a total is
    not known); and who deals next once they are played (the engine's deal, and its order
    in the pages' words), or who has won."""
    setup: dict[str, Any] = json.loads(setup_text)
    queued: list[Queued] = json.loads(queued_text)
    answer: dict[str, Any] = {
        "hands": [],
        "standings": [],
        "next_dealer": None,
        "deal_order": "",
        "winner": None,
    }
    if setup.get("shared"):
        return json.dumps(answer, ensure_ascii=False)
    hands, totals = _after(setup, queued)
    variant = _variant(setup)
    names: dict[str, str] = setup["names"]
    match = MatchSetup(
        variant,
        find_format(setup["format"]),
        tuple(setup["seats"]),
        {s["name"]: tuple(str(p) for p in s["players"]) for s in setup["sides"]},
        int(setup["first_dealer"]),
    )
    played = int(setup["played"]) + sum(1 for item in queued if item.get("hand") == "new")
    if totals is not None:
        state = state_after(match, totals, played)
        answer["winner"] = state.winner
        answer["standings"] = [
            {
                "name": s.name,
                "total": format_points(s.total),
                "opening": requirement_text(s.opening),
                "progress": float(max(Fraction(0), min(s.total, Fraction(variant.target)))),
            }
            for s in state.standings
        ]
    dealer = dealer_for(match, played)
    if answer["winner"] is None and dealer is not None:
        order = deal_order(match.seats, match.first_dealer, variant.deal_direction, played)
        answer["next_dealer"] = names.get(dealer, dealer)
        answer["deal_order"] = deal_text(variant.deal_direction, [names.get(p, p) for p in order])
    answer["hands"] = hands
    return json.dumps(answer, ensure_ascii=False)


def preview_json(setup_text: str, fields_text: str, queued_text: str = "[]") -> str:
    """The live preview of the form's `fields` ({name: [values]}) for the match `setup`,
    after the hands `queued` on the phone before it (new hands scored on from the setup's
    totals, and corrections of earlier hands, see `_after`: the hand typed now follows
    them)."""
    setup: dict[str, Any] = json.loads(setup_text)
    fields: dict[str, list[str]] = json.loads(fields_text)
    queued: list[Queued] = json.loads(queued_text)
    answer: dict[str, Any] = {"errors": [], "problems": [], "teams": [], "totals": []}
    if setup.get("shared"):
        answer["errors"].append(setup.get("unsupported", ""))
        return json.dumps(answer, ensure_ascii=False)
    after = _after(setup, queued)[1] if queued else None
    if after is not None:
        setup = {**setup, "sides": [{**s, "before": str(after[s["name"]])} for s in setup["sides"]]}
    hand, errors = _scored(setup, fields)
    if hand is None:
        answer["errors"] = errors
        return json.dumps(answer, ensure_ascii=False)
    answer["errors"] = errors
    answer["problems"] = list(hand.problems)
    count = len(hand.problems)
    answer["problems_title"] = translations().ngettext(
        "%(num)d problem", "%(num)d problems", count
    ) % {"num": count}
    answer["teams"] = [
        {
            "name": team.name,
            "score": format_points(team.score),
            "lines": [{"label": ln.label, "points": format_points(ln.points)} for ln in team.lines],
            "problems": list(team.problems),
            "opening_line": opening_line(
                team.opening_text or "", team.opening_required or 0, team.opening_points
            )
            if setup.get("opening")
            else None,
        }
        for team, side in zip(hand.teams, setup["sides"], strict=True)
    ]
    if not answer["errors"]:
        answer["totals"] = [
            {"name": side["name"], "total": format_points(Fraction(side["before"]) + team.score)}
            for team, side in zip(hand.teams, setup["sides"], strict=True)
        ]
    return json.dumps(answer, ensure_ascii=False)
