DROP TABLE IF EXISTS results;
--bun:split
DROP TABLE IF EXISTS actions;
--bun:split
DROP TABLE IF EXISTS seats;
--bun:split
DROP TABLE IF EXISTS games;
