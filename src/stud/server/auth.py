"""Who a request is: the account token from an ``Authorization: Bearer`` header or the
``stud_token`` cookie the lobby sets. Every router of the app asks here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import HTTPException, Request

from stud.server.store import Account

if TYPE_CHECKING:
    from stud.server.app import Casino

COOKIE = "stud_token"


def token_of(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return request.cookies.get(COOKIE)


def casino_of(request: Request) -> Casino:
    casino: Casino = request.app.state.casino
    return casino


async def account_of(request: Request) -> Account | None:
    """The request's account, or None when it carries no token the store knows."""
    casino = casino_of(request)
    return await casino.db(casino.store.account_by_token, token_of(request))


async def must_be_me(request: Request) -> Account:
    account = await account_of(request)
    if account is None:
        raise HTTPException(401, "pick a nickname first: no account goes with this request")
    return account
