"""dummy-spades: a double-dummy solver and hand analyser for three-player Dummy Hand Spades."""
__version__ = "0.1.0"
