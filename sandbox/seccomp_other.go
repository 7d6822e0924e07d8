//go:build !linux

package sandbox

import "errors"

// denySockets: only Linux has the filter (and Landlock).
func denySockets(bool, bool) error {
	return errors.New("no socket filter on this system")
}

// watchProcessCalls: only Linux has the filter (and Landlock).
func watchProcessCalls(int) error {
	return errors.New("no process filter on this system")
}

// denyKeyrings: only Linux has the filter (and keyrings).
func denyKeyrings() error {
	return errors.New("no keyring filter on this system")
}

// denyTruncation: only Linux has the filter (and Landlock).
func denyTruncation() error {
	return errors.New("no truncate filter on this system")
}

// denyXattrChanges: only Linux has the filter (and Landlock).
func denyXattrChanges() error {
	return errors.New("no xattr filter on this system")
}
