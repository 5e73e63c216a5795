"""REST routes for interaction callbacks and the interaction webhook (followups, @original).

discord.py posts callbacks to ``/interactions/{id}/{token}/callback?with_response=1`` and
followups/edits to ``/webhooks/{application_id}/{token}[/messages/{id|@original}]``, all
under the same ``Route.BASE`` as the bot's own routes, without the bot token.
"""

from __future__ import annotations

from aiohttp import web

from .http_util import emulator_of, json_response, no_content, read_body, snowflake
from .world import message_json


async def callback(request: web.Request) -> web.Response:
    manager = emulator_of(request).responder
    body = await read_body(request)
    result = manager.callback(
        snowflake(request, "interaction_id"), request.match_info["token"], body
    )
    if request.query.get("with_response") in ("1", "true"):
        return json_response(result)
    return no_content()


async def execute(request: web.Request) -> web.Response:
    manager = emulator_of(request).responder
    body = await read_body(request)
    message = manager.followup(
        snowflake(request, "application_id"), request.match_info["token"], body
    )
    # Interaction followups always behave as ``wait=true``.
    return json_response(message_json(message))


async def get_message(request: web.Request) -> web.Response:
    manager = emulator_of(request).responder
    message = manager.get_message(
        snowflake(request, "application_id"),
        request.match_info["token"],
        request.match_info["message"],
    )
    return json_response(message_json(message))


async def edit_message(request: web.Request) -> web.Response:
    manager = emulator_of(request).responder
    body = await read_body(request)
    message = manager.edit_message(
        snowflake(request, "application_id"),
        request.match_info["token"],
        request.match_info["message"],
        body,
    )
    return json_response(message_json(message))


async def delete_message(request: web.Request) -> web.Response:
    manager = emulator_of(request).responder
    manager.delete_message(
        snowflake(request, "application_id"),
        request.match_info["token"],
        request.match_info["message"],
    )
    return no_content()


def add_routes(router: web.UrlDispatcher, api: str) -> None:
    router.add_post(f"{api}/interactions/{{interaction_id}}/{{token}}/callback", callback)
    hook = f"{api}/webhooks/{{application_id}}/{{token}}"
    router.add_post(hook, execute)
    router.add_get(f"{hook}/messages/{{message}}", get_message)
    router.add_patch(f"{hook}/messages/{{message}}", edit_message)
    router.add_delete(f"{hook}/messages/{{message}}", delete_message)
