//go:build !linux

package sandbox

import "errors"

// denyUnixSockets: only Linux has the filter (and Landlock).
func denyUnixSockets() error {
	return errors.New("no unix socket filter on this system")
}
