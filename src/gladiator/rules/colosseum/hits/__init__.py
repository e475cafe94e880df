"""Hits and their consequences (§9.6-§13, §26): wounds, shields, criticals, items."""
