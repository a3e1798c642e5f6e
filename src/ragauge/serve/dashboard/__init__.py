"""The web dashboard of ``ragauge serve``: overview, request list, request page, feedback, export.

Server-rendered HTML (Jinja2 templates with autoescape), no JavaScript, no CDN, a strict
Content-Security-Policy; English and Russian (``?lang=ru|en`` or ``Accept-Language``). ``create_app`` calls
:func:`mount`; on its own::

    from ragauge.serve.dashboard import mount
    mount(app, engine, {"read_token": "...", "profile": "dashboard"})

Settings: :mod:`ragauge.serve.dashboard.settings`. Security: :mod:`ragauge.serve.dashboard.security`.
"""

from __future__ import annotations

from typing import Any, Mapping

__all__ = ["mount"]


def mount(app: Any, engine: Any, settings: Mapping[str, Any] | None = None) -> None:
    """Add the dashboard's routes (``/``, ``/requests``, ``/requests/{id}``, ``/export``, ``/login``) to the
    FastAPI ``app``, reading the collector's database through ``engine`` (a SQLAlchemy Engine)."""
    try:
        import jinja2  # noqa: F401
    except ImportError:
        from ...errors import ConfigError

        raise ConfigError("the dashboard needs Jinja2: pip install 'ragauge[serve]' (or pip install jinja2)") from None
    from .routes import Dashboard, add_routes
    from .settings import DashboardSettings

    if getattr(app.state, "dashboard", None) is not None:
        raise RuntimeError("the dashboard is mounted on this app already")
    dashboard = Dashboard(engine, DashboardSettings.from_mapping(settings))
    add_routes(app, dashboard)
    app.state.dashboard = dashboard
