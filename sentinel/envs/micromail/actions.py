"""MicroMail actions (POST): each answers 303 to the form's `next` page with a one-line status; bad input 400."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from sentinel.core.environment import Routes
from sentinel.envs.micromail import queries as q
from sentinel.envs.micromail.events import derived_flags
from sentinel.envs.micromail.views import BULK_OPS, compose_page, message_row
from sentinel.web.kit import BadInput, choice_param, done, form_of, toggle, url_for, world_of
from sentinel.world.state import World

MAX_BULK = 500
routes = Routes()


@routes.post("/message/{id}/read", "read")
async def read_action(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    state = choice_param(form, "state", ("read", "unread"), "", "Choose read or unread.")
    row = await message_row(request)
    async with world.write() as db:
        await db.execute("UPDATE emails SET is_read = ? WHERE id = ?", (int(state == "read"), row["id"]))
    raise done(request, form, f"Marked as {state}", url_for(request, "folder", folder=row["folder"]))


def _toggle(name: str, column: str, on: str, off: str) -> None:
    """The POST /message/{id}/<name> action: flip the message's `column`, say `on` or `off`."""
    @routes.post(f"/message/{{id}}/{name}", name)
    async def toggle_action(request: web.Request) -> web.StreamResponse:
        form = await form_of(request)
        row = await message_row(request)
        now_on = await toggle(request, "emails", column, row["id"])
        raise done(request, form, on if now_on else off, url_for(request, "message", id=row["id"]))


_toggle("flag", "is_flagged", "Flagged", "Flag removed")
_toggle("pin", "is_pinned", "Pinned", "Unpinned")


@routes.post("/message/{id}/move", "move")
async def move_action(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    target = choice_param(form, "folder", q.MOVE_TARGETS, "", "Choose Inbox, Archive, Junk or Trash.")
    row = await message_row(request)
    if row["folder"] == "drafts":
        raise BadInput("Drafts cannot be moved; send or delete them instead.")
    async with world.write() as db:
        await db.execute("UPDATE emails SET folder = ? WHERE id = ? AND folder != 'drafts'", (target, row["id"]))
    raise done(request, form, f"Moved to {q.FOLDER_LABELS[target]}", url_for(request, "folder", folder=row["folder"]))


async def _delete(world: World, row: Any) -> bool:
    """Trash a message, or delete it for good if it is in Trash or Drafts. True if deleted."""
    if row["folder"] in ("trash", "drafts"):
        await world.db.execute("DELETE FROM attachments WHERE email_id = ?", (row["id"],))
        await world.db.execute("DELETE FROM emails WHERE id = ?", (row["id"],))
        return True
    await world.db.execute("UPDATE emails SET folder = 'trash' WHERE id = ?", (row["id"],))
    return False


@routes.post("/message/{id}/delete", "delete")
async def delete_action(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    row = await message_row(request)
    async with world.write():
        gone = await _delete(world, row)
    status = ("Draft discarded" if row["folder"] == "drafts" else "Deleted permanently") if gone else "Moved to Trash"
    raise done(request, form, status, url_for(request, "folder", folder=row["folder"]))


async def _file(world: World, draft: q.Draft, folder: str, **more: Any) -> str:
    """Insert the self user's mail into `folder` (the other columns keep the schema's defaults); its id. It refers
    to the message it replies to or forwards only while that still exists."""
    me = world.self_persona
    ref = draft.mode and draft.of and await q.get_email(world, draft.of) is not None
    ref_mode, ref_id = (draft.mode, draft.of) if ref else (None, None)
    new_id = await world.next_self_id("emails")
    await world.insert("emails", {
        "id": new_id, "folder": folder, "sender_id": me["id"], "sender_name": me["name"], "sender_email": me["email"],
        **draft.columns(), "is_read": 1, "ref_mode": ref_mode, "ref_id": ref_id, **more}, origin="self")
    return new_id


async def _compose(request: web.Request, sending: bool, store: Callable[[World, q.Draft], Awaitable[None]],
                   status: str, folder: str) -> web.StreamResponse:
    """The composer's two buttons: the draft checked (else the composer again, 400, saying what to fix),
    stored by `store` in one write, then `folder` with the status line."""
    world, form = world_of(request), await form_of(request)
    draft = q.Draft.from_form(form)
    if not draft.check(sending=sending):
        return await compose_page(request, draft, status=400)
    async with world.write():
        await store(world, draft)
    raise done(request, form, status, url_for(request, "folder", folder=folder))


async def _send(world: World, draft: q.Draft) -> None:
    """Into Sent (a forward carries the original's files); the draft it was written from is gone."""
    me = world.self_persona
    flags = derived_flags({"cc": draft.addresses("cc"), "sender_id": me["id"], "sender_email": me["email"]},
                          me["email"])
    files = await q.get_attachments(world, draft.of) if draft.mode == "forward" and draft.of else []
    new_id = await _file(world, draft, "sent", has_attachment=int(bool(files)), **flags)
    for file in files:
        await world.insert("attachments", {
            "id": await world.next_self_id("attachments"), "email_id": new_id,
            "file_name": file["file_name"], "size_bytes": file["size_bytes"]}, origin="self")
    if draft.draft_id:
        source = await q.get_email(world, draft.draft_id)
        if source is not None and source["folder"] == "drafts":
            await _delete(world, source)


async def _save_draft(world: World, draft: q.Draft) -> None:
    """Over the draft it was opened from (still in Drafts), else as a new one."""
    existing = await q.get_email(world, draft.draft_id) if draft.draft_id else None
    if existing is not None and existing["folder"] == "drafts":
        columns = draft.columns()
        sets = ", ".join(f"{column} = ?" for column in columns)
        await world.db.execute(f"UPDATE emails SET {sets}, created_at = ? WHERE id = ?",
                               (*columns.values(), world.created_at(), existing["id"]))
    else:
        await _file(world, draft, "drafts")


@routes.post("/send", "send")
async def send_action(request: web.Request) -> web.StreamResponse:
    return await _compose(request, True, _send, "Message sent", "inbox")


@routes.post("/draft", "draft")
async def draft_action(request: web.Request) -> web.StreamResponse:
    return await _compose(request, False, _save_draft, "Draft saved", "drafts")


@routes.post("/bulk", "bulk")
async def bulk_action(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    op = choice_param(form, "op", tuple(BULK_OPS), "", "Choose what to do with the selected messages.")
    ids = [str(v) for v in form.getall("ids", []) + form.getall("ids[]", [])]
    if len(ids) > MAX_BULK:
        raise BadInput(f"Select at most {MAX_BULK} messages at once.")
    if not ids:
        raise done(request, form, "No messages selected", url_for(request, "folder", folder="inbox"))
    _, status, setting = BULK_OPS[op]
    changed = gone = 0
    async with world.write() as db:
        for email_id in dict.fromkeys(ids):
            row = await q.get_email(world, email_id)
            if row is None or (op == "archive" and row["folder"] == "drafts"):
                continue
            if op != "trash":
                await db.execute(f"UPDATE emails SET {setting} WHERE id = ?", (email_id,))
            elif await _delete(world, row):
                gone += 1
                continue
            changed += 1
    parts = [f"{changed} {'message' if changed == 1 else 'messages'} {status}"] if changed or not gone else []
    parts += [f"{gone} deleted permanently"] if gone else []
    raise done(request, form, ", ".join(parts), url_for(request, "folder", folder="inbox"))
