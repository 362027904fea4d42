// Package clustertest is the failover test of the real binary (make
// cluster-test): three `bullshit serve` processes on one PostgreSQL schema,
// each reaching the database through a TCP proxy of the test's, play bot
// tables and API players' tables while the test kills, pauses, restarts and
// cuts off nodes, and then checks the stored games: every acknowledged move
// stored once, no gap, epochs only going up, each log replaying to its
// stored result, every game finished, and each game's history of API moves
// linearizable (porcupine). It has no code outside its tests.
package clustertest
