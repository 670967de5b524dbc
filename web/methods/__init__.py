"""The rating methods' pages (`ratings:`): the methods page, the one-game calculator (HTML and
JSON) and the comparison of methods on a table's history."""
