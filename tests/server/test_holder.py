"""One room per database (stud.server.holder): a second server on a database another one serves
stops at once; workers share theirs with each other, never with a one-process server."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from stud.server.holder import DatabaseBusy, hold_database

from .conftest import free_port, postgres_schema


def test_a_database_held_by_one_server_is_refused_to_another(database: str) -> None:
    release = hold_database(database)
    try:
        for shared in (False, True):
            with pytest.raises(DatabaseBusy, match="is using this database"):
                hold_database(database, shared)
    finally:
        release()
    hold_database(database)()  # let go: the next server may hold it


def test_workers_share_their_database_with_workers_but_not_with_a_lone_server() -> None:
    with postgres_schema() as url:
        first, second = hold_database(url, shared=True), hold_database(url, shared=True)
        try:
            with pytest.raises(DatabaseBusy, match="or stud serve --workers"):
                hold_database(url)
        finally:
            first()
            second()
        hold_database(url)()


def test_another_schema_of_the_same_database_is_another_room() -> None:
    with postgres_schema() as one, postgres_schema() as other:
        release = hold_database(one)
        try:
            hold_database(other)()
        finally:
            release()


def test_a_second_stud_serve_on_the_same_file_stops_in_one_line_and_the_first_plays_on(
        tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'stud.db'}"
    port = free_port()
    command = [sys.executable, "-c", "from stud.cli import main; main()", "serve",
               "--database", database]
    first = subprocess.Popen([*command, "--port", str(port)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert first.stdout is not None
        assert "serving" in first.stdout.readline()
        second = subprocess.run([*command, "--port", str(free_port())], capture_output=True,
                                text=True, timeout=60)
        assert second.returncode == 2
        assert second.stderr == (f"error: --database {database}: another stud serve is using "
                                 "this database; stop it first, or give this one another "
                                 "--database\n")
        assert "serving" not in second.stdout
        deadline = time.monotonic() + 20
        while True:  # the first one still answers
            try:
                assert httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=5).status_code \
                    == 200
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline
                time.sleep(0.2)
    finally:
        first.terminate()
        first.wait(timeout=30)


def test_a_search_path_naming_no_schema_is_said_not_taken_for_a_busy_database() -> None:
    with postgres_schema() as url:
        missing = url.rsplit("%3D", 1)[0] + "%3Dno_such_schema_here"
        with pytest.raises(ValueError, match="no schema named in its search_path exists"):
            hold_database(missing)


def test_an_sqlite_file_is_held_however_its_url_is_spelled(tmp_path: Path) -> None:
    release = hold_database(f"sqlite:///{tmp_path / 'one.db'}")
    try:
        with pytest.raises(DatabaseBusy):
            hold_database(f"sqlite+pysqlite:///{tmp_path / 'one.db'}?timeout=5")
    finally:
        release()
