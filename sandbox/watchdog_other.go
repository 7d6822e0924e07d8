//go:build !unix

package sandbox

import "os/exec"

// WatchedCommand is Command: there are no process groups here, so no
// watchdog.
func WatchedCommand(pol Policy, launcher string, argv, environ []string) (*exec.Cmd, *Prepared, error) {
	return Command(pol, launcher, argv, environ)
}
