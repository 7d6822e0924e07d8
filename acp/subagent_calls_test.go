package acp

import "testing"

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
