package config

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestAMergeKeyBombInAWorkspaceConfigFailsFast: a repository's
// .agentls.yaml is anyone's text, and it is parsed before any trust. The
// converter bounds alias expansion by counting values (maxNodes), and
// "<<" merges of empty mappings expand without a value to count: each
// level merges the previous one ten times, and ten levels (600 bytes) are
// 10^10 mapping walks (measured before the merge sources counted: 7
// levels 1.2 s, each level ten times the last). Loading the workspace's
// configuration must refuse such a file at once, as it refuses an alias
// bomb of values, with an error that names the file and a line.
func TestAMergeKeyBombInAWorkspaceConfigFailsFast(t *testing.T) {
	text := mergeLevels(10, 10)
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
		d := diags[0]
		if len(diags) != 1 || d.File != "/w/.agentls.yaml" || d.Line < 1 || d.Line > 11 || !strings.Contains(d.Message, "too large") {
			t.Fatalf("want one error naming the file, a line and the expansion, got %v", diags)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("ParseLayer is still expanding a %d-byte .agentls.yaml after 5 s:\n%s", len(text), text)
	}
}

// TestLocatingAKeyBehindSharedMergesSearchesEachMappingOnce: a document
// within the budget can still merge the same mappings through many
// aliases. Locating each of its schema errors searched every path through
// the merges again (measured: 3000 unknown keys behind 80 merges of a
// 3-level merge tree, 10.6 s); each mapping is now searched once per key,
// and the keys are still found where they are written.
func TestLocatingAKeyBehindSharedMergesSearchesEachMappingOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString(mergeLevels(3, 10))
	b.WriteString("s: &s {")
	for i := range 3000 {
		fmt.Fprintf(&b, "u%d: 1, ", i)
	}
	b.WriteString("}\nrun:\n  <<: [" + strings.Repeat("*a3, ", 80) + "*s]\n")
	text := b.String()
	done := make(chan []Diagnostic, 1)
	go func() {
		_, diags := ParseLayer("/w/.agentls.yaml", []byte(text))
		done <- diags
	}()
	select {
	case diags := <-done:
		var found bool
		for _, d := range diags {
			if strings.Contains(d.Message, `unknown key "run.u2999"`) {
				found = d.Line == 5 && d.Column > 1
			}
		}
		if !found {
			t.Fatalf("no error at the key run.u2999 where it is written (line 5): %d diagnostics, %v…", len(diags), diags[:min(len(diags), 8)])
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("locating the schema errors of a %d-byte .agentls.yaml still runs after 5 s", len(text))
	}
}

// mergeLevels writes "x0: &a0 {}" and levels more mappings, each merging
// the one before fanout times.
func mergeLevels(levels, fanout int) string {
	var b strings.Builder
	b.WriteString("x0: &a0 {}\n")
	for i := 1; i <= levels; i++ {
		refs := strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", i-1), fanout), ", ")
		fmt.Fprintf(&b, "x%d: &a%d {<<: [%s]}\n", i, i, refs)
	}
	return b.String()
}
