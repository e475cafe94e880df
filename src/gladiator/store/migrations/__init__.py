"""The store's Alembic migrations, run by `gladiator.store.schema.prepare_schema` (no alembic.ini).

Each revision is numbered 0001, 0002, ... and writes its number into `meta` as the schema
version. A new one: copy the newest revision, raise its number and `SCHEMA_VERSION`
(store/models.py), and check it with tests/test_store_migrations.py (the migrated schema must equal
the models).
"""
