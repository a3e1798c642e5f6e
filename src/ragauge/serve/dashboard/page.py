"""The page plumbing every dashboard route shares: who is asking, in which language, rendering with the
security headers and cookies, the login redirect, bounded form parsing.
"""

from __future__ import annotations

from importlib import resources
from typing import Any
from urllib.parse import urlencode

import sqlalchemy as sa
from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, PackageLoader, StrictUndefined

from .i18n import Words, pick_language
from .queries import BehaviourCache
from .security import CSRF_COOKIE, HEADERS, LANG_COOKIE, LoginThrottle, new_csrf
from .settings import DashboardSettings

MAX_FORM_BYTES = 64 * 1024


class BadInput(Exception):
    """A query parameter or form field the user can fix: answered 400 with the message."""


def url(path: str, **params: Any) -> str:
    """``path?query`` with the ``None`` params left out (values URL-encoded)."""
    pairs = [(k, v) for k, v in params.items() if v is not None]
    return f"{path}?{urlencode(pairs)}" if pairs else path


class PageBase:
    def __init__(self, engine: sa.Engine, settings: DashboardSettings) -> None:
        self.engine = engine
        self.s = settings
        self.env = Environment(loader=PackageLoader("ragauge.serve.dashboard", "templates"), autoescape=True,
                               undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
        self.css = resources.files(__package__).joinpath("static/style.css").read_bytes()
        self.throttle = LoginThrottle()
        self.behaviours = BehaviourCache()

    # -- plumbing --------------------------------------------------------------------------------
    def role(self, request: Request) -> str | None:
        return self.s.tokens.role_of_request(request.headers, request.cookies)

    def words(self, request: Request) -> tuple[str, Words]:
        lang = pick_language(request.query_params.get("lang"), request.cookies.get(LANG_COOKIE),
                             request.headers.get("accept-language"))
        return lang, Words(lang)

    def _cookie(self, resp: Response, name: str, value: str, max_age: int | None = None) -> None:
        resp.set_cookie(name, value, max_age=max_age, httponly=True, samesite="strict",
                        secure=self.s.secure_cookies, path="/")

    def render(self, request: Request, template: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        lang, t = self.words(request)
        csrf = request.cookies.get(CSRF_COOKIE) or ""
        fresh = len(csrf) < 32
        if fresh:
            csrf = new_csrf()
        params = [(k, v) for k, v in request.query_params.multi_items() if k != "lang"]
        links = {code: f"{request.url.path}?{urlencode(params + [('lang', code)])}" for code in ("en", "ru")}
        ctx.setdefault("message", None)
        ctx.setdefault("message_kind", None)
        ctx.setdefault("section", "")
        ctx.setdefault("role", self.role(request))
        html = self.env.get_template(template).render(t=t, lang=lang, csrf=csrf, lang_links=links, **ctx)
        resp = HTMLResponse(html, status_code=status, headers=HEADERS)
        if fresh:
            self._cookie(resp, CSRF_COOKIE, csrf)
        if request.query_params.get("lang") == lang:
            self._cookie(resp, LANG_COOKIE, lang, max_age=365 * 86400)
        return resp

    def error(self, request: Request, status: int, text: str) -> HTMLResponse:
        return self.render(request, "error.html", status=status, text=text)

    def redirect(self, target: str) -> RedirectResponse:
        return RedirectResponse(target, status_code=303, headers=HEADERS)

    def need_login(self, request: Request) -> Response | None:
        if self.role(request) is not None:
            return None
        if request.headers.get("authorization"):
            return Response("wrong token: send Authorization: Bearer <RAGAUGE_TOKEN or the dashboard token>",
                            status_code=401, headers={**HEADERS, "WWW-Authenticate": "Bearer"})
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return self.redirect(url("/login", next=target))

    async def form(self, request: Request) -> dict[str, str]:
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_FORM_BYTES:
            raise BadInput(f"form over {MAX_FORM_BYTES} bytes")
        data = await request.form(max_files=0, max_fields=20)
        return {k: v for k, v in data.items() if isinstance(v, str)}
