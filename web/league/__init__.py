"""The league's pages, as the URL namespace `league:` names them: home, standings (today, as at a day,
or compared between two), a game, a matchday and the text pages, with their own tables and a game's
score sheets."""
