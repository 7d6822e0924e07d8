//go:build unix

package guard

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

func TestFIFONamedPlanIsNoTarget(t *testing.T) {
	sb := newSandbox(t, setupDefault)
	if err := syscall.Mkfifo(filepath.Join(sb.ws, "plans", "pipe.plan"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	p, err := sb.w.Resolve("plans/pipe.plan")
	if err != nil {
		t.Fatal(err)
	}
	if sb.g.IsPlanTarget(p) {
		t.Fatal("a FIFO named .plan is a plan target")
	}
	checkOutcome(t, sb.g.CheckCall(stateOf(agentproto.ModePlan), "write", []byte(`{"path":"plans/pipe.plan"}`)), refPlan, "write", KindFileEdit)
}

func TestHardLinks(t *testing.T) {
	sb := newSandbox(t, setupDefault)
	for rel, want := range map[string]uint64{"plans/hard.plan": 2, "plans/existing.plan": 1, "plans/to-src.plan": 1} {
		if n, err := hardLinks(filepath.Join(sb.ws, rel)); err != nil || n != want {
			t.Errorf("hardLinks(%s) = %d, %v; want %d", rel, n, err, want)
		}
	}
	if _, err := hardLinks(filepath.Join(sb.ws, "missing")); err == nil {
		t.Error("hardLinks of a missing file: no error")
	}
}
