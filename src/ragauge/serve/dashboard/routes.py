"""The dashboard's HTTP routes: pages, login, the feedback form and the export. A thin shell over
:mod:`.queries` (data), :mod:`.overview` (statistics through ragauge's own code) and :mod:`.views`.
"""

from __future__ import annotations

import logging
import math
from datetime import datetime, timezone
from urllib.parse import urlencode

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response, StreamingResponse

from ...errors import InputError
from .. import runs as run_store
from . import queries
from .export import jsonl_lines
from .filters import filter_fields, parse_filter
from .overview import compare_versions, feedback_agreement, tiles
from .page import BadInput, PageBase, url
from .security import (CSRF_COOKIE, HEADERS, SESSION_COOKIE, SESSION_MAX_AGE, csrf_ok, new_csrf,
                       safe_next)
from .slices import COLUMNS as SLICE_COLUMNS, parse_by, rows_with_tags, slice_table
from .timing import timing_table
from .views import agreement_view, comparison_view, list_row, request_view, run_rows, tile_view, when

log = logging.getLogger("ragauge.serve.dashboard")

MAX_COMMENT = 2000


def _page_number(raw: str | None) -> int:
    if raw is None or raw == "":
        return 1
    if not raw.isdigit() or int(raw) < 1 or len(raw) > 9:
        raise BadInput(f"page must be a whole number >= 1, got {raw[:40]!r}")
    return int(raw)


class Dashboard(PageBase):
    # -- pages -----------------------------------------------------------------------------------
    def overview(self, request: Request) -> Response:
        denied = self.need_login(request)
        if denied is not None:
            return denied
        _, t = self.words(request)
        qp = request.query_params
        gs = queries.groups(self.engine)
        if not gs:
            return self.render(request, "overview.html", section="overview", groups=[])
        app = qp.get("app") or gs[0]["app"]
        versions = [g["version"] for g in gs if g["app"] == app]
        if not versions:
            return self.error(request, 404, t("no_app", app=app))
        raw_v = qp.get("version")
        version = (raw_v or None) if raw_v is not None else versions[0]
        if version not in versions:
            version = versions[0]
        rows = queries.window(self.engine, app, version, self.s.window)
        tile_views = [tile_view(x, t, self.s.trend_width) for x in tiles(rows, self.s.profile,
                                                                          trend_width=self.s.trend_width)]
        feedback = queries.feedback_of(self.engine, [r["id"] for r in rows])
        agreement = [agreement_view(x, t) for x in feedback_agreement(rows, feedback)]
        b = _pick(qp.get("b"), versions, version)
        a = _pick(qp.get("a"), versions, next((v for v in versions if v != b), b))
        comparison, note = [], ""
        if len(versions) >= 2:
            rows_a = rows if a == version else queries.window(self.engine, app, a, self.s.window)
            rows_b = rows if b == version else queries.window(self.engine, app, b, self.s.window)
            result = compare_versions(rows_a, rows_b)
            comparison = [comparison_view(c, t) for c in result]
            n = max((c.paired.n for c in result if c.paired is not None), default=0)
            note = t("compare_paired", n=n) if any(c.paired is not None for c in result) else t("compare_none")
        group_rows = [{**g, "last_text": when(g["last"]), "selected": g["app"] == app and g["version"] == version,
                       "href": url("/", app=g["app"], version=g["version"] or ""),
                       "requests_href": url("/requests", app=g["app"], version=g["version"] or "")}
                      for g in gs]
        profile_text = t("profile", name=self.s.profile.name) if self.s.profile else t("no_threshold")
        per = qp.get("per") or "1h"
        timing_rows = timing_table(self.engine, app, version, per, rows)
        return self.render(request, "overview.html", section="overview", groups=group_rows, app=app,
                           timing_rows=timing_rows, timing_per=per,
                           timing_links={w: url("/", app=app, version=version or "", per=w) for w in ("1h", "1d")},
                           version=version, version_label=version or "—", window_n=len(rows), tiles=tile_views,
                           profile_text=profile_text, versions=versions, a=a, b=b, comparison=comparison,
                           compare_note=note, agreement=agreement)

    def slices(self, request: Request) -> Response:
        denied = self.need_login(request)
        if denied is not None:
            return denied
        _, t = self.words(request)
        qp = request.query_params
        by, key = parse_by(qp.get("by"))
        gs = queries.groups(self.engine)
        if not gs:
            return self.render(request, "slices.html", section="slices", groups=[], table=[])
        app = qp.get("app") or gs[0]["app"]
        versions = [g["version"] for g in gs if g["app"] == app]
        if not versions:
            return self.error(request, 404, t("no_app", app=app))
        version = _pick(qp.get("version"), versions, versions[0])
        rows = rows_with_tags(self.engine, app, version, self.s.window)
        table = [{"name": s["name"], "n": s["n"], "cells": [tile_view(x, t, self.s.trend_width) for x in s["tiles"]]}
                 for s in slice_table(rows, by, key, self.s.profile)]
        return self.render(request, "slices.html", section="slices", groups=gs, table=table, app=app,
                           version=version, versions=versions, by=qp.get("by") or "tag", window_n=len(rows),
                           apps=sorted({g["app"] for g in gs}), columns=[t.metric(m) for m in SLICE_COLUMNS])

    def runs(self, request: Request) -> Response:
        denied = self.need_login(request)
        if denied is not None:
            return denied
        _, t = self.words(request)
        qp = request.query_params
        listed = run_store.list_runs(self.engine)
        for r in listed:
            r["time"] = when(r["uploaded_at"])
        base, new = qp.get("base"), qp.get("new")
        result, problem = None, None
        if base and new:
            try:
                result = run_store.compare(self.engine, base, new, intersect=qp.get("intersect") == "1")
            except LookupError as exc:
                return self.error(request, 404, str(exc))
            except InputError as exc:
                problem = str(exc)
        return self.render(request, "runs.html", section="runs", runs=listed, base=base, new=new,
                           comparison=run_rows(result, t) if result is not None else None,
                           result=result, message=problem, message_kind="error",
                           intersect=qp.get("intersect") == "1")

    def requests(self, request: Request) -> Response:
        denied = self.need_login(request)
        if denied is not None:
            return denied
        _, t = self.words(request)
        f = parse_filter(request.query_params)
        page = _page_number(request.query_params.get("page"))
        rows, total = queries.list_requests(self.engine, f, self.s.limits, page=page, page_size=self.s.page_size,
                                            cache=self.behaviours)
        pages = max(1, math.ceil(total / self.s.page_size))
        fields = filter_fields(f)
        gs = queries.groups(self.engine)
        apps = sorted({g["app"] for g in gs})
        versions = sorted({g["version"] for g in gs if f.app is None or g["app"] == f.app}, key=lambda v: v or "")
        views = [list_row(r, t, self.s.limits.faithfulness_below, url(f"/requests/{r['id']}")) for r in rows]
        note = t("guard_only") if f.behaviours() and not queries.text_rules_available() else None
        return self.render(request, "requests.html", section="requests", rows=views, total=total, page=page,
                           message=note, message_kind="error",
                           pages=pages, f=f, limits=self.s.limits, filter_fields=fields, apps=apps,
                           versions=versions,
                           prev_href=_page_href(fields, page - 1) if page > 1 else None,
                           next_href=_page_href(fields, page + 1) if page < pages else None)

    def one(self, request: Request, trace_id: str) -> Response:
        denied = self.need_login(request)
        if denied is not None:
            return denied
        _, t = self.words(request)
        item = queries.get_request(self.engine, trace_id)
        if item is None:
            return self.error(request, 404, t("not_found"))
        message = t("feedback_saved") if request.query_params.get("saved") == "1" else None
        return self.render(request, "request.html", section="requests", message=message, message_kind="ok",
                           feedback_available=queries.feedback_table(self.engine) is not None,
                           feedback_action=f"/requests/{trace_id}/feedback", **request_view(item, t))

    async def feedback(self, request: Request, trace_id: str) -> Response:
        denied = self.need_login(request)
        if denied is not None:
            return denied
        _, t = self.words(request)
        data = await self.form(request)
        if not csrf_ok(request.cookies.get(CSRF_COOKIE), data.get("csrf")):
            return self.error(request, 403, t("csrf_failed"))
        if self.role(request) != "admin":
            return self.error(request, 403, t("forbidden"))
        rating = {"up": 1, "down": -1}.get(data.get("rating", ""))
        if rating is None:
            return self.error(request, 400, t("bad_input", what="rating must be 'up' or 'down'"))
        comment = (data.get("comment") or "").strip()
        if len(comment) > MAX_COMMENT:
            return self.error(request, 400, t("bad_input", what=f"comment over {MAX_COMMENT} characters"))
        try:
            stored = await run_in_threadpool(queries.add_feedback, self.engine, trace_id, rating=rating,
                                             comment=comment or None)
        except LookupError:
            return self.error(request, 503, t("feedback_missing"))
        if not stored:
            return self.error(request, 404, t("not_found"))
        return self.redirect(url(f"/requests/{trace_id}", saved="1") + "#feedback")

    def export(self, request: Request) -> Response:
        denied = self.need_login(request)
        if denied is not None:
            return denied
        ids = [i for i in request.query_params.getlist("id") if i][: self.s.export_limit]
        if request.query_params.get("scope") != "selected" or not ids:
            ids, _ = queries.matching_ids(self.engine, parse_filter(request.query_params), self.s.limits,
                                          limit=self.s.export_limit, cache=self.behaviours)
        items = queries.records(self.engine, ids)
        stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
        return StreamingResponse(iter(list(jsonl_lines(items))), media_type="application/x-ndjson",
                                 headers={**HEADERS, "Content-Disposition":
                                          f'attachment; filename="golden-candidates-{stamp}.jsonl"'})

    # -- login -----------------------------------------------------------------------------------
    def login_page(self, request: Request) -> Response:
        return self.render(request, "login.html", role=None, next=safe_next(request.query_params.get("next")))

    async def login(self, request: Request) -> Response:
        _, t = self.words(request)
        data = await self.form(request)
        if not csrf_ok(request.cookies.get(CSRF_COOKIE), data.get("csrf")):
            return self.error(request, 403, t("csrf_failed"))
        client = request.client.host if request.client else "?"
        target = safe_next(data.get("next"))
        role = self.s.tokens.role_of(data.get("token", ""))
        wait = self.throttle.wait_s(client) if role is None else 0.0  # the limit is on guessing: a right token passes
        if wait > 0:
            return self.render(request, "login.html", status=429, role=None, next=target,
                               message=t("login_throttled", s=int(wait) + 1), message_kind="error")
        if role is None:
            self.throttle.failed(client)
            log.warning("ragauge dashboard: failed login from %s", client)  # never the token given
            return self.render(request, "login.html", status=401, role=None, next=target,
                               message=t("login_failed"), message_kind="error")
        resp = self.redirect(target)
        self._cookie(resp, SESSION_COOKIE, self.s.tokens.session_value(role), max_age=SESSION_MAX_AGE)
        self._cookie(resp, CSRF_COOKIE, new_csrf())  # a new session gets a new CSRF token
        return resp

    async def logout(self, request: Request) -> Response:
        _, t = self.words(request)
        data = await self.form(request)
        if not csrf_ok(request.cookies.get(CSRF_COOKIE), data.get("csrf")):
            return self.error(request, 403, t("csrf_failed"))
        resp = self.redirect("/login")
        resp.delete_cookie(SESSION_COOKIE, path="/")
        return resp

    def favicon(self) -> Response:
        return Response(FAVICON, media_type="image/svg+xml",
                        headers={"Cache-Control": "max-age=86400", "X-Content-Type-Options": "nosniff"})

    def style(self) -> Response:
        return Response(self.css, media_type="text/css",
                        headers={"Cache-Control": "max-age=3600", "X-Content-Type-Options": "nosniff"})


#: a tiny SVG icon (served from 'self', so within the CSP): browsers ask for one on every page
FAVICON = (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" '
           b'fill="#2563eb"/><path d="M4 12V4h4a2.5 2.5 0 0 1 0 5H4m4 0 3 3" fill="none" stroke="#fff" '
           b'stroke-width="1.8"/></svg>')


def _page_href(fields: list[tuple[str, str]], page: int) -> str:
    return "/requests?" + urlencode(fields + [("page", str(page))])


def _pick(raw: str | None, versions: list[str | None], default: str | None) -> str | None:
    if raw is None:
        return default
    wanted = raw or None
    return wanted if wanted in versions else default


def add_routes(app: FastAPI, dash: Dashboard) -> None:
    """Register the dashboard's routes (sync handlers run in FastAPI's thread pool)."""

    async def bad_input(request: Request, exc: Exception) -> Response:
        _, t = dash.words(request)
        return dash.error(request, 400, t("bad_input", what=str(exc)))

    app.add_exception_handler(BadInput, bad_input)
    for path, endpoint, method in (
            ("/", dash.overview, "GET"), ("/requests", dash.requests, "GET"), ("/slices", dash.slices, "GET"),
            ("/runs", dash.runs, "GET"),
            ("/requests/{trace_id}", dash.one, "GET"), ("/requests/{trace_id}/feedback", dash.feedback, "POST"),
            ("/export", dash.export, "GET"), ("/login", dash.login_page, "GET"), ("/login", dash.login, "POST"),
            ("/logout", dash.logout, "POST"), ("/_dashboard/style.css", dash.style, "GET"),
            ("/favicon.ico", dash.favicon, "GET"), ("/_dashboard/favicon.svg", dash.favicon, "GET")):
        app.add_api_route(path, endpoint, methods=[method], include_in_schema=False)
