"""Referee tools for the table, no login needed: the meld checker and the rules of each preset.

The meld checker works with JavaScript off (the form posts and the page shows the verdict);
static/js/meld-check.js then asks the JSON API instead, so the verdict follows every card.
"""

from __future__ import annotations

import json

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import login_required

from scorekeeper import referee
from scorekeeper.accounts import me, signed_in
from scorekeeper.clubs import match_for, member_match
from scorekeeper.extensions import csrf
from scorekeeper.match import variant_of
from scorekeeper.numbers import row_id
from scorekeeper.referee.forms import MeldCheckForm, sentence
from scorekeeper.rules.presets import PRESETS, find_variant
from scorekeeper.rules.variants import OptionError
from scorekeeper.web.gettext import gettext as _
from scorekeeper.words import ASSUMED_NOTE, SUIT_CHOICES, describe_rules, summary, verdict_words

bp = Blueprint("referee", __name__)


@bp.get("/referee")
def index() -> str:
    return render_template("referee/index.html")


@bp.route("/referee/meld", methods=["GET", "POST"])
@csrf.exempt  # see MeldCheckForm.Meta: the checker changes nothing
def meld() -> ResponseReturnValue:
    # A GET with ?cards= shows a verdict too, so a match page can link straight to a ruling.
    posted = request.method == "POST"
    form = MeldCheckForm(formdata=request.form if posted else request.args or None)
    _use_match_rules(form, request.args.get("match", ""))
    variant = form.chosen_variant()
    words = None
    if (posted or "cards" in request.args) and form.validate():
        body = form.request_body()
        try:
            answer = referee.check_meld(body)
            needs = referee.read_opening(body["opening"], variant)
        except ValueError as error:  # the form checked the notation; this is a backstop
            form.cards.errors.append(sentence(str(error)))
        else:
            words = verdict_words(answer, variant, needs)
    return render_template(
        "referee/meld.html", form=form, variant=variant, words=words, kozi_choices=SUIT_CHOICES
    ), (400 if form.errors else 200)


def _use_match_rules(form: MeldCheckForm, match_id: str) -> None:
    """Opened from a match (``?match=<id>``), the checker judges by that match's own rules,
    for its members; anyone else gets the plain checker."""
    found = row_id(match_id)
    if found is None or form.options.data:
        return
    match = member_match(signed_in(), found)
    if match is None:
        return
    form.variant.data = match.variant_id
    form.options.data = json.dumps(match.house_rules, ensure_ascii=False)


@bp.get("/matches/<int:match_id>/rules")
@login_required
def match_rules(match_id: int) -> ResponseReturnValue:
    """The rules of one match in plain words: its preset with the players' house rules."""
    match = match_for(me(), match_id)  # to strangers the match does not exist
    variant = variant_of(match)
    groups = describe_rules(variant)
    return render_template(
        "referee/rules.html",
        variant=variant,
        groups=groups,
        assumed_count=sum(1 for group in groups for rule in group.rules if rule.assumed),
        assumed_note=ASSUMED_NOTE,
        match=match,
    )


@bp.get("/rules")
def rules_index() -> str:
    presets = [(variant, summary(variant)) for variant in PRESETS.values()]
    return render_template("referee/rules_index.html", presets=presets)


@bp.get("/rules/<variant_id>")
def rules(variant_id: str) -> ResponseReturnValue:
    try:
        variant = find_variant(variant_id)
    except OptionError:
        abort(404, description=_("There is no rule set called “%(name)s”.", name=variant_id))
    if variant.id != variant_id:  # an alias or another spelling: one address per preset
        return redirect(url_for(".rules", variant_id=variant.id), 301)
    groups = describe_rules(variant)
    return render_template(
        "referee/rules.html",
        variant=variant,
        groups=groups,
        assumed_count=sum(1 for group in groups for rule in group.rules if rule.assumed),
        assumed_note=ASSUMED_NOTE,
    )
