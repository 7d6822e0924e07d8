package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/openai"
	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/agentproto"
)

// TestRun: the bench prints both modes and a line for every tool.
func TestRun(t *testing.T) {
	var out strings.Builder
	if err := run(&out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, re := range []string{`(?m)^build mode \(21 tools\) +\d+\.\d KB +\d+\.\d KB +29\.5 KB +≤ 12\.0 KB$`, `(?m)^plan mode \(12 tools\) +\d+\.\d KB +\d+\.\d KB +19\.4 KB +≤ 8\.0 KB$`} {
		if !regexp.MustCompile(re).MatchString(text) {
			t.Errorf("output lacks %s:\n%s", re, text)
		}
	}
	for _, tool := range tools.All() {
		if !regexp.MustCompile(`(?m)^` + tool.Spec().Name + ` +\d+ +(offered|not offered)$`).MatchString(text) {
			t.Errorf("output lacks a line for %s:\n%s", tool.Spec().Name, text)
		}
	}
}

// TestWithinTargets: the built-in tool definitions stay within 12 KB in
// build mode and 8 KB in plan mode (issue 9; the code and rename tools of
// the language intelligence fit in them).
func TestWithinTargets(t *testing.T) {
	reg, err := tools.NewRegistry(tools.All()...)
	if err != nil {
		t.Fatal(err)
	}
	for mode, limit := range targets {
		b, err := openai.ToolsJSON(reg.Offered(mode))
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > limit {
			t.Errorf("%s mode: the tool definitions take %d bytes, over the %d of the target: shorten descriptions", mode, len(b), limit)
		}
	}
	if _, ok := targets[agentproto.ModePlan]; !ok {
		t.Fatal("no plan-mode target")
	}
}
