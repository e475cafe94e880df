"""Test configuration: under CI the property tests run a fixed, reproducible set of examples
(a failure found there is then the same on every machine); locally they explore afresh."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
