"""The reader's language through the real app (docs/protocol/identity.md, "PUT
/api/me/language"; docs/i18n.md): chosen and remembered for the player on every device,
refused in words when unknown, followed by ``<html lang>``, the client's catalog, and the
API's errors worded in it with their codes unchanged."""

from __future__ import annotations

import httpx
import pytest

from app.i18n.browser import version
from app.i18n.negotiate import LANG_COOKIE
from tests.conftest import LiveServer, Serve, site_client


async def sign_up(http: httpx.AsyncClient, name: str) -> str:
    response = await http.post("/api/session", json={"name": name})
    assert response.status_code == 200, response.text
    return str(response.json()["token"])


async def test_a_players_language_is_read_back_on_another_device(
    http: httpx.AsyncClient, live: LiveServer
) -> None:
    await sign_up(http, "Eleni")
    me = (await http.get("/api/me")).json()
    assert "language" not in me  # none chosen yet: the answer is as it always was
    chosen = await http.put("/api/me/language", json={"language": "el"})
    assert chosen.status_code == 200, chosen.text
    assert chosen.json() == {"language": "el", "stored": True}
    assert chosen.cookies.get(LANG_COOKIE) == "el"
    code = (await http.post("/api/me/recovery")).json()["code"]
    async with site_client(live) as other:
        recovered = await other.post("/api/session/recover", json={"code": code})
        assert recovered.status_code == 200, recovered.text
        assert recovered.json()["language"] == "el"
        assert recovered.cookies.get(LANG_COOKIE) == "el"  # this device reads Greek too
        assert (await other.get("/api/me")).json()["language"] == "el"
        other.cookies.delete(LANG_COOKIE)  # this device's cookie gone: the stored choice
        page = await other.get("/", headers={"accept-language": "fr"})
        assert '<html lang="el">' in page.text  # the player's choice beats the browser's


async def test_a_visitor_who_is_not_signed_in_keeps_it_in_the_cookie(
    http: httpx.AsyncClient,
) -> None:
    chosen = await http.put("/api/me/language", json={"language": "da"})
    assert chosen.json() == {"language": "da", "stored": False}
    assert chosen.cookies.get(LANG_COOKIE) == "da"
    page = await http.get("/", headers={"accept-language": "fr"})
    assert '<html lang="da">' in page.text


async def test_an_unknown_language_is_refused_in_words(http: httpx.AsyncClient) -> None:
    await sign_up(http, "Klingon")
    refused = await http.put("/api/me/language", json={"language": "tlh"})
    assert refused.status_code == 422
    assert refused.json()["detail"] == ("unknown language 'tlh': choose one of en, el, da, fr, it")
    assert LANG_COOKIE not in refused.cookies
    assert (await http.put("/api/me/language", json={"language": ""})).status_code == 422
    assert "language" not in (await http.get("/api/me")).json()


@pytest.mark.parametrize(
    ("header", "lang"), [("fr", "fr"), ("da-DK,da;q=0.9", "da"), ("de", "en"), (None, "en")]
)
async def test_a_page_follows_the_browsers_language(
    http: httpx.AsyncClient, header: str | None, lang: str
) -> None:
    page = await http.get("/", headers={"accept-language": header} if header else {})
    assert page.status_code == 200
    assert f'<html lang="{lang}">' in page.text
    assert f'<option value="{lang}" lang="{lang}" selected>' in page.text
    assert f'data-url="/i18n/{lang}.json?v={version(lang)}"' in page.text


async def test_the_language_switch_names_each_language_in_its_own_words(
    http: httpx.AsyncClient,
) -> None:
    page = (await http.get("/tables/nowhere")).text
    for name in ("English", "Ελληνικά", "Dansk", "Français", "Italiano"):
        assert f">{name}</option>" in page
    assert "qps" not in page.split('id="lang-switch"')[1].split("</select>")[0]


async def test_the_client_catalog_is_served_and_cacheable(http: httpx.AsyncClient) -> None:
    for lang in ("en", "el", "da", "fr", "it"):
        answer = await http.get(f"/i18n/{lang}.json")
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["locale"] == lang and body["format"] == lang
        assert isinstance(body["messages"], dict)
        assert body["plural"][0] == "one" and body["plural"][-1] == "other"
        assert answer.headers["etag"] == f'"{version(lang)}"'
        assert answer.headers["cache-control"] == "no-cache"
        etag = {"if-none-match": answer.headers["etag"]}
        again = await http.get(f"/i18n/{lang}.json", headers=etag)
        assert again.status_code == 304
        versioned = await http.get(f"/i18n/{lang}.json?v={version(lang)}")
        assert "immutable" in versioned.headers["cache-control"]
    assert (await http.get("/i18n/xx.json")).status_code == 404
    assert (await http.get("/i18n/qps.json")).status_code == 404  # not without the setting


async def test_errors_are_worded_in_the_readers_language_with_the_same_code(
    serve: Serve,
) -> None:
    """In the pseudo-locale (its words are the English ones, accented and wrapped), an API
    error's detail is translated and a rule's refusal keeps its machine-readable code."""
    live = await serve(pseudo_locale=True)
    async with site_client(live, "qps") as client:
        signed_out = await client.get("/api/me")
        assert signed_out.status_code == 401
        detail = signed_out.json()["detail"]
        assert detail.startswith("⟦") and detail.endswith("⟧") and "/àƥî/šéššîöñ" in detail
        nul = await client.get("/api/tables/a%00b")
        assert nul.status_code == 422 and nul.json()["detail"].startswith("⟦")
        await sign_up(client, "Pseudo")
        refused = await client.put("/api/me/language", json={"language": "xx"})
        assert refused.status_code == 422
        assert refused.json()["detail"].startswith("⟦") and "'xx'" in refused.json()["detail"]
        catalog = await client.get("/i18n/qps.json")
        assert catalog.status_code == 200 and catalog.json()["format"] == "en"
        page = await client.get("/")
        assert '<html lang="qps">' in page.text
    async with httpx.AsyncClient(base_url=live.base_url, timeout=10) as english:
        assert (await english.get("/api/me")).json()["detail"] == (
            "sign in first: POST /api/session with your name"
        )
