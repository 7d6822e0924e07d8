//go:build race

package main

// raceEnabled: the race detector keeps shadow memory of its own, so resident
// sizes say nothing about the program's buffers.
const raceEnabled = true
