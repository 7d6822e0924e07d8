//go:build !linux

package main

// keepAfterParent: only Linux has a parent-death signal.
func keepAfterParent() {}
