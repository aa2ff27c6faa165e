"""MicroDin actions (POST): 303 to the form's `next` page with a status line; bad input re-renders the form (400)."""

from __future__ import annotations

import re

from aiohttp import web

from sentinel.core.environment import Routes
from sentinel.envs.microdin import views
from sentinel.envs.microdin.views import POST_GONE, self_id
from sentinel.web.kit import BadInput, done, fetch_or_404, form_of, route_name, text_param, toggle, url_for, world_of

MAX_POST, MAX_COMMENT, MAX_MESSAGE = 1300, 1000, 2000
PHONE = re.compile(r"^\+?[0-9 ()\-]{7,20}$")
routes = Routes()


@routes.post("/posts", "create_post")
async def create_post(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    body = text_param(form, "body", max_len=MAX_POST, label="Your post", required="Write something before posting.")
    async with world.write():
        await world.insert("posts", {"id": await world.next_self_id("posts"), "author_id": self_id(request),
                                     "body": body}, origin="self")
    raise done(request, form, "Post shared", url_for(request, "feed"))


@routes.post("/posts/{id}/like", "like")
async def like(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    post = await fetch_or_404(request, "SELECT id FROM posts WHERE id = ?", (request.match_info["id"],), POST_GONE)
    liked = await toggle(request, "posts", "liked", post["id"])
    async with world.write() as db:
        await db.execute("UPDATE posts SET like_count = MAX(0, like_count + ?) WHERE id = ?",
                         (1 if liked else -1, post["id"]))
    raise done(request, form, "Liked" if liked else "Like removed", url_for(request, "post", id=post["id"]))


@routes.post("/posts/{id}/comment", "comment")
async def comment(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    post = await fetch_or_404(request, "SELECT id FROM posts WHERE id = ?", (request.match_info["id"],), POST_GONE)
    body = text_param(form, "body", max_len=MAX_COMMENT, label="Your comment")
    if not body:
        return await views.post_page(request, {"body": "Write a comment first."}, status=400)
    async with world.write() as db:
        await world.insert("post_comments", {"id": await world.next_self_id("post_comments"), "post_id": post["id"],
                                             "author_id": self_id(request), "body": body}, origin="self")
        await db.execute("UPDATE posts SET comment_count = comment_count + 1 WHERE id = ?", (post["id"],))
    raise done(request, form, "Comment added", url_for(request, "post", id=post["id"]))


@routes.post("/invitations/{id}/accept", "accept")
@routes.post("/invitations/{id}/ignore", "ignore")
async def answer_invitation(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    status = "accepted" if route_name(request) == "accept" else "ignored"
    invitation = await fetch_or_404(
        request, "SELECT i.*, pe.name FROM invitations i JOIN personas pe ON pe.id = i.persona_id WHERE i.id = ?",
        (request.match_info["id"],), "This invitation no longer exists.")
    if invitation["status"] != "pending":
        raise BadInput(f"You already {invitation['status']} this invitation.")
    async with world.write() as db:
        await db.execute("UPDATE invitations SET status = ? WHERE id = ? AND status = 'pending'",
                         (status, invitation["id"]))
        if status == "accepted":
            await db.execute("UPDATE members SET connected = 1 WHERE id = ?", (invitation["persona_id"],))
    line = f"You are now connected with {invitation['name']}" if status == "accepted" else "Invitation ignored"
    raise done(request, form, line, url_for(request, "network"))


@routes.post("/jobs/{id}/apply", "apply")
async def apply(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    job = await fetch_or_404(request, "SELECT * FROM jobs WHERE id = ?", (request.match_info["id"],), views.JOB_GONE)
    if job["applied"]:
        raise BadInput("You already applied to this job.")
    if job["closed"]:
        raise BadInput("This job is no longer accepting applications.")
    values = {name: text_param(form, name, max_len=limit) for name, limit in
              (("email", 200), ("phone", 40), ("resume", 200), ("note", 2000))}
    errors = {name: error for name, ok, error in (
        ("email", "@" in values["email"], "Enter the email address employers should use."),
        ("phone", PHONE.match(values["phone"]), "Enter a phone number (7 to 20 digits, spaces, +, - or brackets)."),
        ("resume", values["resume"] in views.RESUMES, "Choose one of your uploaded résumés.")) if not ok}
    if errors:
        return await views.job_page(request, errors, values, status=400)
    async with world.write() as db:
        await world.insert("applications", {"id": await world.next_self_id("applications"), "job_id": job["id"],
                                            **values}, origin="self")
        await db.execute("UPDATE jobs SET applied = 1, applied_at = ?, applicant_count = applicant_count + 1"
                         " WHERE id = ? AND applied = 0", (world.created_at(), job["id"]))
    raise done(request, form, f"Application submitted to {job['title']}", url_for(request, "job", id=job["id"]))


@routes.post("/messaging/new", "new_conversation")
async def new_conversation(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    persona_id = text_param(form, "persona_id", max_len=20, label="The person")
    if not await world.fetch_value("SELECT 1 FROM personas WHERE id = ? AND is_self = 0", (persona_id,)):
        raise BadInput("Choose someone to message.")
    async with world.write():
        existing = await world.fetch_value("SELECT id FROM conversations WHERE counterpart_id = ?", (persona_id,))
        if existing is None:
            existing = await world.next_self_id("conversations")
            await world.insert("conversations", {"id": existing, "counterpart_id": persona_id}, origin="self")
    raise done(request, form, "Conversation opened", url_for(request, "thread", id=existing))


@routes.post("/messaging/{id}/send", "send")
async def send(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    conversation = await fetch_or_404(request, "SELECT id FROM conversations WHERE id = ?",
                                      (request.match_info["id"],), views.THREAD_GONE)
    body = text_param(form, "body", max_len=MAX_MESSAGE, label="Your message")
    if not body:
        return await views.thread_page(request, {"body": "Write a message first."}, status=400)
    async with world.write():
        message_id = await world.next_self_id("messages")
        await world.insert("messages", {"id": message_id, "conversation_id": conversation["id"],
                                        "sender_id": self_id(request), "body": body, "is_read": 1}, origin="self")
    raise done(request, form, "Message sent", url_for(request, "thread", id=conversation["id"]))


@routes.post("/in/me/sections", "add_section")
async def add_section(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    values = {name: text_param(form, name, max_len=limit) for name, limit in
              (("kind", 40), ("title", 120), ("subtitle", 120), ("body", 2000))}
    errors = {name: error for name, ok, error in (
        ("kind", values["kind"] in views.SECTION_KINDS, "Choose what kind of section to add."),
        ("title", values["title"], "Give the section a title.")) if not ok}
    if errors:
        return await views.profile_page(request, errors, values, status=400)
    async with world.write():
        await world.insert("profile_sections", {"id": await world.next_self_id("profile_sections"), **values},
                           origin="self")
    raise done(request, form, "Section added to your profile", url_for(request, "profile", id="me"))
