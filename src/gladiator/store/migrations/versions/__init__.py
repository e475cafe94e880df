"""The revisions, oldest first: 0001 the match tables, 0002 the campaign tables."""
