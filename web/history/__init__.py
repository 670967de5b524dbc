"""The secretaries' history of their club's writes (`/<club>/history/`)."""
