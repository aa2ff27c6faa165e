"""The agents' text browser: readable pages with numbered links and forms, cookies, forms sent
as a browser sends them, conditional GETs. Served by a small real aiohttp app; the browser is
synchronous (urllib), so it runs in a thread beside the server's event loop."""

from __future__ import annotations

import asyncio

import pytest
from aiohttp import web

from sentinel.agents.browse import BrowseError, Browser, parse_page

INBOX = """<html><head><title>Inbox</title><style>p {{color: red}}</style></head><body>
<nav><a href="/inbox">Inbox ({unread})</a> <a href="/sent">Sent</a></nav>
<table>{rows}</table>
<form method="post" action="/bulk"><input type="hidden" name="next" value="/inbox">
  <select name="op"><option value="read">Mark read</option><option value="trash" selected>Trash</option></select>
  <input type="checkbox" name="ids" value="m1"><input type="checkbox" name="ids" value="m2" checked>
  <button type="submit">Apply</button></form>
<form method="get" action="/search"><input type="search" name="q"><textarea name="note">hi</textarea></form>
<a href="/icon"><svg><text>ignored</text></svg></a>
</body></html>"""


def inbox_html(subjects: list[str]) -> str:
    rows = "".join(f'<tr><td>Ann</td><td><a href="/message/{s}">{s}</a></td></tr>' for s in subjects)
    return INBOX.format(unread=len(subjects), rows=rows)


def test_readable_page_numbers_links_and_summarises_forms():
    browser = Browser("http://site/")
    page = parse_page("http://site/inbox", 200, inbox_html(["Budget", "Lunch"]))
    lines = browser.render(page)
    shown = [line.shown for line in lines]
    assert shown[:3] == ["Inbox", "[1] Inbox (2) [2] Sent", "Ann [3] Budget"]
    assert "[form 1] POST /bulk: op (select: read, trash*), ids (checkbox: m1, m2*); buttons \"Apply\"" in shown
    assert '[form 2] GET /search: q (search), note (textarea)' in shown
    assert shown[-1] == "[5] (link)"  # a link with no visible text still gets a number
    # The visible-text column is Page.text, line for line (form summaries have none).
    assert [line.text for line in lines if line.text] == page.text.split("\n")
    assert lines[2].links == ("http://site/message/Budget",)
    assert browser.link(3) == "http://site/message/Budget"
    with pytest.raises(BrowseError, match=r"no link \[99\]"):
        browser.link(99)


def test_link_numbers_hold_when_rows_move():
    browser = Browser("http://site/")
    before = browser.render(parse_page("http://site/inbox", 200, inbox_html(["Budget", "Lunch"])))
    after = browser.render(parse_page("http://site/inbox", 200, inbox_html(["Offer", "Budget", "Lunch"])))
    assert "Ann [3] Budget" in [line.shown for line in before]
    assert [line.shown for line in after if "Ann" in line.shown] == ["Ann [6] Offer", "Ann [3] Budget", "Ann [4] Lunch"]


def test_forms_by_number_or_action_and_their_default_values():
    browser = Browser("http://site/")
    page = parse_page("http://site/inbox", 200, inbox_html(["Budget"]))
    bulk = browser.form(page, 1)
    assert bulk is browser.form(page, "1") is browser.form(page, "/bulk$")
    assert bulk.fields == {"next": "/inbox", "op": "trash", "ids": "m2"}
    assert browser.form(page, 2).fields == {"q": "", "note": "hi"}
    with pytest.raises(BrowseError, match="forms here: 1, 2"):
        browser.form(page, 7)


def site() -> web.Application:
    async def login(request):
        response = web.HTTPSeeOther("/home")
        response.set_cookie("session", "abc123")
        raise response

    async def home(request):
        who = request.cookies.get("session", "nobody")
        return web.Response(text=f"<p>Hello {who}</p><a href='/form'>Form</a>", content_type="text/html",
                            headers={"ETag": '"home-1"'})

    async def form(request):
        return web.Response(text="<form method='post' action='/save'><input name='a' value='1'>"
                                 "<input name='b'><button>Save</button></form>"
                                 "<form action='/find?old=1'><input name='q' value='x'></form>",
                            content_type="text/html")

    async def save(request):
        data = await request.post()
        raise web.HTTPSeeOther(f"/saved?a={data['a']}&b={data['b']}")

    async def echo(request):
        return web.Response(text=f"<p>{request.path_qs}</p>", content_type="text/html")

    async def conditional(request):
        if request.headers.get("If-None-Match") == '"home-1"':
            return web.Response(status=304, headers={"ETag": '"home-1"'})
        return await home(request)

    app = web.Application()
    app.router.add_get("/login", login)
    app.router.add_get("/home", conditional)
    app.router.add_get("/form", form)
    app.router.add_post("/save", save)
    app.router.add_get("/saved", echo)
    app.router.add_get("/find", echo)
    return app


async def test_cookies_forms_and_conditional_gets_against_a_real_server(aiohttp_server):
    server = await aiohttp_server(site())
    base = str(server.make_url("/"))

    def browse() -> dict:
        browser = Browser(base)
        seen = {"home": browser.get("/login").text}
        requests = browser.requests
        again = browser.get("/home", conditional=True)
        seen["cached"] = (again.text, browser.requests - requests)
        browser.render(again)
        page = browser.get(browser.link(1))  # "Form", numbered when the page was rendered
        seen["posted"] = browser.submit(browser.form(page, "/save"), {"b": "two words"}).text
        seen["got"] = browser.submit(browser.form(page, 2), {"q": "new"}).text
        return seen

    seen = await asyncio.to_thread(browse)
    assert seen["home"] == "Hello abc123\nForm"  # the cookie set on the redirect came back
    assert seen["cached"] == ("Hello abc123\nForm", 1)  # one request, answered 304
    assert seen["posted"] == "/saved?a=1&b=two+words"
    assert seen["got"] == "/find?q=new"  # a GET form replaces the action's query, as browsers do
