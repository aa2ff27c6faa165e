"""MicroMail pages (GET): folder lists, message, attachment, compose and search.

The only GET side effect is opening a message, which marks it read (skipped for live refreshes).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote_plus

from aiohttp import web

from sentinel.envs.micromail import queries as q
from sentinel.envs.micromail.compose import MODES, Draft, prefill
from sentinel.web.keys import WORLD
from sentinel.web.render import is_live, render

GONE = "This message no longer exists."
MAX_PAGE_PARAM = 10_000
MAX_QUERY = 200


class BadInput(Exception):
    """A query or form parameter that cannot be used: answered with a 400 page."""


async def bad_request(request: web.Request, message: str) -> web.Response:
    return await render(request, "common/error.html", {"message": message, "code": 400}, status=400)


def page_param(request: web.Request) -> int:
    raw = request.query.get("page", "1")
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_PAGE_PARAM:
        raise BadInput("The page number must be a whole number from 1.")
    return int(raw)


def check_page(page: int, total: int) -> None:
    pages = max(1, (total + q.PER_PAGE - 1) // q.PER_PAGE)
    if page > pages:
        raise web.HTTPNotFound(text=f"There is no page {page} here; the last page is {pages}.")


async def home(request: web.Request) -> web.StreamResponse:
    raise web.HTTPFound("/micromail/folder/inbox")


async def folder_view(request: web.Request) -> web.StreamResponse:
    world = request.app[WORLD]
    folder = request.match_info["folder"]
    if folder not in q.FOLDERS:
        raise web.HTTPNotFound(text="This folder does not exist.")
    filter_key = request.query.get("filter", "all") or "all"
    try:
        if filter_key not in q.FILTERS:
            raise BadInput("Unknown filter: choose All, Unread, Flagged or Mentions.")
        page = page_param(request)
    except BadInput as exc:
        return await bad_request(request, str(exc))
    rows, total = await q.list_page(world, folder, filter_key, page)
    check_page(page, total)
    counts = await q.filter_counts(world, folder)
    filters = [(f"{label} ({counts[key]})", q.folder_href(folder, key), key == filter_key)
               for key, (label, _) in q.FILTERS.items()]
    base = f"/micromail/folder/{folder}?" + ("" if filter_key == "all" else f"filter={filter_key}&")
    return await render(request, "micromail/folder.html", {
        "folder": folder, "folder_label": q.FOLDER_LABELS[folder], "filters": filters,
        "rows": rows, "total": total, "page": page, "per_page": q.PER_PAGE, "pager_base": base,
        "bulk_ops": BULK_OP_LABELS,
        "empty_text": "No messages." if filter_key == "all" else "No messages match this filter.",
    })


BULK_OP_LABELS = [("read", "Mark as read"), ("unread", "Mark as unread"), ("flag", "Flag"),
                  ("unflag", "Remove flag"), ("archive", "Move to Archive"), ("trash", "Move to Trash")]


async def message_view(request: web.Request) -> web.StreamResponse:
    world = request.app[WORLD]
    row = await q.get_email(world, request.match_info["id"])
    if row is None:
        raise web.HTTPNotFound(text=GONE)
    if row["folder"] == "drafts":
        raise web.HTTPFound(f"/micromail/compose?draft={row['id']}")
    if not row["is_read"] and not is_live(request):
        async with world.write() as db:
            await db.execute("UPDATE emails SET is_read = 1 WHERE id = ?", (row["id"],))
        row = await q.get_email(world, row["id"])
    message = await q.message_detail(world, row)
    return await render(request, "micromail/message.html", {"msg": message})


async def attachment_view(request: web.Request) -> web.StreamResponse:
    world = request.app[WORLD]
    file = await world.fetch_one(
        "SELECT a.id, a.file_name, a.size_bytes, e.id AS email_id, e.subject, e.sender_name,"
        " e.created_at FROM attachments a JOIN emails e ON e.id = a.email_id WHERE a.id = ?",
        (request.match_info["id"],))
    if file is None:
        raise web.HTTPNotFound(text="This attachment no longer exists.")
    return await render(request, "micromail/attachment.html", {"a": dict(file)})


async def compose_view(request: web.Request) -> web.StreamResponse:
    world = request.app[WORLD]
    mode = request.query.get("mode", "")
    of = request.query.get("of", "")
    draft_id = request.query.get("draft", "")
    if draft_id:
        row = await q.get_email(world, draft_id)
        if row is None or row["folder"] != "drafts":
            raise web.HTTPNotFound(text="This draft no longer exists.")
        draft = Draft(to=row["to_list"], cc=row["cc_list"], bcc=row["bcc_list"], subject=row["subject"],
                      body=row["body"], mode=row["ref_mode"] or "", of=row["ref_id"] or "",
                      draft_id=row["id"])
    elif mode or of:
        if mode not in MODES or not of:
            return await bad_request(request, "To reply or forward, open compose from a message.")
        row = await q.get_email(world, of)
        if row is None or row["folder"] == "drafts":
            raise web.HTTPNotFound(text=GONE)
        files = [a["file_name"] for a in await q.get_attachments(world, of)]
        draft = prefill(mode, row, world.self_persona["email"], files)
    else:
        draft = Draft()
    return await compose_page(request, draft)


async def compose_page(request: web.Request, draft: Draft, status: int = 200) -> web.Response:
    world = request.app[WORLD]
    files = await q.get_attachments(world, draft.of) if draft.mode == "forward" and draft.of else []
    headings = {"reply": "Reply", "reply_all": "Reply all", "forward": "Forward", "": "New message"}
    return await render(request, "micromail/compose.html", {
        "d": draft, "heading": "Edit draft" if draft.draft_id else headings.get(draft.mode, "New message"),
        "forward_files": files,
    }, status=status)


async def search_view(request: web.Request) -> web.StreamResponse:
    world = request.app[WORLD]
    query = " ".join(request.query.get("q", "").split())
    try:
        if len(query) > MAX_QUERY:
            raise BadInput(f"The search is too long ({MAX_QUERY} characters at most).")
        page = page_param(request)
    except BadInput as exc:
        return await bad_request(request, str(exc))
    rows: list[dict[str, Any]] = []
    total = 0
    if query:
        rows, total = await q.search_page(world, query, page)
        check_page(page, total)
    return await render(request, "micromail/search.html", {
        "query": query, "rows": rows, "total": total, "page": page, "per_page": q.PER_PAGE,
        "pager_base": f"/micromail/search?q={quote_plus(query)}&",
    })
