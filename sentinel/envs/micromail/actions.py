"""MicroMail actions (POST): read state, flag, pin, move, delete, send, save draft, bulk.

Each answers 303 to the form's `next` page with a one-line status; bad input answers 400.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from sentinel.envs.micromail import queries as q
from sentinel.envs.micromail.compose import Draft
from sentinel.envs.micromail.events import derived_flags
from sentinel.envs.micromail.views import GONE, bad_request, compose_page
from sentinel.web.keys import WORLD
from sentinel.web.render import redirect_after_post
from sentinel.world import World

MAX_BULK = 500
BULK_DONE = {"read": "marked as read", "unread": "marked as unread", "flag": "flagged",
             "unflag": "unflagged", "archive": "moved to Archive", "trash": "moved to Trash"}


async def _message(world: World, request: web.Request) -> Any:
    row = await q.get_email(world, request.match_info["id"])
    if row is None:
        raise web.HTTPNotFound(text=GONE)
    return row


async def read_action(request: web.Request) -> web.StreamResponse:
    world, form = request.app[WORLD], await request.post()
    state = form.get("state")
    if state not in ("read", "unread"):
        return await bad_request(request, "Choose read or unread.")
    async with world.write() as db:
        row = await _message(world, request)
        await db.execute("UPDATE emails SET is_read = ? WHERE id = ?", (int(state == "read"), row["id"]))
    raise redirect_after_post(request, form.get("next"), f"Marked as {state}", q.folder_href(row["folder"]))


async def _toggle(request: web.Request, column: str, on: str, off: str) -> web.StreamResponse:
    world, form = request.app[WORLD], await request.post()
    async with world.write() as db:
        row = await _message(world, request)
        await db.execute(f"UPDATE emails SET {column} = 1 - {column} WHERE id = ?", (row["id"],))
    status = off if row[column] else on
    raise redirect_after_post(request, form.get("next"), status, f"/micromail/message/{row['id']}")


async def flag_action(request: web.Request) -> web.StreamResponse:
    return await _toggle(request, "is_flagged", "Flagged", "Flag removed")


async def pin_action(request: web.Request) -> web.StreamResponse:
    return await _toggle(request, "is_pinned", "Pinned", "Unpinned")


async def move_action(request: web.Request) -> web.StreamResponse:
    world, form = request.app[WORLD], await request.post()
    target = form.get("folder")
    if target not in q.MOVE_TARGETS:
        return await bad_request(request, "Choose Inbox, Archive, Junk or Trash.")
    row = await _message(world, request)
    if row["folder"] == "drafts":
        return await bad_request(request, "Drafts cannot be moved; send or delete them instead.")
    async with world.write() as db:
        await db.execute("UPDATE emails SET folder = ? WHERE id = ? AND folder != 'drafts'",
                         (target, row["id"]))
    raise redirect_after_post(request, form.get("next"), f"Moved to {q.FOLDER_LABELS[target]}",
                              q.folder_href(row["folder"]))


async def _delete(world: World, row: Any) -> bool:
    """Trash a message, or delete it for good if it is in Trash or Drafts. True if deleted."""
    if row["folder"] in ("trash", "drafts"):
        await world.db.execute("DELETE FROM attachments WHERE email_id = ?", (row["id"],))
        await world.db.execute("DELETE FROM emails WHERE id = ?", (row["id"],))
        return True
    await world.db.execute("UPDATE emails SET folder = 'trash' WHERE id = ?", (row["id"],))
    return False


async def delete_action(request: web.Request) -> web.StreamResponse:
    world, form = request.app[WORLD], await request.post()
    async with world.write():
        row = await _message(world, request)
        gone = await _delete(world, row)
    status = ("Draft discarded" if row["folder"] == "drafts" else "Deleted permanently") if gone else "Moved to Trash"
    raise redirect_after_post(request, form.get("next"), status, q.folder_href(row["folder"]))


async def _ref(world: World, draft: Draft) -> tuple[str | None, str | None]:
    if draft.mode and draft.of and await q.get_email(world, draft.of) is not None:
        return draft.mode, draft.of
    return None, None


async def send_action(request: web.Request) -> web.StreamResponse:
    world, form = request.app[WORLD], await request.post()
    draft = Draft.from_form(form)
    if not draft.check(sending=True):
        return await compose_page(request, draft, status=400)
    me = world.self_persona
    columns = draft.columns()
    flags = derived_flags({"cc": draft.addresses("cc"), "sender_id": me["id"], "sender_email": me["email"]},
                          me["email"])
    async with world.write() as db:
        ref_mode, ref_id = await _ref(world, draft)
        new_id = await world.next_self_id("emails")
        now, created = world.now(), world.created_at()
        await db.execute(
            "INSERT INTO emails (id, folder, sender_id, sender_name, sender_email, to_list, cc_list,"
            " bcc_list, cc_me, subject, body, importance, is_external, mentions_me, has_attachment,"
            " is_read, ref_mode, ref_id, created_at, arrived_at, origin)"
            " VALUES (?, 'sent', ?, ?, ?, ?, ?, ?, ?, ?, ?, 'normal', 0, 0, 0, 1, ?, ?, ?, ?, 'self')",
            (new_id, me["id"], me["name"], me["email"], columns["to_list"], columns["cc_list"],
             columns["bcc_list"], flags["cc_me"], columns["subject"], columns["body"], ref_mode, ref_id,
             created, now))
        if ref_mode == "forward":  # a forward carries the original's files
            for file in await q.get_attachments(world, ref_id):
                copy_id = await world.next_self_id("attachments")
                await db.execute(
                    "INSERT INTO attachments (id, email_id, file_name, size_bytes, created_at, arrived_at,"
                    " origin) VALUES (?, ?, ?, ?, ?, ?, 'self')",
                    (copy_id, new_id, file["file_name"], file["size_bytes"], created, now))
            await db.execute("UPDATE emails SET has_attachment = EXISTS (SELECT 1 FROM attachments"
                             " WHERE email_id = ?) WHERE id = ?", (new_id, new_id))
        if draft.draft_id:
            source = await q.get_email(world, draft.draft_id)
            if source is not None and source["folder"] == "drafts":
                await _delete(world, source)
    raise redirect_after_post(request, form.get("next"), "Message sent", "/micromail/folder/inbox")


async def draft_action(request: web.Request) -> web.StreamResponse:
    world, form = request.app[WORLD], await request.post()
    draft = Draft.from_form(form)
    if not draft.check(sending=False):
        return await compose_page(request, draft, status=400)
    me = world.self_persona
    columns = draft.columns()
    async with world.write() as db:
        ref_mode, ref_id = await _ref(world, draft)
        existing = await q.get_email(world, draft.draft_id) if draft.draft_id else None
        if existing is not None and existing["folder"] == "drafts":
            await db.execute(
                "UPDATE emails SET to_list = ?, cc_list = ?, bcc_list = ?, subject = ?, body = ?,"
                " created_at = ? WHERE id = ?",
                (columns["to_list"], columns["cc_list"], columns["bcc_list"], columns["subject"],
                 columns["body"], world.created_at(), existing["id"]))
        else:
            new_id = await world.next_self_id("emails")
            await db.execute(
                "INSERT INTO emails (id, folder, sender_id, sender_name, sender_email, to_list, cc_list,"
                " bcc_list, subject, body, is_read, ref_mode, ref_id, created_at, arrived_at, origin)"
                " VALUES (?, 'drafts', ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, 'self')",
                (new_id, me["id"], me["name"], me["email"], columns["to_list"], columns["cc_list"],
                 columns["bcc_list"], columns["subject"], columns["body"], ref_mode, ref_id,
                 world.created_at(), world.now()))
    raise redirect_after_post(request, form.get("next"), "Draft saved", "/micromail/folder/drafts")


async def bulk_action(request: web.Request) -> web.StreamResponse:
    world, form = request.app[WORLD], await request.post()
    op = form.get("op")
    ids = [str(v) for v in form.getall("ids", []) + form.getall("ids[]", [])]
    if op not in BULK_DONE:
        return await bad_request(request, "Choose what to do with the selected messages.")
    if len(ids) > MAX_BULK:
        return await bad_request(request, f"Select at most {MAX_BULK} messages at once.")
    if not ids:
        raise redirect_after_post(request, form.get("next"), "No messages selected", "/micromail/folder/inbox")
    done = gone = 0
    async with world.write() as db:
        for email_id in dict.fromkeys(ids):
            row = await q.get_email(world, email_id)
            if row is None:
                continue
            if op in ("read", "unread"):
                await db.execute("UPDATE emails SET is_read = ? WHERE id = ?", (int(op == "read"), email_id))
            elif op in ("flag", "unflag"):
                await db.execute("UPDATE emails SET is_flagged = ? WHERE id = ?", (int(op == "flag"), email_id))
            elif op == "archive":
                if row["folder"] == "drafts":
                    continue
                await db.execute("UPDATE emails SET folder = 'archive' WHERE id = ?", (email_id,))
            elif await _delete(world, row):
                gone += 1
                continue
            done += 1
    parts = [f"{done} {'message' if done == 1 else 'messages'} {BULK_DONE[op]}"] if done or not gone else []
    if gone:
        parts.append(f"{gone} deleted permanently")
    raise redirect_after_post(request, form.get("next"), ", ".join(parts), "/micromail/folder/inbox")


def add_action_routes(app: web.Application) -> None:
    app.router.add_post("/micromail/message/{id}/read", read_action)
    app.router.add_post("/micromail/message/{id}/flag", flag_action)
    app.router.add_post("/micromail/message/{id}/pin", pin_action)
    app.router.add_post("/micromail/message/{id}/move", move_action)
    app.router.add_post("/micromail/message/{id}/delete", delete_action)
    app.router.add_post("/micromail/send", send_action)
    app.router.add_post("/micromail/draft", draft_action)
    app.router.add_post("/micromail/bulk", bulk_action)
