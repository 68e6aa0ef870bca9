"""What we know: the curated data files, their schema and the confidence rules."""
