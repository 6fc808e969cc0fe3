"""`stud audit`: the books of a web table's database, checked from the command line."""

from __future__ import annotations

import json

import pytest
import typer
from sqlalchemy import text, update
from typer.testing import CliRunner

from stud.cli import app
from stud.rules import PROFILES, Stakes, Variant
from stud.server.schema import accounts
from stud.server.store import HandPlayer, Store

from .conftest import postgres_schema

runner = CliRunner()


def test_audit_finds_the_books_balanced_with_a_hand_running(database: str) -> None:
    store = Store(database)
    ann, _ = store.create_account("Ann")
    table = store.create_table("t", Variant.STUD, Stakes.for_limit(2), PROFILES["standard"], 8,
                               30)
    store.sit(table.id, 1, ann.id, 300)
    bot = store.add_bot(table.id, 2, "station", 200)
    store.start_hand(table.id, 1, [HandPlayer(1, ann.id, 300), HandPlayer(2, bot.account_id, 200)])
    store.close()
    result = runner.invoke(app, ["audit", "--database", database, "--json"])
    assert result.exit_code == 0, result.output
    books = json.loads(result.output)
    assert books["ok"] and books["problems"] == []
    assert (books["granted"], books["wallets"], books["tables"], books["in_hands"]) == (
        10_200, 9_700, 0, 500)
    assert books["running_hands"] == 1
    text = runner.invoke(app, ["audit", "--database", database])
    assert "the books balance" in text.output


def test_audit_names_a_balance_that_differs_from_its_ledger_and_exits_1(database: str) -> None:
    store = Store(database)
    ann, _ = store.create_account("Ann")
    with store.engine.begin() as db:
        db.execute(update(accounts).where(accounts.c.id == ann.id).values(wallet=12_345))
    store.close()
    result = runner.invoke(app, ["audit", "--database", database])
    assert result.exit_code == 1
    assert f"account {ann.id}: wallet 12345, ledger 10000" in result.output


def test_audit_refuses_a_database_that_is_missing_or_holds_no_stud_tables(tmp_path) -> None:
    missing = runner.invoke(app, ["audit", "--database", f"sqlite:///{tmp_path / 'typo.db'}"])
    assert missing.exit_code == 2 and "no database" in missing.output
    assert not (tmp_path / "typo.db").exists()  # the audit created nothing
    (tmp_path / "empty.db").touch()
    empty = runner.invoke(app, ["audit", "--database", f"sqlite:///{tmp_path / 'empty.db'}"])
    assert empty.exit_code == 2 and "holds no stud tables" in empty.output
    assert (tmp_path / "empty.db").stat().st_size == 0  # only read: not even made a WAL file


def test_audit_only_reads_an_sqlite_file(tmp_path) -> None:
    path = tmp_path / "books.db"
    store = Store(f"sqlite:///{path}")
    store.create_account("Ann")
    store.close()
    before = path.read_bytes()
    assert runner.invoke(app, ["audit", "--database", str(path)]).exit_code == 0
    assert path.read_bytes() == before
    with pytest.raises(Exception, match="readonly"):  # its store refuses any write
        Store(f"sqlite:///{path}", upgrade=False, read_only=True).create_account("Bob")


def test_audit_of_a_server_that_does_not_answer_says_so_on_one_line_without_the_password() -> None:
    down = runner.invoke(app, ["audit", "--database", "postgresql://ann:hunter2@127.0.0.1:1/x"])
    assert down.exit_code == 2
    assert down.output.strip().count("\n") == 0
    assert "cannot read postgresql+psycopg://ann:***@127.0.0.1:1/x: connection failed" in \
        down.output
    assert "hunter2" not in down.output


def test_a_schema_newer_than_this_stud_is_refused_in_one_line_by_serve_and_audit(
        database: str) -> None:
    from stud.cli import open_store

    Store(database).close()
    with Store(database, upgrade=False).engine.begin() as db:
        db.execute(text("UPDATE alembic_version SET version_num = '0999'"))
    audit = runner.invoke(app, ["audit", "--database", database])
    assert audit.exit_code == 2 and audit.output.strip().count("\n") == 0
    assert "is at schema 0999, which this stud does not know" in audit.output
    assert "stud serve" not in audit.output  # serve cannot downgrade it
    with pytest.raises(typer.Exit) as stopped:
        open_store(database, upgrade=True)
    assert stopped.value.exit_code == 2
    with Store(database, upgrade=False).engine.connect() as db:  # left as it was
        assert db.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0999"


def test_audit_names_a_search_path_that_names_no_schema() -> None:
    with postgres_schema() as url:
        missing = url.rsplit("%3D", 1)[0] + "%3Dno_such_schema_here"
        result = runner.invoke(app, ["audit", "--database", missing])
    assert result.exit_code == 2
    assert "no schema named in its search_path exists" in result.output


def test_a_port_that_is_not_a_number_is_named() -> None:
    result = runner.invoke(app, ["audit", "--database", "postgresql://postgres@127.0.0.1:xx/test"])
    assert result.exit_code == 2
    assert "the port 'xx' is not a number" in result.output
    assert "invalid literal" not in result.output
