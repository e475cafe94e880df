"""The log sheet (§3): its boxes, how it is rolled, marked, read and drawn."""
