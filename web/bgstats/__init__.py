"""BG Stats exports: their import's report, for the command and the admin's upload."""
