"""Browser tests of the web arena (run apart: `pytest -m browser`)."""
