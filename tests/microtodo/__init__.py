"""MicroTodo: a tiny to-do list environment that lives in the tests. One list, one detail page
(opening it marks the task seen), one toggle, one event type: everything else is the kit's."""

from __future__ import annotations

from pathlib import Path

from aiohttp import web

from sentinel.core.environment import Environment, EventType, Header, NavItem, Routes
from sentinel.core.scenario import Event
from sentinel.envs.kit import arrived_count, insert_timing, oldest_first, preload_type, selected
from sentinel.web.kit import done, fetch_or_404, form_of, mark_seen, paged, toggle, url_for
from sentinel.web.render import render
from sentinel.world.state import World

HERE = Path(__file__).parent
GONE = "This task no longer exists."
routes = Routes()


async def insert_task(world: World, event: Event, task_id: str) -> None:
    record = world.catalog.get("tasks", task_id)
    await world.insert("tasks", {"id": task_id, "title": record["title"], "notes": record.get("notes", "")},
                       **insert_timing(event, record))


async def apply_preload(world: World, event: Event) -> None:
    for task_id in oldest_first(world.catalog, "tasks", selected(world.catalog, "tasks", event.fields["tasks"])):
        await insert_task(world, event, task_id)


async def apply_new_task(world: World, event: Event) -> None:
    await insert_task(world, event, str(event.fields["task_id"]))


@routes.get("/", "home")
async def task_list(request: web.Request) -> web.StreamResponse:
    listing = await paged(request, per_page=10, count_sql="SELECT COUNT(*) FROM tasks",
                          rows_sql="SELECT * FROM tasks ORDER BY created_at DESC, rowid DESC")
    return await render(request, "microtodo/list.html", {"list": listing})


@routes.get("/task/{id}", "task")
async def task_page(request: web.Request) -> web.StreamResponse:
    task_id = request.match_info["id"]
    await fetch_or_404(request, "SELECT id FROM tasks WHERE id = ?", (task_id,), GONE)
    await mark_seen(request, "UPDATE tasks SET is_seen = 1 WHERE id = ?", (task_id,))
    task = await fetch_or_404(request, "SELECT * FROM tasks WHERE id = ?", (task_id,), GONE)
    return await render(request, "microtodo/task.html", {"task": task})


@routes.post("/task/{id}/done", "done")
async def toggle_done(request: web.Request) -> web.StreamResponse:
    form = await form_of(request)
    task = await fetch_or_404(request, "SELECT id FROM tasks WHERE id = ?", (request.match_info["id"],), GONE)
    finished = await toggle(request, "tasks", "is_done", task["id"])
    raise done(request, form, "Marked done" if finished else "Marked not done", url_for(request, "task", id=task["id"]))


async def header(world: World) -> Header:
    unseen = int(await world.fetch_value("SELECT COUNT(*) FROM tasks WHERE is_seen = 0") or 0)
    return Header(unread=unseen, counts={"open": unseen})


ENV = Environment(
    name="microtodo",
    title="MicroTodo",
    schema=HERE / "schema.sql",
    event_types={"preload": preload_type(apply_preload, {"tasks": "tasks"}, required=("tasks",)),
                 "new_task": EventType(apply_new_task, refs={"task_id": "tasks"}, inserts=("task_id",),
                                       required=("task_id",))},
    routes=routes,
    nav=(NavItem("Tasks", "home", count="open"),),
    header=header,
    baseline_sql={"task_count": arrived_count("tasks")},
    serve_preload=lambda catalog: {"tasks": "*"},
    templates=HERE / "templates",
    catalog_dir=HERE / "catalog",
)
