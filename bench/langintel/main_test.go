package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/realservers"
	"github.com/agentls/agentls/internal/testcache"
	"github.com/agentls/agentls/sandbox"
)

func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(testcache.Run(m)) // the language servers' caches go to a temporary folder
}

// TestRun: the bench measures the start, the edits and the memory.
func TestRun(t *testing.T) {
	var out strings.Builder
	if err := run(&out, realservers.Gopls(t), 2); err != nil {
		t.Fatal(err)
	}
	for _, re := range []string{`(?m)^cold start to first settled diagnostics +\S+$`, `(?m)^added time per edit \(median, p90, max\) +\S+ +\S+ +\S+ +\(2 edits`, `(?m)^pool resident memory \(gopls, 1 module\) +[1-9][0-9.]* MB$`} {
		if !regexp.MustCompile(re).MatchString(out.String()) {
			t.Errorf("output lacks %s:\n%s", re, out.String())
		}
	}
}
