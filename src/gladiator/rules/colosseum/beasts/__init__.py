"""The beasts (§28): their record and sheet, their movement and their combat rules."""
