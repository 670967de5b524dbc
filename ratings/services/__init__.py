"""The one way to change anything that ratings depend on: a function per operation, in a module per
thing written: `matchdays`, `imports` (a file of matchdays), `catalogue` (games and categories),
`rating_tables`, `recompute`, `players` (two players merged) and `revert` (a write of the history
undone); `impact` runs any of them and rolls it back, to show what it would change.

Each function validates, writes, recomputes the rating tables it touched from the earliest matchday
it touched, and moves the league's revision on, all in one transaction: if anything fails, nothing
of the edit is kept. The admin, the import and the management commands call only these; the engine
(`ratings.engine`) is theirs alone. Refusals are Django `ValidationError`s whose messages are written
for the club's secretary.
"""
