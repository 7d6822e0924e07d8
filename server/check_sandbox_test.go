package server_test

import (
	"testing"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/sandbox"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestCheckModelReportsSandbox: agent/checkModel and the agentls.checkModel
// command carry the sandbox's status as this machine and the
// configuration give it.
func TestCheckModelReportsSandbox(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"auto", "off"} {
		t.Run(mode, func(t *testing.T) {
			h := lsptest.Start(t, lsptest.Setup{
				Script:   "name: x\nsteps:\n  - text: hi\n",
				InitOpts: map[string]any{"sandbox": map[string]any{"mode": mode}},
			})
			want := agent.WireSandboxStatus(sandbox.Detect().Status(sandbox.Mode(mode)))
			var viaMethod, viaCommand struct {
				Sandbox agentproto.SandboxStatus `json:"sandbox"`
			}
			if err := h.Editor.Call(h.Ctx, "agent/checkModel", map[string]any{}, &viaMethod); err != nil {
				t.Fatal(err)
			}
			if err := h.Editor.Call(h.Ctx, "workspace/executeCommand", map[string]any{"command": "agentls.checkModel", "arguments": []any{map[string]any{}}}, &viaCommand); err != nil {
				t.Fatal(err)
			}
			for _, got := range []agentproto.SandboxStatus{viaMethod.Sandbox, viaCommand.Sandbox} {
				if got != want || got.Summary == "" || got.Landlock == "" || got.Bwrap == "" {
					t.Errorf("sandbox = %+v, want %+v", got, want)
				}
			}
		})
	}
}
