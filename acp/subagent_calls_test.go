package acp

import "testing"

func TestAskedBy(t *testing.T) {
	for _, c := range []struct{ requester, want string }{
		{"run (sub-agent build-1 1a2b3c4d)", "Asked by sub-agent build-1 1a2b3c4d."},
		{"edit (sub-agent build-1/build-1 0000abcd)", "Asked by sub-agent build-1/build-1 0000abcd."},
		{"run", ""},
		{"agentls", ""},
		{"exit_plan_mode", ""},
		{"run (sub-agent build-1 1a2b3c4d", ""}, // not closed: not ours
		{"", ""},
	} {
		if got := askedBy(c.requester); got != c.want {
			t.Errorf("askedBy(%q) = %q, want %q", c.requester, got, c.want)
		}
	}
}

func TestSubagentCallsKeepMetaUntilTheCallEnds(t *testing.T) {
	var c subagentCalls
	c.note("s", "own", nil)
	c.note("s", "1a2b3c4d/r", subagentMeta("t1", "child"))
	if c.of("s", "own") != nil {
		t.Error("the session's own call has a _meta")
	}
	if m := c.of("s", "1a2b3c4d/r"); m["agentls/parentToolCallId"] != "t1" || m["agentls/childSessionId"] != "child" {
		t.Errorf("meta = %v", m)
	}
	if c.of("other", "1a2b3c4d/r") != nil {
		t.Error("another session sees the call")
	}
	c.forget("s", "1a2b3c4d/r")
	if c.of("s", "1a2b3c4d/r") != nil {
		t.Error("an ended call keeps its _meta")
	}
}
