-- Finished games are searched by a player's name, matched without regard
-- to case: the index holds the folded name, with the game beside it so the
-- search reads the index alone.
CREATE INDEX IF NOT EXISTS seats_name_key ON seats (lower(name), game_id);
