"""The web table: a FastAPI app, its WebSocket protocol, the SQLAlchemy store, the web client."""
