"""One module per ``minebot`` subcommand."""
