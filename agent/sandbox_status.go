package agent

import (
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/sandbox"
)

// SandboxStatus is the sandbox commands get under the current
// configuration on this machine (probed once: sandbox.Detect).
func (m *Manager) SandboxStatus() sandbox.Status {
	return sandbox.Detect().Status(sandbox.Mode(m.config().Sandbox.Mode))
}

// unconfinedRun is why no command may run without asking ("" when the
// sandbox confines commands): with no layer usable, or sandbox.mode off,
// allow rules do not apply and every command is asked.
func (m *Manager) unconfinedRun() string {
	if st := m.SandboxStatus(); !st.Confines() {
		return st.Summary
	}
	return ""
}

// WireSandboxStatus is st as agent/checkModel and agent/status send it.
func WireSandboxStatus(st sandbox.Status) agentproto.SandboxStatus {
	return agentproto.SandboxStatus{Mode: st.Mode, Landlock: st.Landlock, Bwrap: st.Bwrap, Network: st.Network, Summary: st.Summary}
}
