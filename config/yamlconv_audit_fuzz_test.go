package config

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestAMergeKeyBombInAWorkspaceConfigFailsFast: a repository's
// .agentls.yaml is anyone's text. The converter bounds alias expansion
// by counting values (maxNodes), but "<<" merges of empty mappings expand
// without a value to count: each level merges the previous one ten
// times, and ten levels (600 bytes) are 10^10 mapping walks. Loading the
// workspace's configuration must refuse such a file at once, as it
// refuses an alias bomb of values. Found while writing
// FuzzUntrustedWorkspaceFileNeverWidens (measured: 7 levels 1.2 s, each
// level ten times the last).
func TestAMergeKeyBombInAWorkspaceConfigFailsFast(t *testing.T) {
	var b strings.Builder
	b.WriteString("x0: &a0 {}\n")
	for i := 1; i <= 10; i++ {
		refs := strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 10), ", ")
		fmt.Fprintf(&b, "x%d: &a%d {<<: [%s]}\n", i, i, refs)
	}
	text := b.String()
	done := make(chan []Diagnostic, 1)
	go func() {
		_, diags := ParseLayer("/w/.agentls.yaml", []byte(text))
		done <- diags
	}()
	select {
	case diags := <-done:
		if !hasErrors(diags) {
			t.Fatalf("the bomb loaded without an error: %v", diags)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("ParseLayer is still expanding a %d-byte .agentls.yaml after 5 s:\n%s", len(text), text)
	}
}
