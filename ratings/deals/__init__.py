"""Games played against deals (solitaire): each attempt rates its player against the deal it played.

`services` writes sessions, attempts and seeds; `selectors` reads them for pages; `engine` rates them
(private to the services); `calculator` works one player's attempts out by hand. The rating method
itself is `ratings.methods.deals`, beside the other methods.
"""
