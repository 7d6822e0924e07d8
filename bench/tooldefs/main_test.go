package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/tools"
)

// TestRun: the bench prints both modes and a line for every tool.
func TestRun(t *testing.T) {
	var out strings.Builder
	if err := run(&out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, re := range []string{`(?m)^build mode \(19 tools\) +\d+\.\d KB +\d+\.\d KB +29\.5 KB +≤ 12\.0 KB$`, `(?m)^plan mode \(11 tools\) +\d+\.\d KB +\d+\.\d KB +19\.4 KB +≤ 8\.0 KB$`} {
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
