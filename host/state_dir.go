package host

import "github.com/agentls/agentls/config"

// StateDir is agentls's state folder as this host's environment names it
// (config.StateDir); "" when none can be found.
func (h *Host) StateDir() string { return config.StateDir(h.opts.Getenv) }
