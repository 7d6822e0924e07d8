package sessionstore

import "testing"

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
