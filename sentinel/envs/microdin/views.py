"""MicroDin pages (GET) and the SQL they share (a person: the persona joined with their member profile). Opening a
thread or a notification's link marks it read (not on a live refresh); re-rendered form pages read ids from the URL."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from sentinel.core.environment import Routes
from sentinel.web.kit import fetch_or_404, mark_seen, paged, redirect_to, text_param, url_for, world_of
from sentinel.web.render import render
from sentinel.world.state import World

routes = Routes()
POST_GONE, JOB_GONE = "This post no longer exists.", "This job posting no longer exists."
THREAD_GONE = "This conversation no longer exists."
FEED_PER_PAGE, JOBS_PER_PAGE, LIST_PER_PAGE = 10, 15, 20
PREVIEW_CHARS, SUGGESTIONS, MAX_QUERY = 50, 6, 100
RESUMES = ("Alex_Morgan_Resume_2024.pdf", "Alex_Morgan_Product_CV.pdf")
SECTION_KINDS = ("experience", "education", "certification", "project", "volunteering", "award")


def person_join(column: str, prefix: str) -> tuple[str, str]:
    """Columns and joins naming the person in `column` as {prefix}_name, _headline, _color."""
    joins = (f" JOIN personas {prefix}pe ON {prefix}pe.id = {column}"
             f" LEFT JOIN members {prefix}m ON {prefix}m.id = {prefix}pe.id")
    cols = (f"{prefix}pe.name AS {prefix}_name, {prefix}m.headline AS {prefix}_headline,"
            f" {prefix}pe.avatar_color AS {prefix}_color")
    return cols, joins


AUTHOR_COLS, AUTHOR_JOIN = person_join("p.author_id", "author")
POST_ROWS = f"SELECT p.*, {AUTHOR_COLS} FROM posts p{AUTHOR_JOIN}"
POST_ORDER = " ORDER BY p.created_at DESC, p.rowid DESC"

JOB_ROWS = ("SELECT j.*, c.name AS company_name FROM jobs j JOIN companies c ON c.id = j.company_id")
JOB_ORDER = " ORDER BY j.created_at DESC, j.rowid DESC"

INVITE_COLS, INVITE_JOIN = person_join("i.persona_id", "from")
PENDING = f"SELECT i.*, {INVITE_COLS} FROM invitations i{INVITE_JOIN} WHERE i.status = 'pending'"

COUNTERPART_COLS, COUNTERPART_JOIN = person_join("c.counterpart_id", "counterpart")
LATEST = "FROM messages WHERE conversation_id = c.id ORDER BY created_at DESC, rowid DESC LIMIT 1"
CONVERSATION_ROWS = (
    f"SELECT c.id, c.counterpart_id, {COUNTERPART_COLS}, (SELECT body {LATEST}) AS last_body,"
    f" (SELECT sender_id {LATEST}) AS last_sender,"
    " COALESCE((SELECT MAX(created_at) FROM messages WHERE conversation_id = c.id), c.created_at) AS last_at,"
    " (SELECT COUNT(*) FROM messages WHERE conversation_id = c.id AND is_read = 0) AS unread"
    f" FROM conversations c{COUNTERPART_JOIN}")

ACTOR_COLS, ACTOR_JOIN = person_join("n.actor_id", "actor")
NOTIFICATION_ROWS = f"SELECT n.*, {ACTOR_COLS} FROM notifications n{ACTOR_JOIN}"
SEARCHES = {  # the search page's lists: people by name or headline, companies, open jobs by title
    "people": "SELECT pe.id, pe.name, pe.avatar_color, m.headline, m.connected FROM personas pe JOIN members m ON "
              "m.id = pe.id WHERE pe.is_self = 0 AND (pe.name LIKE ? OR m.headline LIKE ?) ORDER BY pe.name LIMIT 20",
    "companies": "SELECT * FROM companies WHERE name LIKE ? OR industry LIKE ? ORDER BY name LIMIT 10",
    "found_jobs": f"{JOB_ROWS} WHERE j.closed = 0 AND j.title LIKE ?{JOB_ORDER} LIMIT 20",
}


def preview(text: str | None, limit: int = PREVIEW_CHARS) -> str:
    """A fixed-length preview: the first `limit` characters, with an ellipsis when cut."""
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[:limit].rstrip() + "…"


def split_lines(text: str | None) -> list[str]:
    return [line for line in (text or "").split("\n") if line.strip()]


async def connection_count(world: World) -> int:
    return int(await world.fetch_value("SELECT COUNT(*) FROM members WHERE connected = 1") or 0)


async def person_row(world: World, persona_id: str) -> Any:
    return await world.fetch_one(
        "SELECT pe.*, m.headline, m.company_id, m.connected, m.about, m.experience, m.education, m.skills,"
        " c.name AS company_name FROM personas pe LEFT JOIN members m ON m.id = pe.id"
        " LEFT JOIN companies c ON c.id = m.company_id WHERE pe.id = ?", (persona_id,))


def self_id(request: web.Request) -> str:
    return str(world_of(request).self_persona["id"])


routes.get("/", "home")(redirect_to("feed"))


@routes.get("/feed", "feed")
async def feed(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    listing = await paged(request, per_page=FEED_PER_PAGE, count_sql="SELECT COUNT(*) FROM posts",
                          rows_sql=POST_ROWS + POST_ORDER)
    return await render(request, "microdin/feed.html", {
        "list": listing, "me_card": await person_row(world, self_id(request)),
        "connections": await connection_count(world), "errors": {}, "draft": ""})


@routes.get("/posts/{id}", "post")
async def post_page(request: web.Request, errors: dict[str, str] | None = None, draft: str = "",
                    status: int = 200) -> web.Response:
    world, post_id = world_of(request), request.match_info["id"]
    post = await fetch_or_404(request, POST_ROWS + " WHERE p.id = ?", (post_id,), POST_GONE)
    cols, joins = person_join("c.author_id", "author")
    comments = await world.fetch_all(f"SELECT c.*, {cols} FROM post_comments c{joins} WHERE c.post_id = ?"
                                     " ORDER BY c.created_at, c.rowid", (post_id,))
    return await render(request, "microdin/post.html", {"p": post, "comments": comments,
                                                         "errors": errors or {}, "draft": draft}, status=status)


@routes.get("/network", "network")
async def network(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    invitations = await world.fetch_all(PENDING + " ORDER BY i.created_at DESC, i.rowid DESC")
    members = "SELECT m.*, pe.name, pe.avatar_color FROM members m JOIN personas pe ON pe.id = m.id"
    listing = await paged(request, per_page=LIST_PER_PAGE, count_sql="SELECT COUNT(*) FROM members WHERE connected = 1",
                          rows_sql=f"{members} WHERE m.connected = 1 ORDER BY pe.name, m.id")
    suggestions = await world.fetch_all(f"{members} WHERE m.connected = 0 AND pe.is_self = 0 AND m.id NOT IN "
                                        "(SELECT persona_id FROM invitations) ORDER BY m.id LIMIT ?", (SUGGESTIONS,))
    return await render(request, "microdin/network.html", {
        "invitations": invitations, "list": listing, "suggestions": suggestions})


@routes.get("/jobs", "jobs")
async def jobs(request: web.Request) -> web.StreamResponse:
    query = text_param(request.query, "q", max_len=MAX_QUERY, label="The search")
    where = "j.closed = 0" + (" AND (j.title LIKE ? OR c.name LIKE ? OR j.location LIKE ?)" if query else "")
    listing = await paged(request, per_page=JOBS_PER_PAGE, params=[f"%{query}%"] * where.count("?"),
                          count_sql=f"SELECT COUNT(*) FROM jobs j JOIN companies c ON c.id = j.company_id"
                                    f" WHERE {where}",
                          rows_sql=f"{JOB_ROWS} WHERE {where}{JOB_ORDER}")
    applied = await world_of(request).fetch_value("SELECT COUNT(*) FROM jobs WHERE applied = 1")
    return await render(request, "microdin/jobs.html", {"list": listing, "applied_count": applied})


@routes.get("/jobs/applied", "applications")
async def applications(request: web.Request) -> web.StreamResponse:
    listing = await paged(request, per_page=LIST_PER_PAGE, count_sql="SELECT COUNT(*) FROM applications",
                          rows_sql="SELECT a.*, j.title, j.location, j.closed, j.company_id, c.name AS company_name"
                                   " FROM applications a JOIN jobs j ON j.id = a.job_id"
                                   " JOIN companies c ON c.id = j.company_id ORDER BY a.created_at DESC, a.rowid DESC")
    return await render(request, "microdin/applications.html", {"list": listing})


@routes.get("/jobs/{id}", "job")
async def job_page(request: web.Request, errors: dict[str, str] | None = None, form: dict[str, Any] | None = None,
                   status: int = 200) -> web.Response:
    world, job_id = world_of(request), request.match_info["id"]
    job = await fetch_or_404(request, f"{JOB_ROWS} WHERE j.id = ?", (job_id,), JOB_GONE)
    application = await world.fetch_one("SELECT * FROM applications WHERE job_id = ?", (job_id,))
    values = {"email": world.self_persona["email"], "phone": "", "resume": RESUMES[0], "note": "", **(form or {})}
    return await render(request, "microdin/job.html", {
        "job": job, "requirements": split_lines(job["requirements"]), "application": application,
        "errors": errors or {}, "values": values, "resumes": RESUMES}, status=status)


@routes.get("/messaging", "messaging")
async def messaging(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    rows = await world.fetch_all(CONVERSATION_ROWS + " ORDER BY last_at DESC, c.rowid DESC")
    conversations = [{**dict(r), "preview": preview(r["last_body"])} for r in rows]
    contacts = await world.fetch_all("SELECT pe.id, pe.name FROM members m JOIN personas pe ON pe.id = m.id"
                                     " WHERE m.connected = 1 ORDER BY pe.name")
    return await render(request, "microdin/messaging.html", {"conversations": conversations, "contacts": contacts})


@routes.get("/messaging/{id}", "thread")
async def thread_page(request: web.Request, errors: dict[str, str] | None = None, status: int = 200) -> web.Response:
    world, conversation_id = world_of(request), request.match_info["id"]
    if request.method == "GET":  # opening the thread marks its messages read (a failed send does not)
        await fetch_or_404(request, "SELECT id FROM conversations WHERE id = ?", (conversation_id,), THREAD_GONE)
        await mark_seen(request, "UPDATE messages SET is_read = 1 WHERE conversation_id = ? AND is_read = 0",
                        (conversation_id,))
    conversation = await fetch_or_404(request, CONVERSATION_ROWS + " WHERE c.id = ?", (conversation_id,), THREAD_GONE)
    cols, joins = person_join("x.sender_id", "sender")
    messages = await world.fetch_all(f"SELECT x.*, {cols} FROM messages x{joins} WHERE x.conversation_id = ?"
                                     " ORDER BY x.created_at, x.rowid", (conversation_id,))
    return await render(request, "microdin/thread.html", {"c": conversation, "messages": messages,
                                                           "errors": errors or {}}, status=status)


@routes.get("/notifications", "notifications")
async def notifications(request: web.Request) -> web.StreamResponse:
    listing = await paged(request, per_page=LIST_PER_PAGE, count_sql="SELECT COUNT(*) FROM notifications",
                          rows_sql=NOTIFICATION_ROWS + " ORDER BY n.created_at DESC, n.rowid DESC")
    return await render(request, "microdin/notifications.html", {"list": listing})


@routes.get("/notifications/{id}", "notification")
async def notification_open(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    row = await fetch_or_404(request, "SELECT * FROM notifications WHERE id = ?", (request.match_info["id"],),
                             "This notification no longer exists.")
    await mark_seen(request, "UPDATE notifications SET is_read = 1 WHERE id = ?", (row["id"],))
    conversation = await world.fetch_value("SELECT id FROM conversations WHERE counterpart_id = ?", (row["actor_id"],))
    if row["post_id"] or row["job_id"]:  # where it leads: what it is about, the sender's thread or profile, or mine
        name, parts = ("post", {"id": row["post_id"]}) if row["post_id"] else ("job", {"id": row["job_id"]})
    elif row["kind"] == "message":
        name, parts = ("thread", {"id": conversation}) if conversation else ("messaging", {})
    else:
        name, parts = "profile", {"id": row["actor_id"] if row["kind"] in ("connection", "profile_view") else "me"}
    raise web.HTTPSeeOther(url_for(request, name, None, **parts))


@routes.get("/in/{id}", "profile")
async def profile_page(request: web.Request, errors: dict[str, str] | None = None, form: dict[str, str] | None = None,
                       status: int = 200) -> web.Response:
    world, persona_id = world_of(request), request.match_info.get("id", "me")  # adding a section: /in/me/sections
    is_me = persona_id in ("me", self_id(request))
    person = await person_row(world, self_id(request) if is_me else persona_id)
    if person is None:
        raise web.HTTPNotFound(text="This profile is not available.")
    sections = await world.fetch_all("SELECT * FROM profile_sections ORDER BY created_at, rowid") if is_me else []
    invitation = await world.fetch_one("SELECT * FROM invitations WHERE persona_id = ?", (person["id"],))
    posts = await world.fetch_all(POST_ROWS + " WHERE p.author_id = ?" + POST_ORDER + " LIMIT 3", (person["id"],))
    return await render(request, "microdin/profile.html", {
        "person": person, "is_me": is_me, "sections": sections, "invitation": invitation, "posts": posts,
        "experience": split_lines(person["experience"]), "education": split_lines(person["education"]),
        "skills": split_lines(person["skills"]), "connections": await connection_count(world),
        "errors": errors or {}, "values": form or {}, "section_kinds": SECTION_KINDS}, status=status)


@routes.get("/company/{id}", "company")
async def company_view(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    company = await fetch_or_404(request, "SELECT * FROM companies WHERE id = ?", (request.match_info["id"],),
                                 "This company page is not available.")
    listed = await world.fetch_all(f"{JOB_ROWS} WHERE j.company_id = ? AND j.closed = 0{JOB_ORDER}", (company["id"],))
    employees = await world.fetch_value("SELECT COUNT(*) FROM members WHERE company_id = ?", (company["id"],))
    return await render(request, "microdin/company.html", {"company": company, "jobs": listed, "employees": employees})


@routes.get("/search", "search")
async def search(request: web.Request) -> web.StreamResponse:
    """People, companies and open jobs matching the query (SEARCHES; each ? is the LIKE pattern)."""
    world = world_of(request)
    query = text_param(request.query, "q", max_len=MAX_QUERY, label="The search")
    return await render(request, "microdin/search.html", {
        key: await world.fetch_all(sql, (f"%{query}%",) * sql.count("?")) if query else []
        for key, sql in SEARCHES.items()})
