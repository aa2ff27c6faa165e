"""MicroDin pages (GET) under /microdin. Side effects (not on live refreshes): opening a thread marks its
messages read; following a notification's link marks it read before redirecting to what it is about.
The pages a form re-renders with errors (post, job, thread, profile) read their id from the form's URL."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from sentinel.core.environment import Routes
from sentinel.envs.microdin import queries as q
from sentinel.web.kit import fetch_or_404, mark_seen, paged, text_param, url_for, world_of
from sentinel.web.render import render

routes = Routes()
POST_GONE = "This post no longer exists."
JOB_GONE = "This job posting no longer exists."
THREAD_GONE = "This conversation no longer exists."
MAX_QUERY = 100


def self_id(request: web.Request) -> str:
    return str(world_of(request).self_persona["id"])


@routes.get("/", "home")
async def home(request: web.Request) -> web.StreamResponse:
    raise web.HTTPFound(url_for(request, "feed"))


@routes.get("/feed", "feed")
async def feed(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    listing = await paged(request, per_page=q.FEED_PER_PAGE, count_sql="SELECT COUNT(*) FROM posts",
                          rows_sql=q.POST_ROWS + q.POST_ORDER)
    me = await q.person(world, self_id(request))
    return await render(request, "microdin/feed.html", {
        "list": listing, "me_card": me, "connections": await q.connection_count(world), "errors": {}, "draft": ""})


@routes.get("/posts/{id}", "post")
async def post_page(request: web.Request, errors: dict[str, str] | None = None, draft: str = "",
                    status: int = 200) -> web.Response:
    world, post_id = world_of(request), request.match_info["id"]
    post = await fetch_or_404(request, q.POST_ROWS + " WHERE p.id = ?", (post_id,), POST_GONE)
    cols, joins = q.person_join("c.author_id", "author")
    comments = await world.fetch_all(f"SELECT c.*, {cols} FROM post_comments c{joins} WHERE c.post_id = ?"
                                     " ORDER BY c.created_at, c.rowid", (post_id,))
    return await render(request, "microdin/post.html", {"p": post, "comments": comments,
                                                         "errors": errors or {}, "draft": draft}, status=status)


@routes.get("/network", "network")
async def network(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    invitations = await world.fetch_all(q.PENDING + " ORDER BY i.created_at DESC, i.rowid DESC")
    listing = await paged(request, per_page=q.LIST_PER_PAGE,
                          count_sql="SELECT COUNT(*) FROM members WHERE connected = 1",
                          rows_sql="SELECT m.*, pe.name, pe.avatar_color FROM members m"
                                   " JOIN personas pe ON pe.id = m.id WHERE m.connected = 1 ORDER BY pe.name, m.id")
    suggestions = await world.fetch_all(
        "SELECT m.*, pe.name, pe.avatar_color FROM members m JOIN personas pe ON pe.id = m.id"
        " WHERE m.connected = 0 AND pe.is_self = 0 AND m.id NOT IN (SELECT persona_id FROM invitations)"
        " ORDER BY m.id LIMIT ?", (q.SUGGESTIONS,))
    return await render(request, "microdin/network.html", {
        "invitations": invitations, "list": listing, "suggestions": suggestions})


@routes.get("/jobs", "jobs")
async def jobs(request: web.Request) -> web.StreamResponse:
    query = text_param(request.query, "q", max_len=MAX_QUERY, label="The search")
    where, params = "j.closed = 0", []
    if query:
        where += " AND (j.title LIKE ? OR c.name LIKE ? OR j.location LIKE ?)"
        params = [f"%{query}%"] * 3
    listing = await paged(request, per_page=q.JOBS_PER_PAGE, params=params,
                          count_sql=f"SELECT COUNT(*) FROM jobs j JOIN companies c ON c.id = j.company_id"
                                    f" WHERE {where}",
                          rows_sql=f"{q.JOB_ROWS} WHERE {where}{q.JOB_ORDER}")
    applied = await world_of(request).fetch_value("SELECT COUNT(*) FROM jobs WHERE applied = 1")
    return await render(request, "microdin/jobs.html", {"list": listing, "applied_count": applied})


@routes.get("/jobs/applied", "applications")
async def applications(request: web.Request) -> web.StreamResponse:
    listing = await paged(request, per_page=q.LIST_PER_PAGE,
                          count_sql="SELECT COUNT(*) FROM applications",
                          rows_sql="SELECT a.*, j.title, j.location, j.closed, j.company_id, c.name AS company_name"
                                   " FROM applications a JOIN jobs j ON j.id = a.job_id"
                                   " JOIN companies c ON c.id = j.company_id ORDER BY a.created_at DESC, a.rowid DESC")
    return await render(request, "microdin/applications.html", {"list": listing})


@routes.get("/jobs/{id}", "job")
async def job_page(request: web.Request, errors: dict[str, str] | None = None, form: dict[str, Any] | None = None,
                   status: int = 200) -> web.Response:
    world, job_id = world_of(request), request.match_info["id"]
    job = await fetch_or_404(request, f"{q.JOB_ROWS} WHERE j.id = ?", (job_id,), JOB_GONE)
    application = await world.fetch_one("SELECT * FROM applications WHERE job_id = ?", (job_id,))
    values = {"email": world.self_persona["email"], "phone": "", "resume": RESUMES[0], "note": "", **(form or {})}
    return await render(request, "microdin/job.html", {
        "job": job, "requirements": q.split_lines(job["requirements"]), "application": application,
        "errors": errors or {}, "values": values, "resumes": RESUMES}, status=status)


RESUMES = ("Alex_Morgan_Resume_2024.pdf", "Alex_Morgan_Product_CV.pdf")


@routes.get("/messaging", "messaging")
async def messaging(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    rows = await world.fetch_all(q.CONVERSATION_ROWS + " ORDER BY last_at DESC, c.rowid DESC")
    conversations = [{**dict(r), "preview": q.preview(r["last_body"])} for r in rows]
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
    conversation = await fetch_or_404(request, q.CONVERSATION_ROWS + " WHERE c.id = ?", (conversation_id,), THREAD_GONE)
    cols, joins = q.person_join("x.sender_id", "sender")
    messages = await world.fetch_all(f"SELECT x.*, {cols} FROM messages x{joins} WHERE x.conversation_id = ?"
                                     " ORDER BY x.created_at, x.rowid", (conversation_id,))
    return await render(request, "microdin/thread.html", {"c": conversation, "messages": messages,
                                                           "errors": errors or {}}, status=status)


@routes.get("/notifications", "notifications")
async def notifications(request: web.Request) -> web.StreamResponse:
    listing = await paged(request, per_page=q.LIST_PER_PAGE, count_sql="SELECT COUNT(*) FROM notifications",
                          rows_sql=q.NOTIFICATION_ROWS + " ORDER BY n.created_at DESC, n.rowid DESC")
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
    person = await q.person(world, self_id(request) if is_me else persona_id)
    if person is None:
        raise web.HTTPNotFound(text="This profile is not available.")
    sections = await world.fetch_all("SELECT * FROM profile_sections ORDER BY created_at, rowid") if is_me else []
    invitation = await world.fetch_one("SELECT * FROM invitations WHERE persona_id = ?", (person["id"],))
    posts = await world.fetch_all(q.POST_ROWS + " WHERE p.author_id = ?" + q.POST_ORDER + " LIMIT 3", (person["id"],))
    return await render(request, "microdin/profile.html", {
        "person": person, "is_me": is_me, "sections": sections, "invitation": invitation, "posts": posts,
        "experience": q.split_lines(person["experience"]), "education": q.split_lines(person["education"]),
        "skills": q.split_lines(person["skills"]), "connections": await q.connection_count(world),
        "errors": errors or {}, "values": form or {}, "section_kinds": SECTION_KINDS}, status=status)


SECTION_KINDS = ("experience", "education", "certification", "project", "volunteering", "award")


@routes.get("/company/{id}", "company")
async def company_view(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    company = await fetch_or_404(request, "SELECT * FROM companies WHERE id = ?", (request.match_info["id"],),
                                 "This company page is not available.")
    open_jobs = await world.fetch_all(f"{q.JOB_ROWS} WHERE j.company_id = ? AND j.closed = 0{q.JOB_ORDER}",
                                      (company["id"],))
    employees = await world.fetch_value("SELECT COUNT(*) FROM members WHERE company_id = ?", (company["id"],))
    return await render(request, "microdin/company.html", {"company": company, "jobs": open_jobs,
                                                            "employees": employees})


@routes.get("/search", "search")
async def search(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    query = text_param(request.query, "q", max_len=MAX_QUERY, label="The search")
    people, companies, found_jobs = [], [], []
    if query:
        like = f"%{query}%"
        people = await world.fetch_all(
            "SELECT pe.id, pe.name, pe.avatar_color, m.headline, m.connected FROM personas pe JOIN members m"
            " ON m.id = pe.id WHERE pe.is_self = 0 AND (pe.name LIKE ? OR m.headline LIKE ?) ORDER BY pe.name LIMIT 20",
            (like, like))
        companies = await world.fetch_all("SELECT * FROM companies WHERE name LIKE ? OR industry LIKE ?"
                                          " ORDER BY name LIMIT 10", (like, like))
        found_jobs = await world.fetch_all(f"{q.JOB_ROWS} WHERE j.closed = 0 AND j.title LIKE ?{q.JOB_ORDER} LIMIT 20",
                                           (like,))
    return await render(request, "microdin/search.html", {"people": people, "companies": companies,
                                                           "found_jobs": found_jobs})
