"""``python -m dummy_spades.cli``: the ``dummy-spades`` command."""
from dummy_spades.cli.app import main

main()
