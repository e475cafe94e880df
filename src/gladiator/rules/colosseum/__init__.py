"""The Colosseum Edition of GLADIATOR: tables as data (see tables.py); the engine is to come."""
