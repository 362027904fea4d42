DROP INDEX IF EXISTS seats_player_id;
