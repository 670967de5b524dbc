"""The solitaire pages and what the league's pages show of them (`sections`), their tables, the
attempts and seeds imports, and the sessions' admin."""
