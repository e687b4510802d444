"""Light, dark or the phone's own setting: a cookie the server draws on <html data-theme>, set
by a plain form post at the foot of every page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

STYLE = Path(__file__).resolve().parents[2] / "static" / "style.css"


def data_theme(page: str) -> str:
    found = re.search(r'<html lang="[^"]+" data-theme="([^"]+)"', page)
    assert found, "every page names its theme on <html>"
    return found.group(1)


@pytest.mark.stateless
def test_without_a_choice_the_phone_decides(client: FlaskClient) -> None:
    page = client.get("/").text
    assert data_theme(page) == "auto"
    assert '<meta name="color-scheme" content="light dark">' in page
    assert 'media="(prefers-color-scheme: dark)"' in page


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.stateless
def test_the_cookie_fixes_the_theme_from_the_first_paint(client: FlaskClient, theme: str) -> None:
    client.set_cookie("theme", theme)
    page = client.get("/referee").text
    assert data_theme(page) == theme
    assert f'<meta name="color-scheme" content="{theme}">' in page
    assert "prefers-color-scheme" not in page, "no second theme-color for the other scheme"


@pytest.mark.stateless
def test_an_unknown_cookie_value_means_auto(client: FlaskClient) -> None:
    client.set_cookie("theme", '"><script>')
    assert data_theme(client.get("/").text) == "auto"


@pytest.mark.stateless
def test_the_switch_works_without_javascript(client: FlaskClient) -> None:
    page = client.get("/rules").text
    form = re.search(
        r'<form class="theme-switch" method="post" action="([^"]+)">(.*?)</form>', page, re.S
    )
    assert form, "a plain form, posted by its buttons"
    assert form.group(1) == "/theme"
    assert 'name="next" value="/rules"' in form.group(2)
    for value in ("auto", "light", "dark"):
        assert f'type="submit" name="theme" value="{value}"' in form.group(2)
    assert re.search(r'value="auto" aria-pressed="true"', form.group(2))

    response = client.post("/theme", data={"theme": "dark", "next": "/rules"})
    assert response.status_code == 303
    assert response.headers["Location"] == "/rules"
    page = client.get("/rules").text
    assert data_theme(page) == "dark"
    assert re.search(r'value="dark" aria-pressed="true"', page)

    client.post("/theme", data={"theme": "auto", "next": "/rules"})
    assert data_theme(client.get("/rules").text) == "auto"


@pytest.mark.stateless
def test_the_switch_ignores_unknown_themes_and_foreign_addresses(client: FlaskClient) -> None:
    response = client.post("/theme", data={"theme": "neon", "next": "https://evil.example/"})
    assert response.status_code == 303
    assert response.headers["Location"] == "/"
    assert client.get_cookie("theme") is None


@pytest.mark.stateless
def test_the_switch_needs_no_csrf_token(app: Flask) -> None:
    app.config["WTF_CSRF_ENABLED"] = True
    assert app.test_client().post("/theme", data={"theme": "dark"}).status_code == 303


@pytest.mark.stateless
def test_the_theme_names_follow_the_language(client: FlaskClient) -> None:
    page = client.get("/", headers={"Accept-Language": "el"}).text
    for name in ("Αυτόματο", "Φωτεινό", "Σκούρο"):
        assert f">{name}</button>" in page


def _declarations(block: str) -> dict[str, str]:
    return dict(re.findall(r"(--[\w-]+):\s*([^;]+);", block))


def test_the_dark_colours_are_the_same_for_auto_and_for_the_switch() -> None:
    """style.css holds each dark palette twice: under the phone's prefers-color-scheme (theme
    "auto") and under [data-theme="dark"]. The two copies must never drift apart."""
    css = STYLE.read_text()
    auto = re.findall(
        r'@media \(prefers-color-scheme: dark\) \{\s*:root:not\(\[data-theme="light"\]\)'
        r"( \.[\w-]+)? \{([^}]*)\}",
        css,
    )
    chosen = re.findall(r':root\[data-theme="dark"\]( \.[\w-]+)? \{([^}]*--[^}]*)\}', css)
    assert auto, "the dark palettes follow the phone when the theme is auto"
    assert [scope for scope, _ in auto] == [scope for scope, _ in chosen]
    for (scope, follows), (_, fixed) in zip(auto, chosen, strict=True):
        assert _declarations(follows) == _declarations(fixed), f"dark palette{scope} differs"
    every_dark_query = css.count("@media (prefers-color-scheme: dark)")
    assert every_dark_query == len(auto), "each dark media query leaves a light choice alone"
