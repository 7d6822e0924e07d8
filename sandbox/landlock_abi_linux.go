package sandbox

import (
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// landlockABI is the kernel's Landlock ABI version, or why there is none.
func landlockABI() (int, string) {
	v, err := llsys.LandlockGetABIVersion()
	if err != nil {
		return 0, "the kernel has no Landlock (" + err.Error() + ")"
	}
	return v, ""
}
