package acp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

func TestInitializeAdvertisesLoadSessionAndContext(t *testing.T) {
	t.Parallel()
	r := newRig(t, setup{})
	res, err := r.conn.Initialize(r.ctx, sdk.InitializeRequest{ProtocolVersion: 1})
	if err != nil {
		t.Fatal(err)
	}
	c := res.AgentCapabilities
	if !c.LoadSession || !c.PromptCapabilities.EmbeddedContext || c.PromptCapabilities.Image {
		t.Errorf("capabilities: %+v", c)
	}
	if c.SessionCapabilities.List == nil || c.SessionCapabilities.Resume == nil || c.SessionCapabilities.Close == nil {
		t.Errorf("session capabilities: %+v", c.SessionCapabilities)
	}
	if res.AgentInfo == nil || res.AgentInfo.Name != "agentls" || res.AgentInfo.Version != "test" {
		t.Errorf("agentInfo: %+v", res.AgentInfo)
	}
}

func TestNewSessionOffersModesAndConfigOptions(t *testing.T) {
	t.Parallel()
	r := newRig(t, setup{userConfig: "model: {name: big-model, plan_name: small-model}\n"})
	res := r.newSession()
	if res.Modes == nil || res.Modes.CurrentModeId != "plan" {
		t.Fatalf("modes: %+v", res.Modes)
	}
	var ids []string
	for _, m := range res.Modes.AvailableModes {
		ids = append(ids, string(m.Id))
		if m.Name == "" || m.Description == nil || *m.Description == "" {
			t.Errorf("mode %s lacks a name or description", m.Id)
		}
	}
	if !slices.Equal(ids, []string{"plan", "build"}) {
		t.Errorf("modes %v", ids)
	}
	opts := map[string]*sdk.SessionConfigOptionSelect{}
	for _, o := range res.ConfigOptions {
		if o.Select == nil {
			t.Fatalf("config option is not a select: %+v", o)
		}
		opts[string(o.Select.Id)] = o.Select
	}
	if o := opts["mode"]; o == nil || o.CurrentValue != "plan" || o.Category == nil || *o.Category != sdk.SessionConfigOptionCategoryMode || len(*o.Options.Ungrouped) != 2 {
		t.Errorf("mode option: %+v", o)
	}
	if o := opts["model"]; o == nil || o.CurrentValue != "big-model" || len(*o.Options.Ungrouped) != 2 {
		t.Errorf("model option: %+v", o)
	}
	if o := opts["plan_model"]; o == nil || o.CurrentValue != "small-model" {
		t.Errorf("plan_model option: %+v", o)
	}
	// The session lives where the LSP face keeps its sessions.
	if _, err := os.Stat(filepath.Join(r.dir, ".agentls", "chats", string(res.SessionId)+".chat")); err != nil {
		t.Errorf("session file: %v", err)
	}
}

// The whole plan → refusal → approval → build flow through the ACP face.
func TestPlanRefusalApprovalAndBuild(t *testing.T) {
	t.Parallel()
	client := &testClient{permit: choose("allow_once")}
	r := planBuildRig(t, setup{client: client, caps: sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}}})
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "Uppercase alpha"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop reason %s", stop)
	}
	// Plan mode: the edit, the new file and the command were refused,
	// reported failed with the refusal sentence.
	const refusal = "System is in Plan Mode. You can only modify the plan. Switch to Build Mode to apply changes."
	for _, id := range []string{"c2", "c3", "c4"} {
		if st := client.finalStatus(id); st != sdk.ToolCallStatusFailed {
			t.Errorf("%s: status %q, want failed", id, st)
		}
		ups := client.toolUpdates(id)
		last := ups[len(ups)-1]
		if len(last.Content) == 0 || last.Content[len(last.Content)-1].Content == nil ||
			!strings.Contains(last.Content[len(last.Content)-1].Content.Content.Text.Text, refusal) {
			t.Errorf("%s: content %+v lacks the refusal sentence", id, last.Content)
		}
	}
	if _, err := os.Stat(filepath.Join(r.dir, "pwned")); err == nil {
		t.Error("the refused command ran")
	}
	if _, err := os.Stat(filepath.Join(r.dir, "new.go")); err == nil {
		t.Error("the refused write happened")
	}
	// The approval: the exit_plan_mode call (switch_mode) carries the plan's
	// text, and the permission request offers Keep Planning / Accept & Build.
	client.mu.Lock()
	perms := append([]sdk.RequestPermissionRequest(nil), client.permissions...)
	client.mu.Unlock()
	if len(perms) != 1 {
		t.Fatalf("%d permission requests, want 1", len(perms))
	}
	p := perms[0]
	if p.ToolCall.ToolCallId != "c6" || p.ToolCall.Kind == nil || *p.ToolCall.Kind != sdk.ToolKindSwitchMode {
		t.Errorf("approval tool call: %+v", p.ToolCall)
	}
	if len(p.ToolCall.Content) == 0 || !strings.Contains(p.ToolCall.Content[0].Content.Content.Text.Text, "Replace alpha with ALPHA") {
		t.Errorf("approval lacks the plan text: %+v", p.ToolCall.Content)
	}
	want := []string{"reject_once/reject_once/Keep Planning", "allow_once/allow_once/Accept & Build"}
	var got []string
	for _, o := range p.Options {
		got = append(got, string(o.OptionId)+"/"+string(o.Kind)+"/"+o.Name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("options %v, want %v", got, want)
	}
	// The mode flipped, and the client was told.
	var modesSeen []string
	client.mu.Lock()
	for _, u := range client.updates {
		if u.Update.CurrentModeUpdate != nil {
			modesSeen = append(modesSeen, string(u.Update.CurrentModeUpdate.CurrentModeId))
		}
	}
	client.mu.Unlock()
	if !slices.Equal(modesSeen, []string{"build"}) {
		t.Errorf("current_mode_update %v, want [build]", modesSeen)
	}
	// The builder's edit went through fs/write_text_file, with a diff.
	if got := r.read("app.txt"); got != "ALPHA\n" {
		t.Errorf("app.txt = %q", got)
	}
	var wrote []string
	client.mu.Lock()
	for _, w := range client.writes {
		wrote = append(wrote, w.Path)
	}
	client.mu.Unlock()
	if !slices.Contains(wrote, filepath.Join(r.dir, "app.txt")) {
		t.Errorf("fs/write_text_file calls: %v", wrote)
	}
	ups := client.toolUpdates("c7")
	var diff *sdk.ToolCallContentDiff
	for _, c := range ups[len(ups)-1].Content {
		if c.Diff != nil {
			diff = c.Diff
		}
	}
	if diff == nil || diff.OldText == nil || *diff.OldText != "alpha\n" || diff.NewText != "ALPHA\n" || diff.Path != filepath.Join(r.dir, "app.txt") {
		t.Errorf("c7 diff: %+v", diff)
	}
	// plan updates came from the plan's checkboxes.
	if !slices.Contains(client.kinds(), "plan") {
		t.Errorf("no plan update in %v", client.kinds())
	}
	b, _ := json.Marshal(r.wire.requests("fs/write_text_file"))
	if strings.Contains(string(b), "new.go") {
		t.Errorf("a refused file was sent to the client: %s", b)
	}
}
