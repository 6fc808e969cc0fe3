"""Alembic's environment: the store passes its connection in ``config.attributes``."""

from __future__ import annotations

from alembic import context

from stud.server.schema import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
