"""Hand histories: PHH read, write and replay."""
