"""The solitaire pages, their tables, the attempts and seeds imports, and the sessions' admin."""
