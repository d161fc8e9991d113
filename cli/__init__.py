"""The dummy-spades command line (Typer). Thin: parse, call solver/, render."""
