package guard

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// TestNetworkReach: a tool of network reach is refused in plan mode (any
// mode but build) unless plan_mode.allow_network_tools lists it by its exact
// name; build mode allows it; other reaches are unaffected.
func TestNetworkReach(t *testing.T) {
	sb := newSandbox(t, setupDefault)
	fetch := complete("web_fetch")
	fetch.Class, fetch.Kind, fetch.Paths, fetch.Reach = ClassReadOnly, KindReadOnly, NoPaths(), agentproto.ReachNetwork
	local := complete("lookup")
	local.Class, local.Kind, local.Paths, local.Reach = ClassReadOnly, KindReadOnly, NoPaths(), agentproto.ReachEditor
	ts, err := NewTools(fetch, local)
	if err != nil {
		t.Fatal(err)
	}
	g := New(sb.w, "plans", ts)
	args := json.RawMessage(`{"url":"https://example.com"}`)
	tests := []struct {
		name    string
		g       *Guard
		mode    agentproto.Mode
		tool    string
		refused bool
	}{
		{"plan mode refuses a network tool", g, agentproto.ModePlan, "web_fetch", true},
		{"an unknown mode is plan mode", g, "Build", "web_fetch", true},
		{"build mode allows it", g, agentproto.ModeBuild, "web_fetch", false},
		{"listed: allowed in plan mode", g.WithNetworkTools("web_fetch"), agentproto.ModePlan, "web_fetch", false},
		{"another name listed", g.WithNetworkTools("web_fetch2", "WEB_FETCH", "web_fetch "), agentproto.ModePlan, "web_fetch", true},
		{"other reaches unaffected", g, agentproto.ModePlan, "lookup", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.g.CheckCall(stateOf(tc.mode), tc.tool, args)
			if (r != nil) != tc.refused {
				t.Fatalf("CheckCall = %+v, refused want %v", r, tc.refused)
			}
			if r != nil && (r.Reason != ReasonPlanMode || !strings.Contains(r.Hint, "plan_mode.allow_network_tools")) {
				t.Fatalf("refusal = %+v, want a plan-mode refusal naming plan_mode.allow_network_tools", r)
			}
		})
	}
}

// TestNetworkRefusalSaysHowToAllow: the plan-mode refusal of a network tool
// gives the configuration line that allows it, and the tool's own remedy
// when it declares one (an MCP server's `network: false`).
func TestNetworkRefusalSaysHowToAllow(t *testing.T) {
	sb := newSandbox(t, setupDefault)
	plain := complete("web_fetch")
	plain.Class, plain.Kind, plain.Paths, plain.Reach = ClassReadOnly, KindReadOnly, NoPaths(), agentproto.ReachNetwork
	mcp := complete("mcp__gh__search")
	mcp.Class, mcp.Kind, mcp.Paths, mcp.Reach = ClassReadOnly, KindReadOnly, NoPaths(), agentproto.ReachNetwork
	mcp.NetworkRemedy = "or set `network: false` on server gh"
	ts, err := NewTools(plain, mcp)
	if err != nil {
		t.Fatal(err)
	}
	g := New(sb.w, "plans", ts)
	for tool, want := range map[string][]string{
		"web_fetch":       {"`plan_mode.allow_network_tools: [web_fetch]`"},
		"mcp__gh__search": {"`plan_mode.allow_network_tools: [mcp__gh__search]`", mcp.NetworkRemedy},
	} {
		r := g.CheckCall(stateOf(agentproto.ModePlan), tool, json.RawMessage(`{}`))
		if r == nil {
			t.Fatalf("%s ran in plan mode", tool)
		}
		for _, w := range want {
			if !strings.Contains(r.Hint, w) {
				t.Errorf("refusal of %s: hint %q does not say %s", tool, r.Hint, w)
			}
		}
	}
	if r := g.CheckCall(stateOf(agentproto.ModePlan), "web_fetch", json.RawMessage(`{}`)); strings.Contains(r.Hint, "network: false") {
		t.Errorf("a tool without a remedy of its own is offered one: %q", r.Hint)
	}
}
