"""``GET /i18n/{locale}.json``: the browser client's catalog of a language (docs/i18n.md,
docs/protocol/rest.md): its ``js`` messages, its plural forms and the locale its numbers and
dates are written in (app/i18n/browser.py).

The pages inline their reader's catalog (templates/base.html), so a page needs no request
for it; this route serves a client that wants another language's, or a cached copy. Its
``ETag`` is the catalog's version, the pages name it in the URL (``?v=``): a URL with the
current version may be kept for a year (a new catalog has a new version), one without is
checked again each time (``no-cache``, 304 while unchanged). A language the server does not
serve answers 404.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request, Response

from app.api.deps import ServicesDep
from app.api.errors import ApiRoute
from app.i18n.browser import catalog_json, version
from app.i18n.locales import offered
from app.i18n.messages import N_

router = APIRouter(tags=["pages"], include_in_schema=False, route_class=ApiRoute)

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


@router.get("/i18n/{locale}.json")
async def client_catalog(locale: str, request: Request, services: ServicesDep) -> Response:
    if not offered(locale, pseudo=services.settings.pseudo_locale):
        raise HTTPException(404, N_("no such language"))
    tag = f'"{version(locale)}"'
    cache = IMMUTABLE if request.query_params.get("v") == version(locale) else REVALIDATE
    headers = {"ETag": tag, "Cache-Control": cache, "Vary": "Accept-Encoding"}
    if tag in [t.strip() for t in request.headers.get("if-none-match", "").split(",")]:
        return Response(status_code=304, headers=headers)
    return Response(catalog_json(locale), media_type="application/json", headers=headers)
