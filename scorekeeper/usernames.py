"""Usernames as the app compares them: the one normalisation every part uses (registering,
finding the account a login names, the per-account login limit) and the look-alike key.

Both keys are stored on each user (`User.name_key`, `User.look_key`, filled by the model
whenever a username is set, and by migration 0010 for the accounts made before), so finding
an account or a look-alike is one indexed lookup. Change either function and a migration must
fill the stored keys anew, or accounts stop being found.

The look-alike key is Unicode's confusable skeleton (UTS #39), computed by ICU's spoof
checker (PyICU), the implementation browsers use against look-alike domain names.
"""

from __future__ import annotations

import unicodedata

import icu

#: Characters that show nothing (UTS #39's Default_Ignorable_Code_Point: the zero-width
#: space, the soft hyphen, the word joiner U+2060, variation selectors, the Hangul filler …).
_IGNORABLE = icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT
#: UTS #39 maps the small Cyrillic palochka (U+04CF) to "i" through the dotless i, though
#: fonts draw it as a full-height stroke like "l" (and its capital, U+04C0, maps to "l"):
#: without this, "alice" spelt in Cyrillic with a palochka would not look like "alice".
_BEFORE_SKELETON = str.maketrans({"\u04cf": "l"})


def _shown(ch: str) -> bool:
    return unicodedata.category(ch) != "Cf" and not icu.Char.hasBinaryProperty(ch, _IGNORABLE)


def clean_username(username: str) -> str:
    """A username as stored: NFKC-normalized (fullwidth carol is carol), without the
    characters that show nothing, which would make two names that look the same differ."""
    name = unicodedata.normalize("NFKC", username)
    return "".join(ch for ch in name if _shown(ch)).strip()


def username_key(username: str) -> str:
    """What two usernames share when they are the same name to a reader, and so the same
    account: ``OLGA``, ``ol\\u200bga``, olga in fullwidth letters and ``olga`` all give
    ``olga`` (clean, then case-folded). The login finds an account by it, and the login
    limit counts by it."""
    return unicodedata.normalize("NFKC", clean_username(username).casefold())


_checker = icu.SpoofChecker()


def look_key(username: str) -> str:
    """What two usernames share when they look alike though spelt with other letters: the
    confusable skeleton of UTS #39 (``\\u0251lice`` with a Latin alpha, ``aIice`` with a
    capital I, and alice in Cyrillic letters all give ``alice``), case-folded so that
    ``AIice`` looks like ``Alice`` and ``alice`` alike."""
    name = clean_username(username).translate(_BEFORE_SKELETON)
    skeleton: str = _checker.getSkeleton(0, name)
    return skeleton.casefold()
