"""Tournaments (issue 20): several tables, several rounds, one ranking.

The feature lives here. Its pure arithmetic — the VP scales (`scales`), the movements
(`movements`) and the ranking (`standings`) — imports only the standard library and the
rules engine's message functions (`scorekeeper.rules.i18n`, itself standard library only),
so it can be reasoned about and tested without Flask or a database; the models, service and
API are built on top of it. Spec: tournaments.md (product decisions).

The front door for other features: the modules named in `__all__`, imported as
``from scorekeeper.tournaments import service`` (nothing is imported here, so importing the
pure modules loads neither Flask nor a database).
"""

__all__ = ["movements", "scales", "service", "standings"]
