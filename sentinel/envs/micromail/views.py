"""MicroMail pages (GET): folder lists, message, attachment, compose and search; actions.py adds the POSTs.
The only GET side effect is opening a message, which marks it read (skipped for live refreshes)."""

from __future__ import annotations

from aiohttp import web

from sentinel.core.environment import Routes
from sentinel.envs.kit import contains, like_pattern
from sentinel.envs.micromail import queries as q
from sentinel.web.kit import (
    BadInput,
    choice_param,
    fetch_or_404,
    mark_seen,
    paged,
    redirect_to,
    text_param,
    url_for,
    world_of,
)
from sentinel.web.render import make_url, render

GONE = "This message no longer exists."
MAX_QUERY = 200
SEARCH_COLUMNS = ("subject", "body", "sender_name", "sender_email", "to_list", "cc_list")
SEARCH = contains(*SEARCH_COLUMNS)  # one ? per column
BULK_OPS = {  # op → (menu label, status after it, what it sets; trash deletes instead)
    "read": ("Mark as read", "marked as read", "is_read = 1"),
    "unread": ("Mark as unread", "marked as unread", "is_read = 0"),
    "flag": ("Flag", "flagged", "is_flagged = 1"), "unflag": ("Remove flag", "unflagged", "is_flagged = 0"),
    "archive": ("Move to Archive", "moved to Archive", "folder = 'archive'"),
    "trash": ("Move to Trash", "moved to Trash", ""),
}

routes = Routes()


routes.get("/", "home")(redirect_to("folder", folder="inbox"))


@routes.get("/folder/{folder}", "folder")
async def folder_view(request: web.Request) -> web.StreamResponse:
    world, folder = world_of(request), request.match_info["folder"]
    if folder not in q.FOLDERS:
        raise web.HTTPNotFound(text="This folder does not exist.")
    filter_key = choice_param(request.query, "filter", tuple(q.FILTERS), "all",
                              "Unknown filter: choose All, Unread, Flagged or Mentions.")
    condition = q.FILTERS[filter_key][1]
    mailbox = await q.mailbox_counts(world)  # the header's counters and the filters', one query
    counts = q.filter_counts(mailbox, folder)
    book = await q.AddressBook.load(world) if folder in ("sent", "drafts") else None  # recipients' names
    url = make_url(request)
    listing = await paged(request, per_page=q.PER_PAGE, params=(folder,), total=counts[filter_key],
                          rows_sql=f"SELECT {q.ROW_COLUMNS} FROM emails WHERE folder = ?{condition} ORDER BY {q.ORDER}",
                          row=lambda r: q.list_row(r, book, url))
    filters = [(f"{label} ({counts[key]})", url("folder", folder=folder, query={"filter": key if key != "all" else ""}),
                key == filter_key) for key, (label, _) in q.FILTERS.items()]
    return await render(request, "micromail/folder.html", {
        "folder": folder, "folder_label": q.FOLDER_LABELS[folder], "filters": filters, "list": listing,
        "bulk_ops": [(op, label) for op, (label, _, _) in BULK_OPS.items()], "bulk_action": url("bulk"),
        "empty_text": "No messages." if filter_key == "all" else "No messages match this filter.",
    }, header=q.header(mailbox))


async def message_row(request: web.Request) -> web.StreamResponse:
    return await fetch_or_404(request, "SELECT * FROM emails WHERE id = ?", (request.match_info["id"],), GONE)


@routes.get("/message/{id}", "message")
async def message_view(request: web.Request) -> web.StreamResponse:
    world, row = world_of(request), await message_row(request)
    if row["folder"] == "drafts":
        raise web.HTTPFound(url_for(request, "compose", query={"draft": row["id"]}))
    if not row["is_read"] and await mark_seen(request, "UPDATE emails SET is_read = 1 WHERE id = ?", (row["id"],)):
        # marking applies the events due first: a recall may have removed the message meanwhile
        row = await q.get_email(world, row["id"]) or await message_row(request)
    return await render(request, "micromail/message.html", {"msg": await q.message_detail(world, row)})


@routes.get("/attachment/{id}", "attachment")
async def attachment_view(request: web.Request) -> web.StreamResponse:
    file = await fetch_or_404(
        request, "SELECT a.id, a.file_name, a.size_bytes, e.id AS email_id, e.subject, e.sender_name,"
                 " e.created_at FROM attachments a JOIN emails e ON e.id = a.email_id WHERE a.id = ?",
        (request.match_info["id"],), "This attachment no longer exists.")
    return await render(request, "micromail/attachment.html", {"a": dict(file)})


@routes.get("/compose", "compose")
async def compose_view(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    mode, of, draft_id = (request.query.get(key, "") for key in ("mode", "of", "draft"))
    draft = q.Draft()
    if draft_id:
        row = await q.get_email(world, draft_id)
        if row is None or row["folder"] != "drafts":
            raise web.HTTPNotFound(text="This draft no longer exists.")
        draft = q.Draft(to=row["to_list"], cc=row["cc_list"], bcc=row["bcc_list"], subject=row["subject"],
                        body=row["body"], mode=row["ref_mode"] or "", of=row["ref_id"] or "", draft_id=row["id"])
    elif mode or of:
        if mode not in q.MODES or not of:
            raise BadInput("To reply or forward, open compose from a message.")
        row = await q.get_email(world, of)
        if row is None or row["folder"] == "drafts":
            raise web.HTTPNotFound(text=GONE)
        files = [a["file_name"] for a in await q.get_attachments(world, of)]
        draft = q.prefill(mode, row, world.self_persona["email"], files)
    return await compose_page(request, draft)


async def compose_page(request: web.Request, draft: q.Draft, status: int = 200) -> web.Response:
    files = await q.get_attachments(world_of(request), draft.of) if draft.mode == "forward" and draft.of else []
    heading = {"reply": "Reply", "reply_all": "Reply all", "forward": "Forward"}.get(draft.mode, "New message")
    return await render(request, "micromail/compose.html", {
        "d": draft, "heading": "Edit draft" if draft.draft_id else heading, "forward_files": files}, status=status)


@routes.get("/search", "search")
async def search_view(request: web.Request) -> web.StreamResponse:
    world, query = world_of(request), text_param(request.query, "q", max_len=MAX_QUERY, label="The search")
    listing = None
    if query:
        book, url = await q.AddressBook.load(world), make_url(request)
        listing = await paged(request, per_page=q.PER_PAGE, params=(like_pattern(query),) * len(SEARCH_COLUMNS),
                              count_sql=f"SELECT COUNT(*) FROM emails WHERE {SEARCH}",
                              rows_sql=f"SELECT {q.ROW_COLUMNS} FROM emails WHERE {SEARCH}"
                                       " ORDER BY created_at DESC, rowid DESC",
                              row=lambda r: q.list_row(r, book, url))
    return await render(request, "micromail/search.html", {"query": query, "list": listing})
