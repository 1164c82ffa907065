"""Reading a picture: the cell grid, the board finder, cell classification, skins, tune."""
