"""Live play: capture, mouse, windows, game programs, the play loop, restart, the game log."""
