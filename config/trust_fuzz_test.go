package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzUntrustedWorkspaceFileNeverWidens parses arbitrary text as a
// workspace's .agentls.yaml (anyone may have written it) and holds what
// trust promises: a file with an error diagnostic has no data (fail
// closed); a file without one resolves; and what applies before the user
// trusted it (SplitTrust's narrow layer) changes the configuration only
// on the narrowing keys, and only towards stricter values: plan mode on,
// approval required, review of edits, smaller limits.
func FuzzUntrustedWorkspaceFileNeverWidens(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.yaml"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("plan_mode:\n  default_active: false\n  require_approval: false\nrun:\n  timeout_secs: 0x10\n  allow: [\"rm -rf /\"]\nreview: off\n")
	f.Add("subagents: {max_parallel: 1e1, max_depth: 0, max_turns: 1.0}\nmax_turn_requests: !!int 7\n")
	f.Add("a: &x {review: edits}\n<<: *x\nrun: {max_output_bytes: 1_000}\n")
	f.Fuzz(func(t *testing.T, text string) {
		const path = "/w/.agentls.yaml"
		src, diags := ParseLayer(path, []byte(text))
		for _, d := range diags {
			if d.File != path {
				t.Fatalf("diagnostic %v names another file", d)
			}
		}
		if hasErrors(diags) {
			if src.Data != nil {
				t.Fatalf("a layer with errors kept data %v: %v", src.Data, diags)
			}
			return
		}
		base := Default()
		if _, err := Resolve(src); err != nil {
			t.Fatalf("a file without an error diagnostic does not resolve: %v\n%s", err, text)
		}
		narrow, _ := SplitTrust(src, base)
		cfg, err := Resolve(narrow)
		if err != nil {
			return // fails closed
		}
		before, after := flatJSON(t, base), flatJSON(t, cfg)
		for key, was := range before {
			now, ok := after[key]
			if !ok {
				t.Fatalf("untrusted file removed %s", key)
			}
			if now == was {
				continue
			}
			switch key {
			case "plan_mode.default_active", "plan_mode.require_approval":
				if now != "true" {
					t.Fatalf("untrusted file set %s to %s", key, now)
				}
			case "review":
				if now != `"edits"` {
					t.Fatalf("untrusted file set review to %s", now)
				}
			case "plan_mode.approval_timeout_secs", "run.timeout_secs", "run.max_output_bytes", "max_turn_requests",
				"subagents.max_parallel", "subagents.max_depth", "subagents.max_turns", "subagents.max_tokens":
				var a, b int
				if json.Unmarshal([]byte(was), &a) != nil || json.Unmarshal([]byte(now), &b) != nil || b > a || b < 0 {
					t.Fatalf("untrusted file set %s from %s to %s", key, was, now)
				}
			default:
				t.Fatalf("untrusted file changed %s from %s to %s\n%s", key, was, now, text)
			}
		}
		for key := range after {
			if _, ok := before[key]; !ok {
				t.Fatalf("untrusted file added %s", key)
			}
		}
	})
}

// flatJSON is v's JSON as dotted keys and JSON values (arrays whole).
func flatJSON(t *testing.T, v any) map[string]string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	var walk func(prefix string, m map[string]json.RawMessage)
	walk = func(prefix string, m map[string]json.RawMessage) {
		for k, raw := range m {
			var sub map[string]json.RawMessage
			if strings.HasPrefix(strings.TrimSpace(string(raw)), "{") && json.Unmarshal(raw, &sub) == nil {
				walk(prefix+k+".", sub)
				continue
			}
			out[prefix+k] = string(raw)
		}
	}
	walk("", m)
	return out
}
