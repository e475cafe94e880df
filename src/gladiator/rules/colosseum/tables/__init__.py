"""The rulebook's tables as data (data/*.toml) and their typed loaders."""
