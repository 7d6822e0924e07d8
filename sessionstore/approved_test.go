package sessionstore

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestApprovedPlanTextComesBackByteForByte: the approved text of a plan is
// what the builder's plan is compared with (by hash) after a restart. A
// plan in Latin-1 (no NUL byte, so the workspace reads it as text) must
// come back exactly, or the unchanged plan shows as "changed since
// approval" the next time agentls starts. Found by FuzzMetaRoundTrip.
func TestApprovedPlanTextComesBackByteForByte(t *testing.T) {
	s := NewStore(t.TempDir())
	if err := s.Create(Meta{ID: "s1", Mode: "build", PlanFile: "plans/caf\xe9.plan"}); err != nil {
		t.Fatal(err)
	}
	const text = "# Caf\xe9\n- [ ] r\xe9sum\xe9 the cache\n"
	if err := s.SaveApproved("s1", "plans/caf\xe9.plan", text); err != nil {
		t.Fatal(err)
	}
	plan, got, ok, err := s.Approved("s1")
	if err != nil || !ok {
		t.Fatalf("Approved: ok %v, err %v", ok, err)
	}
	if got != text || plan != "plans/caf\xe9.plan" {
		t.Fatalf("approved text saved as %q (plan %q), read back %q (plan %q)", text, "plans/caf\xe9.plan", got, plan)
	}
}

// TestApprovedFileOfUTF8TextIsAsBefore: the approved text of a UTF-8 plan
// is written as agentls always wrote it (plain JSON strings), and a file
// written so reads back as it was.
func TestApprovedFileOfUTF8TextIsAsBefore(t *testing.T) {
	dir := t.TempDir()
	s := NewStore(dir)
	if err := s.Create(Meta{ID: "s1", Mode: "build", PlanFile: "plans/café.plan"}); err != nil {
		t.Fatal(err)
	}
	const text = "# Café <&>\n- [ ] step\n"
	if err := s.SaveApproved("s1", "plans/café.plan", text); err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(struct {
		Plan string `json:"plan"`
		Text string `json:"text"`
	}{"plans/café.plan", text})
	if got, err := os.ReadFile(filepath.Join(dir, "s1"+approvedExt)); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("written %s (%v), want %s", got, err, want)
	}
	if err := os.WriteFile(filepath.Join(dir, "s2"+approvedExt), []byte(`{"plan":"plans/b.plan","text":"# B\n"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if plan, got, ok, err := s.Approved("s2"); err != nil || !ok || plan != "plans/b.plan" || got != "# B\n" {
		t.Fatalf("an earlier file read back as %q, %q (ok %v, err %v)", plan, got, ok, err)
	}
}
