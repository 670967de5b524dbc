"""Tonight's odds (`/odds/`): who is favoured at tonight's tables and what each place would do to each
player's rating, and tables of even strength. The maths is ratings/odds; here, the form and the page."""
