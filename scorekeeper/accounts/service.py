"""Accounts and API tokens."""

from __future__ import annotations

import hashlib
import itertools
import secrets
import unicodedata
from collections.abc import Iterable
from functools import cache

import sqlalchemy as sa
from flask import current_app, has_app_context
from werkzeug.security import check_password_hash, generate_password_hash

from scorekeeper.accounts.common_passwords import COMMON_PASSWORDS
from scorekeeper.errors import Invalid, NotFound
from scorekeeper.extensions import db
from scorekeeper.models import ApiToken, User, new_session_secret, utcnow
from scorekeeper.numbers import is_row_id
from scorekeeper.usernames import clean_username, look_key, username_key
from scorekeeper.web.gettext import gettext as _

MIN_PASSWORD = 8


class UsernameTaken(Invalid):
    """Someone already has that username (a form shows it beside the username field)."""


class LooksLikeAnother(UsernameTaken):
    """The username looks like an existing account's though spelt otherwise (alice in
    Cyrillic letters beside alice): shown beside the username field like a taken one."""


class WeakPassword(Invalid):
    """The password chosen is too easy to guess (a form shows it beside the password)."""


def _script(ch: str) -> str:
    """The script of a letter by its Unicode name ("LATIN", "CYRILLIC", "GREEK"…): the
    standard library has no script property, and the name's first word is close enough."""
    return unicodedata.name(ch, "UNKNOWN").split(" ", 1)[0]


def username_problem(username: str) -> str | None:
    """Why `username` cannot be a new username, or None."""
    if not username or len(username) > 80:
        return _("A username needs 1 to 80 characters.")
    if any(unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") for ch in username):
        return _("A username cannot hold control or unassigned characters; choose another.")
    scripts = {_script(ch) for ch in username if ch.isalpha()}
    if len(scripts) > 1:
        return _(
            "A username must use letters of one alphabet only (such as Latin or Greek), "
            "so that nobody can make a name that looks like someone else's."
        )
    return None


def _is_sequence(text: str) -> bool:
    """All one character, a run such as 12345678 or hgfedcba, or a short pattern repeated
    (abcabcabc, 12121212)."""
    steps = {ord(b) - ord(a) for a, b in itertools.pairwise(text)}
    if len(steps) <= 1 and steps <= {-1, 0, 1}:
        return True
    return any(
        len(text) % size == 0 and text == text[:size] * (len(text) // size) for size in range(1, 4)
    )


def password_problem(username: str, password: str) -> str | None:
    """Why `password` is too easy to guess for `username`, said as a sentence, or None.
    Asked only where a person chooses a password: registering, changing it, and the
    create-user command (test fixtures and the demo make accounts without it)."""
    if len(password) < MIN_PASSWORD:
        return _("A password needs at least %(count)d characters.", count=MIN_PASSWORD)
    folded = password.casefold()
    name = username_key(username)
    if name and (name in folded or folded in name or folded[::-1] == name):
        return _("A password must not contain your username; choose something else.")
    if _is_sequence(folded):
        return _(
            "That password is a simple run of characters (such as 12345678 or aaaaaaaa), "
            "which is guessed first; choose something else."
        )
    base = folded.rstrip("0123456789!@#$%^&*.?_- ")
    if folded in COMMON_PASSWORDS or base in COMMON_PASSWORDS:
        return _(
            "That password is one of the most common ones, which are guessed first; "
            "choose something less usual, such as a few unrelated words."
        )
    return None


def register(username: str, password: str) -> User:
    """A new account whose owner chose `username` and `password`: both are checked for
    being easy to confuse or to guess, then the account is made."""
    username = clean_username(username)
    problem = username_problem(username)
    if problem is not None:
        raise Invalid(problem)
    problem = password_problem(username, password)
    if problem is not None:
        raise WeakPassword(problem)
    return create_user(username, password)


def create_user(username: str, password: str) -> User:
    """An account, its username checked for being free however it is spelt. The password
    is not judged here (see `register`): fixtures and the demo pick theirs."""
    username = clean_username(username)
    if not username or len(username) > 80:
        raise Invalid(_("A username needs 1 to 80 characters."))
    if len(password) < MIN_PASSWORD:
        raise Invalid(_("A password needs at least %(count)d characters.", count=MIN_PASSWORD))
    if find_user(username) is not None:
        raise UsernameTaken(_taken(username))
    alike = look_alike(username)
    if alike is not None:
        raise LooksLikeAnother(
            _(
                "That name looks like an existing account's (%(name)s); choose another.",
                name=alike.username,
            )
        )
    user = User(username=username, password_hash=hash_password(password))
    db.session.add(user)
    try:
        db.session.commit()
    except sa.exc.IntegrityError:
        # Two people registered the same name at once; the other one was first.
        db.session.rollback()
        raise UsernameTaken(_taken(username)) from None
    return user


def _taken(username: str) -> str:
    return _("The username %(name)s is taken; choose another.", name=repr(username))


def find_user(username: str) -> User | None:
    """The account `username` names: spelt exactly as stored first (so accounts made before
    usernames were normalized, which may differ only by case, each keep working), else the
    first one whose name is the same once normalized (``OLGA``, ``ol\u200bga`` and olga in
    fullwidth letters find ``olga``). One query on two indexed columns: `User.name_key` is
    usernames.username_key, the key the login limit counts by too."""
    username = username.strip()
    if not username:
        return None
    key = username_key(username)
    exact = User.username == username
    return db.session.scalar(
        sa.select(User)
        .where(exact | (User.name_key == key) if key else exact)
        .order_by(sa.case((exact, 0), else_=1), User.id)
        .limit(1)
    )


def look_alike(username: str) -> User | None:
    """The first account whose name looks like `username` (the same confusable skeleton,
    usernames.look_key), if any: one indexed lookup."""
    return db.session.scalar(
        sa.select(User).where(User.look_key == look_key(username)).order_by(User.id).limit(1)
    )


def look_alikes(members: Iterable[User], askers: Iterable[User] = ()) -> dict[int, str]:
    """Whose name looks like a member's, for the pages to mark: user id -> the member's name.
    A member is marked when an older account among the members looks the same (the newer
    is the likelier copy); someone asking to join, when any member does. Compares the
    stored look keys (usernames.look_key), nothing read again."""
    first: dict[str, User] = {}
    alike: dict[int, str] = {}
    for user in sorted(members, key=lambda u: u.id):
        found = first.setdefault(user.look_key, user)
        if found.id != user.id:
            alike[user.id] = found.username
    for user in askers:
        member = first.get(user.look_key)
        if member is not None and member.id != user.id:
            alike[user.id] = member.username
    return alike


def hash_password(password: str) -> str:
    """Werkzeug's current default: scrypt (N=2**15, r=8, p=1) in Werkzeug 3. A hash made
    another way or with weaker parameters is made anew when its owner next logs in.

    The tests set PASSWORD_HASH_METHOD to a cheap method (scrypt's cost, paid by every
    account a test makes, was most of the suite's time); nothing else should set it."""
    method = current_app.config.get("PASSWORD_HASH_METHOD") if has_app_context() else None
    return generate_password_hash(password, method) if method else generate_password_hash(password)


def _method_of(password_hash: str) -> str:
    """How a hash was made: "scrypt:32768:8:1", "pbkdf2:sha256:600000"…"""
    return password_hash.split("$", 1)[0]


def _decoy_hash() -> str:
    method = current_app.config.get("PASSWORD_HASH_METHOD") if has_app_context() else None
    return _decoy_hash_for(method)


@cache
def _decoy_hash_for(method: str | None) -> str:
    password = secrets.token_urlsafe(16)
    return generate_password_hash(password, method) if method else generate_password_hash(password)


def authenticate(username: str, password: str) -> User | None:
    user = find_user(username)
    if user is None:
        # Check a password all the same, so that an unknown username answers no faster than a
        # wrong password and timing tells nobody which usernames exist.
        check_password_hash(_decoy_hash(), password)
        return None
    if not check_password_hash(user.password_hash, password):
        return None
    if _method_of(user.password_hash) != _method_of(_decoy_hash()):
        user.password_hash = hash_password(password)
        db.session.commit()
    return user


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def end_sessions(user: User) -> None:
    """Log `user` out everywhere: every session and remember-me cookie made so far names the
    old session secret, and stops working at its next request (API tokens are apart)."""
    user.session_secret = new_session_secret()
    db.session.commit()


def change_password(user: User, current: str, new: str) -> None:
    """A new password, if `current` is the one now; every other session ends with the old
    one (the caller logs the session that asked in again)."""
    if not check_password_hash(user.password_hash, current):
        raise Invalid(_("That is not your current password; nothing was changed."))
    problem = password_problem(user.username, new)
    if problem is not None:
        raise WeakPassword(problem)
    user.password_hash = hash_password(new)
    end_sessions(user)


def create_token(user: User, label: str = "") -> str:
    """A new bearer token; it is shown once and only its digest is kept."""
    token = "sk_" + secrets.token_urlsafe(32)
    db.session.add(ApiToken(user_id=user.id, digest=_digest(token), label=label[:80]))
    db.session.commit()
    return token


def user_for_token(token: str) -> User | None:
    return db.session.scalar(_TOKEN_USER, {"digest": _digest(token)})


# One query for token and user, built once: every API call asks it before anything else.
_TOKEN_USER = (
    sa.select(User)
    .join(ApiToken, ApiToken.user_id == User.id)
    .where(ApiToken.digest == sa.bindparam("digest"), ApiToken.revoked_at.is_(None))
)


def revoke_token(user: User, token_id: int) -> None:
    row = db.session.get(ApiToken, token_id) if is_row_id(token_id) else None
    if row is None or row.user_id != user.id:
        # Another person's token is as unknown as one that never existed: 404, not 403.
        raise NotFound(_("No such token."))
    if row.revoked_at is None:  # revoking twice keeps the first date
        row.revoked_at = utcnow()
    db.session.commit()


def list_tokens(user: User) -> list[ApiToken]:
    """The user's tokens, newest first, revoked ones included (only digests are stored)."""
    return list(
        db.session.scalars(
            sa.select(ApiToken)
            .where(ApiToken.user_id == user.id)
            .order_by(ApiToken.created_at.desc(), ApiToken.id.desc())
        )
    )
