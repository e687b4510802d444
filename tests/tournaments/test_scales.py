"""VP scales (tournaments.md §3): the presets row by row, the VP always sharing out the same
total, and every problem a custom scale can have, each said as a sentence naming its row."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.catalog import catalog

from scorekeeper.rules.i18n import data_of, render, tr, using
from scorekeeper.tournaments.scales import (
    BURRACO_3_DEALS,
    BURRACO_4_DEALS,
    CUSTOM,
    MAX_ROWS,
    SCALES,
    WIN_DRAW_LOSS,
    ScaleError,
    ScaleRow,
    VPScale,
    find_scale,
    parse_scale,
    row_for,
    scale_to_json,
    vp,
)

# tournaments.md §3, copied by hand: (lowest difference, highest difference or None for
# "over …", winner's VP, loser's VP).
SPEC_3_DEALS = [
    (0, 50, 10, 10),
    (55, 150, 11, 9),
    (155, 250, 12, 8),
    (255, 350, 13, 7),
    (355, 500, 14, 6),
    (505, 650, 15, 5),
    (655, 800, 16, 4),
    (805, 1000, 17, 3),
    (1005, 1250, 18, 2),
    (1255, 1500, 19, 1),
    (1505, None, 20, 0),
]
SPEC_4_DEALS = [
    (0, 100, 10, 10),
    (105, 300, 11, 9),
    (305, 500, 12, 8),
    (505, 700, 13, 7),
    (705, 900, 14, 6),
    (905, 1100, 15, 5),
    (1105, 1300, 16, 4),
    (1305, 1500, 17, 3),
    (1505, 1700, 18, 2),
    (1705, 2000, 19, 1),
    (2005, None, 20, 0),
]


def boundary_cases(
    scale: VPScale, spec: list[tuple[int, int | None, int, int]]
) -> list[tuple[VPScale, int, tuple[int, int]]]:
    """Each row's lowest and highest difference, and the differences between it and the next
    row (which belong to it, the row of the lower differences: "e.g. 52" goes with 50)."""
    cases = []
    for low, high, winner, loser in spec:
        cases.append((scale, low, (winner, loser)))
        if high is None:
            cases.append((scale, low + 100_000, (winner, loser)))
            continue
        cases.append((scale, high, (winner, loser)))
        for between in (high + 1, high + 2, high + 4):
            cases.append((scale, between, (winner, loser)))
    return cases


CASES = boundary_cases(BURRACO_3_DEALS, SPEC_3_DEALS) + boundary_cases(
    BURRACO_4_DEALS, SPEC_4_DEALS
)


@pytest.mark.parametrize(
    ("scale", "difference", "expected"),
    CASES,
    ids=[f"{scale.id}-{difference}" for scale, difference, _expected in CASES],
)
def test_every_row_boundary_of_the_burraco_scales(
    scale: VPScale, difference: int, expected: tuple[int, int]
) -> None:
    winner, loser = expected
    assert vp(scale, 2000 + difference, 2000) == (winner, loser)
    assert vp(scale, 2000, 2000 + difference) == (loser, winner)
    # Only the difference counts: negative match totals (Biriba's can be) change nothing.
    assert vp(scale, -difference - 300, -300) == (loser, winner)


def test_the_brief_s_own_examples() -> None:
    assert vp(BURRACO_3_DEALS, 52, 0) == (10, 10)
    assert vp(BURRACO_3_DEALS, 55, 0) == (11, 9)
    assert vp(BURRACO_3_DEALS, 0, 1505) == (0, 20)
    assert vp(BURRACO_3_DEALS, 1500, 0) == (19, 1)
    assert vp(BURRACO_4_DEALS, 2000, 0) == (19, 1)
    assert vp(BURRACO_4_DEALS, 2004, 0) == (19, 1)
    assert vp(BURRACO_4_DEALS, 2005, 0) == (20, 0)


@pytest.mark.parametrize(
    ("mp_a", "mp_b", "expected"),
    [(0, 0, (1, 1)), (-40, -40, (1, 1)), (1, 0, (2, 0)), (0, 1, (0, 2)), (5000, -5, (2, 0))],
)
def test_win_draw_loss(mp_a: int, mp_b: int, expected: tuple[int, int]) -> None:
    assert vp(WIN_DRAW_LOSS, mp_a, mp_b) == expected


def test_the_presets_are_registered_by_id() -> None:
    assert list(SCALES) == ["burraco-3-deals", "burraco-4-deals", "win-draw-loss"]
    for scale_id, scale in SCALES.items():
        assert find_scale(scale_id) is scale
        assert scale.id == scale_id
    assert [scale.total for scale in SCALES.values()] == [20, 20, 2]


def test_an_unknown_preset_is_named() -> None:
    with pytest.raises(ScaleError) as raised:
        find_scale("burraco-5-deals")
    assert raised.value.messages == (
        "There is no VP scale burraco-5-deals; choose one of burraco-3-deals, "
        "burraco-4-deals, win-draw-loss.",
    )


def test_a_negative_difference_has_no_row() -> None:
    with pytest.raises(ValueError):
        row_for(BURRACO_3_DEALS, -5)


mp = st.integers(min_value=-100_000, max_value=100_000)


@given(scale=st.sampled_from(list(SCALES.values())), mp_a=mp, mp_b=mp)
def test_the_vp_of_a_table_always_add_up_to_the_scale_s_total(
    scale: VPScale, mp_a: int, mp_b: int
) -> None:
    a, b = vp(scale, mp_a, mp_b)
    assert a + b == (2 if scale is WIN_DRAW_LOSS else 20)
    assert vp(scale, mp_b, mp_a) == (b, a)
    # More MP never gets fewer VP than the other side, and equal MP split evenly.
    assert (a > b) <= (mp_a > mp_b)
    assert (a == b) >= (mp_a == mp_b)


@given(scale=st.sampled_from(list(SCALES.values())), low=mp, gap=st.integers(0, 5000))
def test_a_larger_difference_never_gives_the_winner_less(
    scale: VPScale, low: int, gap: int
) -> None:
    difference = abs(low)
    assert row_for(scale, difference + gap).winner >= row_for(scale, difference).winner


@st.composite
def valid_scales(draw: st.DrawFn) -> list[dict[str, Any]]:
    """A custom scale that breaks no rule: rising thresholds, one even total, the winner's
    share never falling."""
    half = draw(st.integers(1, 50))
    count = draw(st.integers(1, MAX_ROWS))
    ups = sorted(draw(st.sets(st.integers(0, 1_000_000), min_size=count - 1, max_size=count - 1)))
    shares = sorted(draw(st.lists(st.integers(half, 2 * half), min_size=count, max_size=count)))
    shares[0] = half
    return [
        {"up_to": up_to, "winner": share, "loser": 2 * half - share}
        for up_to, share in zip([*ups, None], shares, strict=True)
    ]


@given(data=valid_scales(), mp_a=mp, mp_b=mp)
def test_a_valid_custom_scale_parses_and_shares_its_total(
    data: list[dict[str, Any]], mp_a: int, mp_b: int
) -> None:
    scale = parse_scale(data)
    assert scale.id == CUSTOM
    assert scale_to_json(scale) == data
    a, b = vp(scale, mp_a, mp_b)
    assert a + b == data[0]["winner"] + data[0]["loser"]


@pytest.mark.parametrize("scale", list(SCALES.values()), ids=list(SCALES))
def test_a_scale_round_trips_through_its_json_form(scale: VPScale) -> None:
    sent = json.loads(json.dumps(scale_to_json(scale)))
    assert sent[-1] == {"up_to": None, "winner": scale.rows[-1].winner, "loser": 0}
    assert parse_scale(sent).rows == scale.rows


def test_the_json_form_is_the_api_s() -> None:
    assert scale_to_json(WIN_DRAW_LOSS) == [
        {"up_to": 0, "winner": 1, "loser": 1},
        {"up_to": None, "winner": 2, "loser": 0},
    ]


def test_a_whole_number_written_with_a_decimal_point_is_accepted() -> None:
    scale = parse_scale(
        [{"up_to": 50.0, "winner": 10, "loser": 10.0}, {"up_to": None, "winner": 20, "loser": 0}]
    )
    assert scale.rows == (ScaleRow(50, 10, 10), ScaleRow(None, 20, 0))


def row(up_to: object, winner: object, loser: object) -> dict[str, object]:
    return {"up_to": up_to, "winner": winner, "loser": loser}


GOOD_END = row(None, 20, 0)

PROBLEMS: list[tuple[str, object, list[str]]] = [
    ("not a list", {"up_to": None}, ["A VP scale must be a list of rows."]),
    ("no rows", [], ["A VP scale needs at least one row."]),
    (
        "too many rows",
        [row(n, 10, 10) for n in range(MAX_ROWS)] + [GOOD_END],
        ["A VP scale has at most 30 rows; this one has 31."],
    ),
    (
        "thresholds falling",
        [row(50, 10, 10), row(150, 11, 9), row(100, 12, 8), GOOD_END],
        ["Row 3's up_to (100) must be above row 2's (150)."],
    ),
    (
        "thresholds repeated",
        [row(50, 10, 10), row(50, 11, 9), GOOD_END],
        ["Row 2's up_to (50) must be above row 1's (50)."],
    ),
    (
        "last row closed",
        [row(50, 10, 10), row(150, 20, 0)],
        ["Row 2 is the last row, so its up_to must be null: it takes every larger difference."],
    ),
    (
        "open row before the last",
        [row(50, 10, 10), row(None, 11, 9), GOOD_END],
        ["Row 2's up_to is null, but only the last row may leave it open."],
    ),
    (
        "totals differ",
        [row(50, 10, 10), row(150, 12, 9), GOOD_END],
        [
            "Row 2's VP add up to 21, but row 1's add up to 20: every row must share out "
            "the same total."
        ],
    ),
    (
        "loser above winner",
        [row(50, 10, 10), row(150, 9, 11), GOOD_END],
        [
            "Row 2 gives the loser more VP (11) than the winner (9).",
            "Row 2 gives the winner fewer VP (9) than row 1 does (10): a larger difference "
            "must not give less.",
        ],
    ),
    (
        "winner's share falling",
        [row(50, 10, 10), row(150, 13, 7), row(250, 12, 8), GOOD_END],
        [
            "Row 3 gives the winner fewer VP (12) than row 2 does (13): a larger difference "
            "must not give less."
        ],
    ),
    (
        "first row uneven",
        [row(50, 11, 9), GOOD_END],
        ["Row 1 must give both sides the same VP, not 11–9: equal MP fall in it."],
    ),
    (
        "negative values",
        [row(-5, 10, 10), row(None, 21, -1)],
        [
            "Row 1's up_to (-5) must not be negative.",
            "Row 2's loser (-1) must not be negative.",
        ],
    ),
    (
        "threshold too large",
        [row(1_000_001, 10, 10), GOOD_END],
        ["Row 1's up_to (1000001) must be at most 1000000."],
    ),
    (
        "VP too large",
        [row(None, 101, 101)],
        ["Row 1's winner (101) must be at most 100.", "Row 1's loser (101) must be at most 100."],
    ),
    (
        "total too large",
        [row(0, 51, 51), row(None, 102, 0)],
        [
            "Row 1's VP add up to 102; a scale gives a table at most 100 VP.",
            "Row 2's winner (102) must be at most 100.",
        ],
    ),
    (
        "total zero",
        [row(None, 0, 0)],
        ["Row 1's VP add up to 0: a scale must give a table some VP."],
    ),
    (
        "row not an object",
        [row(50, 10, 10), [150, 11, 9], GOOD_END],
        ["Row 2 must be an object with up_to, winner and loser."],
    ),
    (
        "missing fields",
        [{"winner": 10}, GOOD_END],
        ["Row 1 has no up_to.", "Row 1 has no loser."],
    ),
    (
        "unknown fields",
        [row(50, 10, 10) | {"vp": 3, "from": 0}, GOOD_END],
        ["Row 1 has fields a VP scale does not have: from, vp."],
    ),
    (
        "not whole numbers",
        [row("50", 10.5, True), GOOD_END],
        [
            'Row 1\'s up_to must be a whole number or null, not "50".',
            "Row 1's winner must be a whole number, not 10.5.",
            "Row 1's loser must be a whole number, not true.",
        ],
    ),
    (
        "a long value is cut short",
        [row("x" * 100, 10, 10), GOOD_END],
        ["Row 1's up_to must be a whole number or null, not \"" + "x" * 38 + "…."],
    ),
]


@pytest.mark.parametrize(
    ("data", "expected"),
    [(data, expected) for _name, data, expected in PROBLEMS],
    ids=[name for name, _data, _expected in PROBLEMS],
)
def test_every_problem_of_a_custom_scale_is_a_sentence_naming_its_row(
    data: object, expected: list[str]
) -> None:
    with pytest.raises(ScaleError) as raised:
        parse_scale(data)
    assert list(raised.value.messages) == expected
    assert str(raised.value) == " ".join(expected)


def test_every_problem_is_found_at_once_in_row_order() -> None:
    data = [row(50, 11, 9), "row", row(40, 12, 8), row(None, 30, 0)]
    with pytest.raises(ScaleError) as raised:
        parse_scale(data)
    assert raised.value.messages == (
        "Row 1 must give both sides the same VP, not 11–9: equal MP fall in it.",
        "Row 2 must be an object with up_to, winner and loser.",
        "Row 3's up_to (40) must be above row 1's (50).",
        "Row 4's VP add up to 30, but row 1's add up to 20: every row must share out the "
        "same total.",
    )


def test_a_scale_built_in_code_is_checked_too() -> None:
    with pytest.raises(ScaleError) as raised:
        VPScale("mine", "Mine", (ScaleRow(50, 10, 10), ScaleRow(40, 20, 0)))
    assert raised.value.messages == (
        "Row 2 is the last row, so its up_to must be null: it takes every larger difference.",
        "Row 2's up_to (40) must be above row 1's (50).",
    )
    with pytest.raises(ScaleError):
        VPScale("empty", "Empty", ())


def test_the_problems_are_said_in_the_current_language_and_keep_their_data() -> None:
    with using(catalog("el")), pytest.raises(ScaleError) as raised:
        parse_scale([row(50, 10, 10), row(40, 11, 9), GOOD_END])
    [message] = raised.value.messages
    greek = "Το up_to της γραμμής 2 (40) πρέπει να είναι μεγαλύτερο από της γραμμής 1 (50)."  # noqa: RUF001
    assert message == greek
    # Stored, it is worded again in English from its data alone.
    assert render(data_of(message)) == "Row 2's up_to (40) must be above row 1's (50)."


@pytest.mark.parametrize("scale", list(SCALES.values()), ids=list(SCALES))
def test_every_preset_s_name_has_a_greek_translation(scale: VPScale) -> None:
    with using(catalog("el")):
        greek = tr(scale.name)
    assert greek != scale.name
    assert any("α" <= letter <= "ω" for letter in greek.lower())  # noqa: RUF001 Greek meant


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["up_to", "winner", "loser", "x"]), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(
    data=st.lists(
        st.fixed_dictionaries({"up_to": json_values, "winner": json_values, "loser": json_values})
        | json_values,
        max_size=6,
    )
    | json_values
)
def test_any_json_is_a_scale_or_a_scale_error(data: object) -> None:
    # Whatever a request sends, the service gets a scale or sentences for a 400, never a crash.
    try:
        scale = parse_scale(data)
    except ScaleError as error:
        assert error.messages
        assert all(message.endswith(".") for message in error.messages)
    else:
        assert parse_scale(scale_to_json(scale)).rows == scale.rows
