package host

import (
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/config"
)

// TestProjectAgentsNeedTrust: the workspace's sub-agent kinds are used only
// while the current content of its .agentls.yaml is trusted (a changed file
// is untrusted again); the user's kinds folder is beside their config file.
func TestProjectAgentsNeedTrust(t *testing.T) {
	e := newEnv(t)
	if got, want := userAgentsDir(e.getenv), filepath.Join(filepath.Dir(e.userFile), "agents"); got != want {
		t.Errorf("userAgentsDir = %q, want %q", got, want)
	}
	opts := e.options(&models{})
	opts.TrustStore = config.NewTrustStore(e.stateDir)
	h, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if h.projectAgentsTrusted() {
		t.Error("trusted without a .agentls.yaml")
	}
	wsFile := filepath.Join(e.workspace, ".agentls.yaml")
	writeFile(t, wsFile, "model:\n  name: ws-model\n")
	_, trust := h.Reload()
	if h.projectAgentsTrusted() {
		t.Error("trusted before the user trusted the file")
	}
	if err := h.Trust(trust); err != nil {
		t.Fatal(err)
	}
	if !h.projectAgentsTrusted() {
		t.Error("not trusted after the user trusted the file")
	}
	writeFile(t, wsFile, "model:\n  name: other\n")
	if h.projectAgentsTrusted() {
		t.Error("still trusted after the file changed")
	}
}
