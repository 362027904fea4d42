-- The index on seats.player_id, whose column 20261201090001 (in Go) added.
CREATE INDEX IF NOT EXISTS seats_player_id ON seats (player_id);
