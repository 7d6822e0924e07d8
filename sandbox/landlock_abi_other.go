//go:build !linux

package sandbox

// landlockABI: Landlock is Linux's.
func landlockABI() (int, string) { return 0, "Linux only" }
