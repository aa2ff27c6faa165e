"""The app factory: one aiohttp application per session, used by the runner, serve and tests.

Besides the environment's own routes it serves `/start` (starts the clock, redirects to the
start page; any other page asked for first starts it too), `/contact` (the agent's report),
static files from web/static only, and wraps every page with: request logging, the world
brought up to date before the handler reads it (and a held clock released once the first page
is rendered), ETags with 304 answers for conditional GETs, and error pages that never show a
traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from contextlib import nullcontext

import aiohttp_jinja2
import jinja2
from aiohttp import web

from sentinel.core.environment import Environment
from sentinel.core.paths import DATA
from sentinel.core.protocol import MAX_SLEEP_SIM_S, SIM_TIME_HEADER, SLEEP_PATH
from sentinel.web.cache import CachedPage, PageCache, digest_of_tag, etag_of, from_cache, not_modified, page_key
from sentinel.web.keys import (
    BODY_TAG,
    ENV_CSS,
    ENVIRONMENT,
    HOOKS,
    LAYOUT,
    LOOK_ONLY,
    PAGE_CACHE,
    SKIPPED_EFFECT,
    WORLD,
    SiteHooks,
)
from sentinel.web.kit import BadInput
from sentinel.web.render import render
from sentinel.web.request_checks import is_clock_read, is_live, looks_only, skips_side_effect
from sentinel.web.templates import layout_for, make_templates
from sentinel.web.waiting import requested_wait, sim_seconds, sleep_until, wait_for_change
from sentinel.world.state import World

log = logging.getLogger("sentinel.web")
STATIC_DIR = DATA.static
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def create_app(world: World, environment: Environment, hooks: SiteHooks,
               templates: jinja2.Environment | None = None) -> web.Application:
    app = web.Application(middlewares=[serve_page])
    app[WORLD] = world
    app[ENVIRONMENT] = environment
    app[HOOKS] = hooks
    app[PAGE_CACHE] = PageCache()
    templates = templates or make_templates(tuple(filter(None, [environment.templates])))
    app[aiohttp_jinja2.APP_KEY] = templates
    app[LAYOUT] = layout_for(environment, templates)
    own_css = STATIC_DIR / f"{environment.name}.css"
    app[ENV_CSS] = f"/static/{own_css.name}" if own_css.is_file() else None
    app.router.add_get("/start", start)
    app.router.add_get("/contact", contact_form)
    app.router.add_post("/contact", contact_post)
    app.router.add_get(SLEEP_PATH, sleep)
    app.router.add_get("/", root)
    app.router.add_static("/static/", STATIC_DIR, show_index=False, follow_symlinks=False)
    add_environment_routes(app, environment)
    return app


def add_environment_routes(app: web.Application, environment: Environment) -> None:
    """The environment's named routes under /<name>, plus /<name> → /<name>/."""
    prefix = f"/{environment.name}"
    for route in environment.routes:
        app.router.add_route(route.method, prefix + route.path, route.handler, name=route.name)

    async def to_start(request: web.Request) -> web.StreamResponse:
        raise web.HTTPFound(environment.start_page)
    app.router.add_get(prefix, to_start)


async def start(request: web.Request) -> web.StreamResponse:
    hooks = request.app[HOOKS]
    await hooks.begin()
    raise web.HTTPFound(hooks.start_page)


async def sleep(request: web.Request) -> web.StreamResponse:
    """GET /sleep?seconds=S: answer once S sim seconds have passed on the session's clock (a
    pause that watches nothing; on the virtual clock the clock jumps to its end). The answer says
    how long it slept and the sim time, also in its X-Sim-Time header (docs/protocol.md#sleeping)."""
    seconds = sim_seconds("seconds", request.query.get("seconds", ""))
    request.app[HOOKS].page_served()  # a sleep that is the agent's first act starts its clock
    world = request.app[WORLD]
    began = world.now()
    await sleep_until(request, began + min(seconds, MAX_SLEEP_SIM_S))
    now = world.now()
    return web.Response(text=f"Slept {now - began:g} sim s; the sim time is now {now:.3f} s.\n",
                        headers={SIM_TIME_HEADER: f"{now:.6f}", "Cache-Control": "no-store"})


async def root(request: web.Request) -> web.StreamResponse:
    raise web.HTTPFound(request.app[ENVIRONMENT].start_page)


async def contact_form(request: web.Request) -> web.StreamResponse:
    if not skips_side_effect(request):
        await request.app[HOOKS].contact()
    return await render(request, "common/contact.html", {"sent": False, "error": None})


async def contact_post(request: web.Request) -> web.StreamResponse:
    form = await request.post()
    message = str(form.get("message", "")).strip()
    hooks = request.app[HOOKS]
    await hooks.contact()  # a POST without a prior GET still counts as the report
    if len(message) > 10_000:
        return await render(request, "common/contact.html",
                            {"sent": False, "error": "Message is too long (10,000 characters at most)."},
                            status=400)
    await hooks.contact_message(message)
    return await render(request, "common/contact.html", {"sent": True, "error": None})


@web.middleware
async def serve_page(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Around every request, in one layer (each aiohttp middleware is a coroutine and a call
    per request): error pages, the world brought up to date, ETags, and the request log.

    - Unknown pages get a 404 inside the environment's chrome, bad input a 400, a crash a plain
      500 page; redirects and other HTTP answers pass through.
    - The request is logged with its status, size and the body served (kept as evidence by the
      session: sentinel/session/pages.py); live refreshes are marked apart.
    - A conditional GET may ask to wait until its page changes (sentinel.web.waiting).
    - Before anything else the session is told the agent acts (SiteHooks.agent_request): a page
      asked for before /start starts the session, and an agent's thinking ends (docs/model-time.md)."""
    hooks = request.app[HOOKS]
    aside = is_live(request) or is_clock_read(request)  # logged apart, not the agent acting
    agents_own = not request.path.startswith("/static/") and not aside
    if agents_own:
        await hooks.agent_request()  # the agent acts: its thinking ends; the first page starts the clock
    with hooks.waits.working() if agents_own else nullcontext():  # (a virtual clock does not jump meanwhile)
        return await _served(request, handler, hooks, aside)


async def _served(request: web.Request, handler: Handler, hooks: SiteHooks, aside: bool) -> web.StreamResponse:
    """serve_page's answer to one request, logged."""
    status, size, served = 500, 0, None
    try:
        try:
            wait_s = requested_wait(request)
            if wait_s is None:
                response = await _current_page(request, handler, hooks)
            else:
                response = await wait_for_change(
                    request, lambda look_only: _current_page(request, handler, hooks, look_only), wait_s)
        except BadInput as exc:
            response = await _error_page(request, 400, str(exc))
        except web.HTTPNotFound as exc:
            response = await _error_page(request, 404, _custom_text(exc) or "This page does not exist.")
        except web.HTTPMethodNotAllowed:
            response = await _error_page(request, 405, "This page does not accept that kind of request.")
        except web.HTTPException:
            raise
        except Exception:
            log.exception("error while serving %s %s", request.method, request.path)
            response = await _error_page(request, 500, "Something went wrong on this page.")
        status = response.status
        body = getattr(response, "body", b"") or b""
        size = response.body_length if isinstance(response, web.FileResponse) else len(body)
        served = body if isinstance(body, bytes) and body and status != 304 else None
        return response
    except web.HTTPException as exc:
        status = exc.status
        raise
    finally:
        tag = request.get(BODY_TAG) if served is not None else None
        hooks.log_request(request.method, request.path_qs, status, size, aside, served,
                          digest_of_tag(tag) if tag else None)


def _custom_text(exc: web.HTTPException) -> str | None:
    """The message a handler gave with `web.HTTPNotFound(text="This message no longer exists.")`."""
    text = exc.text or ""
    return None if not text or text.startswith(f"{exc.status}:") else text


async def _error_page(request: web.Request, status: int, message: str) -> web.Response:
    return await render(request, "common/error.html", {"message": message, "code": status}, status=status)


async def _current_page(request: web.Request, handler: Handler, hooks: SiteHooks,
                        look_only: bool = False) -> web.StreamResponse:
    """Every event due by now is applied before the handler reads the world; once a page has
    been rendered, a clock held at sim 0 since /start starts running (docs/protocol.md#sessions).

    Pages carry an ETag of their bytes; a conditional GET of an unchanged page answers 304, and
    while the world's version and clock step hold, without rendering (sentinel.web.cache).
    look_only: a re-check that runs no GET side effect (sentinel.web.waiting)."""
    request[LOOK_ONLY], request[SKIPPED_EFFECT] = look_only, False
    path = request.path
    if path.startswith("/static/") or path == "/start":
        return await handler(request)
    await hooks.catch_up()
    try:
        cache = request.app[PAGE_CACHE]
        slot = (request.path_qs, looks_only(request))
        key = page_key(request)
        if key is not None and (page := cache.get(slot, key)) is not None:
            request[SKIPPED_EFFECT] = look_only  # what the look that rendered it left out is not known
            if request.headers.get("If-None-Match") == page.tag:
                return not_modified(page.tag)
            request[BODY_TAG] = page.tag
            return from_cache(page)
        response = await handler(request)
        body = getattr(response, "body", None)
        if request.method != "GET" or response.status != 200 or not isinstance(body, bytes):
            return response
        tag = etag_of(body)
        if key is not None and page_key(request) == key:  # nothing changed while it rendered
            cache.put(slot, CachedPage(key, body, tag, response.content_type, response.charset))
        if request.headers.get("If-None-Match") == tag:
            return not_modified(tag)
        request[BODY_TAG] = tag
        response.headers["ETag"] = tag
        return response
    finally:
        hooks.page_served()
