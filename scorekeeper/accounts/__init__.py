"""Accounts: registering, logging in and out, API tokens, passwords and sessions, and the
login limits. Other features ask it who is signed in (`me`), guard the JSON API with
`api_login_required`, find an account by its name, and which names look like others'."""

from scorekeeper.accounts.access import api_login_required
from scorekeeper.accounts.auth import me, signed_in
from scorekeeper.accounts.service import find_user, look_alikes

__all__ = ["api_login_required", "find_user", "look_alikes", "me", "signed_in"]
