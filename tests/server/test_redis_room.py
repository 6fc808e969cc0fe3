"""One room per Redis prefix (stud.server.holder.RoomClaim): two ``stud serve --workers N`` on
different databases (or schemas) and one Redis would meet at the same table ids under one
``--redis-prefix``, so the second is refused at its start, in one line naming the database that
holds the prefix; a killed room's claim expires by itself; rooms on different prefixes play side
by side, each at its own tables; parents of one room (machines) share its claim."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
import redis

from stud.server.holder import PrefixBusy, RoomClaim, RoomName, room_name, room_seconds

from .conftest import REDIS, free_port, postgres_schema
from .test_workers import serve_workers

ROOM_A = RoomName("postgresql://db/a schema a", "postgresql://db/a (schema a)")
ROOM_B = RoomName("postgresql://db/b schema b", "postgresql://db/b (schema b)")


def redis_client() -> redis.Redis:
    return redis.Redis.from_url(REDIS, decode_responses=True)


def serve_refused(database: str, prefix: str) -> subprocess.CompletedProcess[str]:
    """``stud serve --workers 2`` that should stop at its start."""
    return subprocess.run(
        [sys.executable, "-c", "from stud.cli import app; app()", "serve", "--workers", "2",
         "--port", str(free_port()), "--database", database, "--redis", REDIS,
         "--redis-prefix", prefix, "--lease", "1"],
        capture_output=True, text=True, timeout=60)


def schema_of(database: str) -> str:
    return database.rsplit("%3D", 1)[1]


# ---------------------------------------------------------------------- the claim itself


def test_a_second_room_on_a_prefix_is_refused_naming_the_room_that_holds_it(prefix: str
                                                                            ) -> None:
    first = RoomClaim(REDIS, prefix, ROOM_A, "host:1:a", 5.0)
    second = RoomClaim(REDIS, prefix, ROOM_B, "host:2:b", 5.0)
    first.take()
    try:
        with pytest.raises(PrefixBusy) as refused:
            second.take()
        said = str(refused.value)
        assert f"--redis-prefix {prefix}:" in said
        assert "held by another room, the database postgresql://db/a (schema a);" in said
        assert "pass another --redis-prefix" in said
        assert "try again" not in said  # that room renews its claim: it is not stopped
    finally:
        first.let_go()
        second.let_go()


def test_parents_of_one_room_share_its_claim_and_the_last_one_out_frees_it(prefix: str
                                                                           ) -> None:
    """Two machines serving one database: both parents claim the prefix for that room; one
    stopping leaves it claimed for the other, and the last one's stop frees it at once."""
    here = RoomClaim(REDIS, prefix, ROOM_A, "one:1:a", 5.0)
    there = RoomClaim(REDIS, prefix, ROOM_A, "two:1:a", 5.0)
    other = RoomClaim(REDIS, prefix, ROOM_B, "one:2:b", 5.0)
    here.take()
    there.take()
    here.let_go()
    with pytest.raises(PrefixBusy):
        other.take()
    there.let_go()
    client = redis_client()
    try:
        assert not client.exists(f"{prefix}:room")
    finally:
        client.close()
    other.take()
    other.let_go()


def test_a_claim_left_by_a_killed_room_expires_by_itself(prefix: str) -> None:
    """A parent killed before it let go: its claim is not renewed, and ends within its life
    (the refusal meanwhile says when to try again); the same room may start again at once."""
    # A life of 3 s: two renewals (1.2 s) missed well before it ends, whatever the load.
    killed = RoomClaim(REDIS, prefix, ROOM_A, "host:1:a", 3.0)
    killed.take()  # and never renewed nor let go
    time.sleep(1.3)  # more than two renewals missed
    again = RoomClaim(REDIS, prefix, ROOM_A, "host:3:a", 3.0)
    again.take()  # the same database: its own room, restarted (its claim lives 3 s more)
    again._client.close()
    other = RoomClaim(REDIS, prefix, ROOM_B, "host:2:b", 3.0)
    time.sleep(1.3)
    with pytest.raises(PrefixBusy, match=r"has not renewed it for \d+ s: if it was stopped, "
                                         r"try again in [12] s\)"):
        other.take()
    time.sleep(1.8)  # past the claim's life
    other.take()
    other.let_go()
    killed._client.close()


def test_a_room_that_lost_its_claim_to_another_is_told_so(prefix: str) -> None:
    """Renewed on a thread; should another room take the prefix meanwhile (this one stalled
    past its claim's life), the room is told, to stop rather than meet the other's tables."""
    told: list[str] = []
    heard = threading.Event()

    def lost(message: str) -> None:
        told.append(message)
        heard.set()

    first = RoomClaim(REDIS, prefix, ROOM_A, "host:1:a", 1.0)
    first.take()
    first.keep(lost)
    time.sleep(1.5)  # renewed meanwhile: still refused to another room
    second = RoomClaim(REDIS, prefix, ROOM_B, "host:2:b", 1.0)
    with pytest.raises(PrefixBusy):
        second.take()
    client = redis_client()
    try:
        client.delete(f"{prefix}:room")  # as if it had expired while the first one stalled
    finally:
        client.close()
    second.take()
    try:
        assert heard.wait(3.0)
        assert "another room, the database postgresql://db/b (schema b);" in told[0]
    finally:
        first.let_go()
        second.let_go()


def test_a_room_is_its_databases_url_without_the_password_and_its_schema() -> None:
    with postgres_schema() as database:
        secret = database.replace("postgres@", "postgres:hunter2@")
        named, plain = room_name(secret), room_name(database)
        schema = schema_of(database)
        assert named.key == plain.key and named.key.endswith(f" schema {schema}")
        assert "hunter2" not in named.key + named.shown
        assert named.shown.endswith(f"(schema {schema})")
    assert room_seconds(5.0) == 15.0 and room_seconds(0.5) == 3.0


# ---------------------------------------------------------------------- stud serve --workers


def test_a_second_room_on_the_same_prefix_stops_in_one_line_and_the_first_plays_on(
        prefix: str, tmp_path: Path) -> None:
    with postgres_schema() as first_db, postgres_schema() as second_db:
        with serve_workers(first_db, prefix, tmp_path) as first:
            done = serve_refused(second_db, prefix)
            assert done.returncode == 2, done.stdout + done.stderr
            assert done.stderr.strip().count("\n") == 0, done.stderr
            assert done.stderr.startswith(f"error: --redis-prefix {prefix}: this prefix on "
                                          "Redis ")
            assert "is held by another room, the database " in done.stderr
            assert f"(schema {schema_of(first_db)}); each room needs its own" in done.stderr
            assert "pass another --redis-prefix" in done.stderr
            assert "serving" not in done.stdout
            assert httpx.get(f"{first.url}/api/health", timeout=10).status_code == 200
            client = redis_client()
            try:  # the first room's workers only, under its prefix
                workers = client.zrange(f"{prefix}:workers", 0, -1)
                assert {int(str(name).split(":")[-2]) for name in workers} <= set(first.pids)
            finally:
                client.close()
        client = redis_client()
        try:  # stopped cleanly: the prefix is free at once
            assert not client.exists(f"{prefix}:room")
        finally:
            client.close()
