//go:build !race

package clustertest

const raced = false
