DROP INDEX IF EXISTS seats_name_key;
