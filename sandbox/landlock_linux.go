package sandbox

import (
	"fmt"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// restrictSelf applies s's Landlock rules to this process for good: the
// ABI agentls found (s.LandlockABI; V7 at most, and when unknown), best
// effort (the strongest the kernel offers up to that), file access and
// IPC scoping (signals, abstract unix sockets) handled, network not
// (bwrap's namespace isolates it: Landlock would stop loopback TCP and
// miss UDP and MPTCP).
func restrictSelf(s spec) error {
	cfg := landlockConfig(s.LandlockABI)
	cfg.HandledAccessNet = 0
	var rules []landlock.Rule
	for _, g := range s.grants() {
		var r landlock.FSRule
		switch g.kind {
		case readTree:
			r = landlock.RODirs(g.path)
		case readFile:
			r = landlock.ROFiles(g.path)
		case listTree:
			r = landlock.PathAccess(ll.AccessFSReadDir, g.path)
		case writeTree:
			r = landlock.RWDirs(g.path).WithRefer()
		case writeFile:
			r = landlock.RWFiles(g.path)
		case deviceFile:
			r = landlock.RWFiles(g.path).WithIoctlDev()
		}
		rules = append(rules, r.IgnoreIfMissing())
	}
	if s.Bwrap {
		// bwrap's fresh /dev (its own pseudo-terminals): all of it; under
		// Landlock alone, the host's: grants lists the devices.
		rules = append(rules, landlock.RWDirs("/dev").WithIoctlDev().IgnoreIfMissing())
	}
	if err := cfg.BestEffort().Restrict(rules...); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	return nil
}

// landlockConfigs are the Landlock versions the launcher applies.
var landlockConfigs = []landlock.Config{landlock.V1, landlock.V2, landlock.V3, landlock.V4, landlock.V5, landlock.V6, landlock.V7}

// landlockConfig is ABI abi's configuration: V7 for 0 (unknown) and above.
func landlockConfig(abi int) landlock.Config {
	if abi < 1 || abi > len(landlockConfigs) {
		return landlockConfigs[len(landlockConfigs)-1]
	}
	return landlockConfigs[abi-1]
}
