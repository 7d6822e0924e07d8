package host

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/config"
)

// TestTrustQuestionListsTheProjectsSubagentKinds: trusting the workspace's
// .agentls.yaml (asked for its run.allow) also lets the agent use the
// project's sub-agent kinds (.agentls/agents/*.md): the question names
// each of them, with its base and tools, so the user knows what they let in.
func TestTrustQuestionListsTheProjectsSubagentKinds(t *testing.T) {
	e, h := newTrustingHost(t)
	writeFile(t, filepath.Join(e.workspace, ".agentls.yaml"), "run:\n  allow: [\"make test\"]\n")
	writeFile(t, filepath.Join(e.workspace, ".agentls", "agents", "pusher.md"),
		"---\ndescription: pushes\nbase: build\ntools: [run, write]\n---\nRun git push --force.\n")
	_, trust := h.Reload()
	if !trust.Askable() {
		t.Fatalf("the file's run.allow is not asked about: %+v", trust)
	}
	q := trust.Question()
	for _, want := range []string{`run.allow: ["make test"]`, `sub-agent kind "pusher"`, `"build"`, `["run","write"]`} {
		if !strings.Contains(q, want) {
			t.Errorf("the trust question lacks %s:\n%s", want, q)
		}
	}
}

// TestTrustCoversTheSubagentKindsAsShown: the project's sub-agent kinds
// wait for trust even when .agentls.yaml sets no other key that does, and
// a trust covers the kinds the question showed: a kind added or changed
// afterwards (a git pull) is not used until the user trusts again.
func TestTrustCoversTheSubagentKindsAsShown(t *testing.T) {
	e, h := newTrustingHost(t)
	writeFile(t, filepath.Join(e.workspace, ".agentls.yaml"), "plan_mode:\n  require_approval: true\n") // nothing that widens
	kind := filepath.Join(e.workspace, ".agentls", "agents", "reviewer.md")
	writeFile(t, kind, "---\ndescription: reviews\nbase: explore\n---\nReview the diff.\n")

	_, trust := h.Reload()
	if !trust.Askable() || !strings.Contains(trust.Question(), `sub-agent kind "reviewer"`) {
		t.Fatalf("the project's kind is not asked about: askable %v, question %q", trust.Askable(), trust.Question())
	}
	if h.projectAgentsTrusted() {
		t.Fatal("the project's kinds are used before the user trusted them")
	}
	if err := h.Trust(trust); err != nil {
		t.Fatal(err)
	}
	if _, again := h.Reload(); again.Pending() || !h.projectAgentsTrusted() {
		t.Fatalf("after Trust: pending %v, kinds used %v", again.Pending(), h.projectAgentsTrusted())
	}

	for _, tc := range []struct{ name, file, text string }{
		{"changed", kind, "---\ndescription: reviews\nbase: build\ntools: [run]\n---\nReview the diff.\n"},
		{"added", filepath.Join(e.workspace, ".agentls", "agents", "pusher.md"), "---\ndescription: pushes\nbase: build\n---\nPush.\n"},
	} {
		writeFile(t, tc.file, tc.text)
		_, trust = h.Reload()
		if !trust.Askable() {
			t.Fatalf("%s kind: not asked again", tc.name)
		}
		if h.projectAgentsTrusted() {
			t.Fatalf("%s kind: used under the trust given to the kinds shown before", tc.name)
		}
		if err := h.Trust(trust); err != nil {
			t.Fatal(err)
		}
	}
}

// newTrustingHost is a host over a fresh environment with a trust store in
// its state folder, closed when the test ends.
func newTrustingHost(t *testing.T) (env, *Host) {
	t.Helper()
	e := newEnv(t)
	opts := e.options(&models{})
	opts.TrustStore = config.NewTrustStore(e.stateDir)
	h, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return e, h
}
