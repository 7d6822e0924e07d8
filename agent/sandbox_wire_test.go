package agent

import (
	"reflect"
	"slices"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/sandbox"
)

// TestWireSandboxStatusKeepsEveryField: every exported field of
// sandbox.Status reaches the wire (a field added to one and not the other
// fails here), with its value.
func TestWireSandboxStatusKeepsEveryField(t *testing.T) {
	exported := func(v any) (names []string) {
		for f := range reflect.TypeOf(v).Fields() {
			if f.IsExported() {
				names = append(names, f.Name)
			}
		}
		return names
	}
	if a, b := exported(sandbox.Status{}), exported(agentproto.SandboxStatus{}); !slices.Equal(a, b) {
		t.Fatalf("sandbox.Status %v, agentproto.SandboxStatus %v", a, b)
	}
	st := sandbox.Probe{LandlockABI: 7, BwrapPath: "/usr/bin/bwrap"}.Status(sandbox.ModeAuto)
	w := WireSandboxStatus(st)
	if w.Mode != st.Mode || w.Landlock != st.Landlock || w.Bwrap != st.Bwrap || w.Network != st.Network || w.Summary != st.Summary || w.Mode == "" {
		t.Fatalf("%+v → %+v", st, w)
	}
}
