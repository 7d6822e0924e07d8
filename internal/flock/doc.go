// Package flock takes advisory file locks (flock(2)) without waiting: the
// caller decides whether to wait, how long, and what to do meanwhile.
// Where flock is not available every lock is granted.
package flock
