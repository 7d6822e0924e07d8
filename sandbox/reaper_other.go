//go:build !linux

package sandbox

import "errors"

// reaperOn: only Linux has a child subreaper; elsewhere the launcher execs
// the command in its own place.
const reaperOn = false

// reap: Prepare never asks for the reaper off Linux.
func reap([]string) error {
	return errors.New("the command's reaper runs on Linux only")
}
