"""The web kit: form parameters (folded text, limits and the required message) and redirects."""

from __future__ import annotations

import pytest
from aiohttp import web

from sentinel.web.kit import BadInput, redirect_to, route_name, text_param


def test_text_param_folds_whitespace_and_may_be_empty_when_not_required():
    assert text_param({"body": "  two \n words "}, "body") == "two words"
    assert text_param({}, "body") == ""


def test_text_param_refuses_long_and_non_text_values_with_its_label():
    with pytest.raises(BadInput, match="The note is too long"):
        text_param({"note": "x" * 11}, "note", max_len=10, label="The note")
    with pytest.raises(BadInput, match="Note must be text"):
        text_param({"note": ["a"]}, "note")


def test_text_param_required_message_for_blank_text():
    with pytest.raises(BadInput, match="^Write something first.$"):
        text_param({"body": " \t "}, "body", required="Write something first.")
    assert text_param({"body": "hi"}, "body", required="Write something first.") == "hi"


async def test_redirect_to_forwards_to_the_named_route_with_its_parts(aiohttp_client):
    async def folder(request: web.Request) -> web.Response:
        return web.Response(text=request.match_info["folder"])
    app = web.Application()
    app.router.add_get("/m/folder/{folder}", folder, name="folder")
    app.router.add_get("/m/", redirect_to("folder", folder="inbox"), name="home")
    client = await aiohttp_client(app)
    response = await client.get("/m/", allow_redirects=False)
    assert (response.status, response.headers["Location"]) == (302, "/m/folder/inbox")


async def test_route_name_tells_apart_the_routes_one_handler_serves(aiohttp_client):
    async def rate(request: web.Request) -> web.Response:
        return web.Response(text=route_name(request))
    app = web.Application()
    app.router.add_post("/v/like", rate, name="like")
    app.router.add_post("/v/dislike", rate, name="dislike")
    client = await aiohttp_client(app)
    assert [await (await client.post(f"/v/{name}")).text() for name in ("like", "dislike")] == ["like", "dislike"]
