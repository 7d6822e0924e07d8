package agent

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/checkpoint"
)

// rewindScript: turn 1 (plan mode) writes a plan; turn 2 (build, after the
// user's switch) edits app.txt and ticks the plan's only step (the plan
// becomes implemented); turn 3 answers.
const rewindScript = `
name: rewind
steps:
  - tool_calls:
      - {id: p1, name: plan_write, args: {title: T, path: plans/t.plan, content: "# Goal\nx\n\n## Steps\n- [ ] Change app\n"}}
  - text: planned
  - tool_calls:
      - {id: e1, name: edit, args: {path: app.txt, old_string: alpha, new_string: beta}}
  - tool_calls:
      - {id: e2, name: plan_edit, args: {path: plans/t.plan, old_string: "- [ ] Change app", new_string: "- [x] Change app"}}
  - text: built
  - text: answered
`

// userIDs are the ids of the session's user messages, in order.
func userIDs(s *Session) []string {
	var out []string
	for _, m := range s.Messages() {
		if m.Role == llm.RoleUser {
			out = append(out, m.ID)
		}
	}
	return out
}

func planStatusOf(t *testing.T, m *Manager) string {
	t.Helper()
	text, err := m.readPlanText("plans/t.plan")
	if err != nil {
		return "(none)"
	}
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(line, "status: "); ok {
			return v
		}
	}
	return "(no status)"
}

// TestRewindConversationAndCode: a conversation rewind leaves the history
// on disk whole but ends the model's view before the message, and returns
// mode, attached plan and plan status to their state there; a code rewind
// restores the files (the plan's checkboxes too) and tells the model.
func TestRewindConversationAndCode(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ed := &memEditor{}
	m, _ := newTestManager(t, rewindScript, ed, nil)
	root := m.ws.Root()
	if err := os.WriteFile(filepath.Join(root, "app.txt"), []byte("alpha\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newTestSession(t, m, "plan")
	if res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "turn one"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("turn one: %+v %v", res, err)
	}
	if _, err := m.SetMode(ctx, s.ID(), "build"); err != nil {
		t.Fatal(err)
	}
	if res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "turn two"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("turn two: %+v %v", res, err)
	}
	if got := planStatusOf(t, m); got != "implemented" {
		t.Fatalf("plan status after the build = %s", got)
	}
	ids := userIDs(s)
	all := len(s.Messages())
	// The step tick's checkpoint: named by the message asking for the
	// tick, before it (app.txt edited, the step not ticked yet).
	var tick string
	for _, msg := range s.Messages() {
		for _, c := range msg.ToolCalls {
			if c.ID == "e2" {
				tick = msg.ID
			}
		}
	}
	man, err := m.checkpoints.Load(s.ID(), tick)
	if err != nil {
		t.Fatalf("no checkpoint at the step tick: %v", err)
	}
	if man["app.txt"].SHA256 != checkpointDigest("beta\n") {
		t.Fatal("the step tick's checkpoint does not have the step's edit")
	}
	if plan, _ := m.checkpoints.Object(man["plans/t.plan"].SHA256); !strings.Contains(string(plan), "- [ ] Change app") {
		t.Fatalf("the step tick's checkpoint has the plan ticked:\n%s", plan)
	}

	// Conversation only, to turn two: the view ends before it; build mode
	// and the plan's approved status as they were when turn two began.
	res, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: ids[1], What: agentproto.RewindConversation})
	if err != nil {
		t.Fatal(err)
	}
	if res.UndoMessageID != "" || len(res.Restored) != 0 {
		t.Fatalf("a conversation rewind restored files: %+v", res)
	}
	if len(s.Messages()) != all {
		t.Fatalf("the history lost messages: %d, want %d", len(s.Messages()), all)
	}
	// agent/loadSession returns them all, turn two's marked rewound (an editor shows the conversation as the model sees it).
	_, loaded, err := m.LoadSession(ctx, s.ID())
	if err != nil {
		t.Fatal(err)
	}
	at := slices.IndexFunc(loaded, func(msg llm.Message) bool { return msg.ID == ids[1] })
	if at < 1 || len(loaded) != all {
		t.Fatalf("turn two at %d of %d loaded messages (want %d)", at, len(loaded), all)
	}
	for i, msg := range loaded {
		if msg.Rewound != (i >= at) {
			t.Errorf("message %d (%s %q) rewound = %v, want %v", i, msg.Role, msg.Content, msg.Rewound, i >= at)
		}
	}
	view := s.modelRequest().Messages
	if last := view[len(view)-1]; last.Content != "planned" {
		t.Fatalf("the model's view ends with %+v, want the answer of turn one", last)
	}
	for _, msg := range view {
		if strings.Contains(msg.Content, "turn two") {
			t.Fatal("the model still sees turn two")
		}
	}
	if got := planStatusOf(t, m); got != "approved" {
		t.Fatalf("plan status after the conversation rewind = %s, want approved", got)
	}
	if s.State().Mode != agentproto.ModeBuild {
		t.Fatalf("mode = %s, want build", s.State().Mode)
	}
	if got := readWS(t, m, "app.txt"); got != "beta\n" {
		t.Fatalf("a conversation rewind changed app.txt: %q", got)
	}

	// Code only, to turn two: app.txt and the plan's checkbox go back, and
	// the model is told.
	res, err = m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: ids[1], What: agentproto.RewindCode})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(res.Restored, " ") != "app.txt plans/t.plan" || len(res.Conflicts) != 0 {
		t.Fatalf("code rewind = %+v", res)
	}
	if got := readWS(t, m, "app.txt"); got != "alpha\n" {
		t.Fatalf("app.txt = %q", got)
	}
	if plan := readWS(t, m, "plans/t.plan"); !strings.Contains(plan, "- [ ] Change app") || !strings.Contains(plan, "status: approved") {
		t.Fatalf("plan after the code rewind:\n%s", plan)
	}
	if sys := s.modelRequest().System; !strings.Contains(sys, "# Rewind") || !strings.Contains(sys, "app.txt, plans/t.plan") {
		t.Fatalf("the model is not told of the code rewind:\n%s", sys)
	}

	// Both, to turn one: across the approval the session is back in plan
	// mode, with no plan attached and no plan file (written in turn one).
	if _, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: ids[0], What: agentproto.RewindBoth}); err != nil {
		t.Fatal(err)
	}
	if info := s.Info(); info.Mode != agentproto.ModePlan || info.PlanFile != nil {
		t.Fatalf("after rewinding to turn one: %+v", info)
	}
	if _, err := os.Stat(filepath.Join(root, "plans", "t.plan")); !os.IsNotExist(err) {
		t.Fatalf("the plan written in turn one is still there: %v", err)
	}
	if view := s.modelRequest().Messages; len(view) != 0 {
		t.Fatalf("the model's view after rewinding to the first message: %+v", view)
	}

	// A reloaded session keeps the rewinds (the records in the .chat).
	msgs, v := loadView(t, m, s.ID())
	if got, _, _ := v.view(msgs); len(got) != 0 {
		t.Fatalf("reloaded view: %+v", got)
	}
	// The next turn goes on from there.
	if res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "turn three"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("turn three: %+v %v", res, err)
	}
	if view := s.modelRequest().Messages; len(view) != 2 || view[0].Content != "turn three" {
		t.Fatalf("view after turn three: %+v", view)
	}
}

func readWS(t *testing.T, m *Manager, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(m.ws.Root(), filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// loadView decodes the session file as a restart would.
func loadView(t *testing.T, m *Manager, id string) ([]llm.Message, viewState) {
	t.Helper()
	_, lines, err := m.store.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	return decodeHistory(id, lines)
}

// TestRewindRefusals: what a rewind refuses, with a message a person can
// act on, changing nothing.
func TestRewindRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ed := &memEditor{}
	m, _ := newTestManager(t, "name: x\nsteps:\n  - text: hi\n", ed, nil)
	s := newTestSession(t, m, "build")
	if _, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	msgs := s.Messages()
	user, answer := msgs[0].ID, msgs[1].ID
	tests := []struct {
		name string
		req  agentproto.RewindParams
		want string
	}{
		{"unknown what", agentproto.RewindParams{SessionID: s.ID(), ToMessageID: user, What: "files"}, `what must be "code", "conversation" or "both"`},
		{"no message", agentproto.RewindParams{SessionID: s.ID(), What: agentproto.RewindCode}, "toMessageId is required"},
		{"unknown session", agentproto.RewindParams{SessionID: "nope", ToMessageID: user, What: agentproto.RewindCode}, `unknown session "nope"`},
		{"unknown message", agentproto.RewindParams{SessionID: s.ID(), ToMessageID: "0190f3a2-7c1e-7d4b-9a1f-2b3c4d5e6f70", What: agentproto.RewindBoth}, "is not in session"},
		{"no checkpoint", agentproto.RewindParams{SessionID: s.ID(), ToMessageID: answer, What: agentproto.RewindCode}, "has no checkpoint for message"},
		{"a path as id", agentproto.RewindParams{SessionID: s.ID(), ToMessageID: "../../chats/x", What: agentproto.RewindCode}, "has no checkpoint for message"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := m.Rewind(ctx, tc.req)
			var inv *InvalidParamsError
			if !errors.As(err, &inv) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want invalid params containing %q", err, tc.want)
			}
		})
	}
	// A running turn: cancel it first.
	_, release, err := s.begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: user, What: agentproto.RewindBoth})
	release()
	if !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), "cancel it") {
		t.Fatalf("rewind during a turn: %v", err)
	}
	if len(s.Messages()) != len(msgs) {
		t.Fatal("a refused rewind changed the history")
	}
}

// TestMessageIDs: every persisted message has an id, the chunks streamed
// carry the assistant message's, and messages of an older session file get
// derived ids, the same on every load.
func TestMessageIDs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ed := &memEditor{}
	m, _ := newTestManager(t, "name: x\nsteps:\n  - text: hi there\n", ed, nil)
	s := newTestSession(t, m, "build")
	if _, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	msgs := s.Messages()
	if len(msgs) != 2 || msgs[0].ID == "" || msgs[1].ID == "" || msgs[0].ID == msgs[1].ID {
		t.Fatalf("messages = %+v", msgs)
	}
	ed.mu.Lock()
	var chunkIDs []string
	for _, u := range ed.updates {
		if c, ok := u.(agentproto.MessageChunk); ok {
			chunkIDs = append(chunkIDs, c.MessageID)
		}
	}
	ed.mu.Unlock()
	if len(chunkIDs) == 0 || chunkIDs[0] != msgs[1].ID {
		t.Fatalf("chunk ids %v, want the answer's %s", chunkIDs, msgs[1].ID)
	}
	reloaded, _ := loadView(t, m, s.ID())
	if reloaded[0].ID != msgs[0].ID || reloaded[1].ID != msgs[1].ID {
		t.Fatal("ids changed on load")
	}

	old := [][]byte{[]byte(`{"role":"user","content":"a"}`), []byte(`{"record":"repair"}`), []byte(`{"role":"assistant","content":"b"}`)}
	var lines []json.RawMessage
	for _, l := range old {
		lines = append(lines, l)
	}
	first, _ := decodeHistory("s1", lines)
	again, _ := decodeHistory("s1", lines)
	other, _ := decodeHistory("s2", lines)
	if first[0].ID == "" || first[0].ID == first[1].ID || first[0].ID != again[0].ID || first[1].ID != again[1].ID || first[0].ID == other[0].ID {
		t.Fatalf("derived ids: %s %s / %s %s / %s", first[0].ID, first[1].ID, again[0].ID, again[1].ID, other[0].ID)
	}
}

// TestRewindTamperedCheckpoint: a checkpoint whose manifest (and record
// of known files) was edited to name paths outside the workspace or
// protected ones restores none of them (bypass rows); the rest is restored.
func TestRewindTamperedCheckpoint(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ed := &memEditor{}
	m, _ := newTestManager(t, "name: x\nsteps:\n  - text: hi\n  - text: again\n", ed, nil)
	root := m.ws.Root()
	outside := filepath.Join(t.TempDir(), "outside.txt")
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newTestSession(t, m, "plan") // a rewind is allowed in any mode
	if _, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	to := s.Messages()[0].ID
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	store := m.checkpoints
	man, err := store.Load(s.ID(), to)
	if err != nil {
		t.Fatal(err)
	}
	evil := man["a.txt"] // an object that exists: "old\n"
	bad := []string{
		"../escape.txt", outside, ".git/config", ".git/hooks/pre-commit", ".agentls/chats/x.chat",
		".agentls.yaml", "sub/.GIT/config", "./../escape2.txt", "a.txt/../../escape3.txt",
	}
	known := map[string]string{"a.txt": checkpointDigest("new\n")}
	for _, k := range bad {
		man[k] = evil
		known[k] = ""
	}
	writeJSONFile(t, filepath.Join(store.Dir(), s.ID(), to+".json"), man)
	if err := store.UpdateKnown(s.ID(), known); err != nil {
		t.Fatal(err)
	}
	res, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: to, What: agentproto.RewindCode})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(res.Restored, " ") != "a.txt" {
		t.Fatalf("restored = %v", res.Restored)
	}
	if got := readWS(t, m, "a.txt"); got != "old\n" {
		t.Fatalf("a.txt = %q", got)
	}
	for _, k := range bad {
		if !slicesContains(res.Skipped, k) {
			t.Errorf("%s not skipped: %+v", k, res)
		}
	}
	for _, p := range []string{filepath.Join(filepath.Dir(root), "escape.txt"), filepath.Join(filepath.Dir(root), "escape2.txt"), filepath.Join(filepath.Dir(root), "escape3.txt"), outside,
		filepath.Join(root, ".git", "config"), filepath.Join(root, ".git", "hooks", "pre-commit"), filepath.Join(root, ".agentls.yaml"), filepath.Join(root, "sub")} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s was written", p)
		}
	}
}

func checkpointDigest(s string) string { return checkpoint.Digest([]byte(s)) }

func slicesContains(list []string, s string) bool { return slices.Contains(list, s) }

func writeJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRewindPastACompaction: a conversation rewind to before a compacted
// point drops the summary of the later messages, back to the last summary
// of earlier ones.
func TestRewindPastACompaction(t *testing.T) {
	t.Parallel()
	msgs := make([]llm.Message, 10)
	for i := range msgs {
		msgs[i] = llm.Message{Role: llm.RoleUser, Content: string(rune('a' + i))}
	}
	var v viewState
	v.apply(chatRecord{Record: recordCompaction, SummaryUpto: 3, Summary: "first three"})
	v.apply(chatRecord{Record: recordCompaction, SummaryUpto: 7, Summary: "first seven"})
	v.apply(chatRecord{Record: recordRewind, From: 5, To: 10})
	if v.summary != "first three" || v.summaryUpto != 3 {
		t.Fatalf("summary after the rewind = %q (upto %d)", v.summary, v.summaryUpto)
	}
	got, _, _ := v.view(msgs)
	var texts []string
	for _, m := range got {
		texts = append(texts, m.Content)
	}
	if strings.Join(texts, "") != "de" {
		t.Fatalf("view = %q, want d e", texts)
	}
	v.apply(chatRecord{Record: recordRewind, From: 1, To: 10})
	if v.summary != "" || v.summaryUpto != 0 {
		t.Fatalf("summary after rewinding before every compaction = %q", v.summary)
	}
}
