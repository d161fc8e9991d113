"""``python -m dummy_spades.cli``: the ``dummy-spades`` command."""
from dummy_spades.cli.app import main

if __name__ == "__main__":  # not when a spawned worker process imports this module
    main()
