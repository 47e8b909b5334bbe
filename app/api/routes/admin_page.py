"""The host's page (``/admin``) and the page that redeems a recovery link (``/recover``).

The host's page is a static shell: it asks for the admin token in the browser and then uses
the host API (``app/api/routes/admin.py``).

The recovery page never signs anyone in by being opened (a link could sign a
visitor into another person's account without a click). ``GET /recover?code=…`` shows whose
account the link opens ("Sign in as Cleo?") and a button; only ``POST /recover``, the code in
the form's body, redeems it, sets this device's cookie and goes to the lobby. The POST must
come from this site's own page (its ``Origin``: app/api/origin.py), as every cookie write
must, so another site cannot sign a visitor into an account of its choosing either. Without
a code, or with one that is no longer valid, the page shows a form to paste one, posted the
same way. The page is served, not scripted: it needs no JavaScript.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.api.deps import ServicesDep, signed_in
from app.api.errors import ApiRoute
from app.api.locale import PageLocale, request_locale
from app.api.origin import request_origin, same_site
from app.api.routes.pages import templates
from app.api.routes.session import new_device, set_session_cookie
from app.api.signup_limits import charge, signup_limits
from app.db import store
from app.db.store.recovery_codes import recovery_code_owner
from app.i18n.messages import N_, Text, localize

router = APIRouter(
    tags=["pages"], include_in_schema=False, route_class=ApiRoute, dependencies=[PageLocale]
)

NO_STORE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
"""The recovery code rides in the address: keep it out of caches and Referer headers."""
RECOVER_HEADERS = {"Cache-Control": "no-store", "Referrer-Policy": "same-origin"}
"""The recovery page's: no Referer to any other site (the code rides in the address), but its
own form's POST keeps its ``Origin`` (a page with ``no-referrer`` posts ``Origin: null``)."""
NOT_VALID = N_("that recovery code is not valid (a code works once, and a new one replaces it)")
NOT_FROM_HERE = N_("sign in from this site's own recovery page")
NO_CODE = N_("paste the code from your other device")
MAX_CODE = 200


@router.get("/admin", response_class=HTMLResponse)
async def admin_page(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(request, "admin.html", {}, headers=NO_STORE)


async def _page(request: Request, status: int = 200, **context: Any) -> HTMLResponse:
    """The recovery page; its refusal (``error``, a marked message) in the reader's language."""
    services = request.app.state.services
    async with services.sessionmaker() as session:
        me = await signed_in(request, session)
    context["me"] = None if me is None else me.player.name
    if context.get("error"):
        context["error"] = localize(context["error"], request_locale(request))
    return templates.TemplateResponse(
        request, "recover.html", context, status_code=status, headers=RECOVER_HEADERS
    )


@router.get("/recover", response_class=HTMLResponse)
async def recover_page(request: Request, services: ServicesDep) -> HTMLResponse:
    """The link's page: whose account the code opens and a button to sign in as them (a
    look at a code is charged to the address's recovery bucket, as a try is); a form to
    paste a code when there is none, or it is not valid."""
    code = request.query_params.get("code", "").strip()
    if not code:
        return await _page(request)
    charge(request, signup_limits(request).recoveries, Text(N_("recovery-code attempts")))
    name = None
    if len(code) <= MAX_CODE:
        async with services.sessionmaker() as session:
            name = await recovery_code_owner(session, code)
    if name is None:
        return await _page(request, 404, error=NOT_VALID, code=code)
    return await _page(request, code=code, name=name)


@router.post("/recover", response_class=HTMLResponse, response_model=None)
async def recover_sign_in(request: Request, services: ServicesDep) -> Response:
    """Redeem the code posted by the page's form (``code=…``, form-encoded): this device
    becomes the code's player (its cookie set) and goes to the lobby. Refused (403) unless
    the page that posts is this site's own."""
    trust = services.settings.trust_proxy_headers
    if request_origin(request.headers) is None or not same_site(request.headers, trust):
        return await _page(request, 403, error=NOT_FROM_HERE)
    body = (await request.body())[: 4 * MAX_CODE].decode("utf-8", "replace")
    code = (parse_qs(body).get("code") or [""])[0].strip()
    if not code:
        return await _page(request, 422, error=NO_CODE)
    charge(request, signup_limits(request).recoveries, Text(N_("recovery-code attempts")))
    found = await services.writer.run(store.redeem_recovery_code, code, **new_device(request))
    if found is None:
        return await _page(request, 404, error=NOT_VALID, code=code)
    _player, token = found
    response = RedirectResponse("/", status_code=303, headers={"Cache-Control": "no-store"})
    set_session_cookie(request, response, token)
    return response
