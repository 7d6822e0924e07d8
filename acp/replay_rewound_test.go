package acp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/scripted"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/workspace"
)

// TestReplaySkipsRewoundMessages: a conversation rewind (made on the LSP
// face: Edit-and-resend, Regenerate, agent/rewind) leaves the rewound turn
// in the append-only .chat; session/load on ACP replays the conversation the
// model sees, without it.
func TestReplaySkipsRewoundMessages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ws")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scripted.Parse([]byte("steps:\n  - text: first answer\n  - text: second answer\n"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := agent.NewManager(agent.Options{Workspace: ws, Config: config.Default(), Provider: scripted.New(sc), Editor: nopEditor{}})
	if err != nil {
		t.Fatal(err)
	}
	info, err := m.NewSession(ctx, "plan", "")
	if err != nil {
		t.Fatal(err)
	}
	sid := info.SessionID
	for _, text := range []string{"keep this prompt", "rewind this prompt"} {
		if _, err := m.Prompt(ctx, agent.PromptRequest{SessionID: sid, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	_, msgs, err := m.LoadSession(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	second := ""
	for _, msg := range msgs {
		if msg.Role == llm.RoleUser && msg.Content == "rewind this prompt" {
			second = msg.ID
		}
	}
	if second == "" {
		t.Fatalf("no id on the second prompt: %+v", msgs)
	}
	if _, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: sid, ToMessageID: second, What: "conversation"}); err != nil {
		t.Fatalf("rewind: %v", err)
	}
	m.Close()

	r := newRig(t, setup{dir: dir})
	if _, err := r.conn.LoadSession(r.ctx, sdk.LoadSessionRequest{SessionId: sdk.SessionId(sid), Cwd: dir, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatalf("load: %v", err)
	}
	r.client.mu.Lock()
	updates := append([]sdk.SessionNotification(nil), r.client.updates...)
	r.client.mu.Unlock()
	var replayed []string
	for _, u := range updates {
		b, _ := json.Marshal(u.Update)
		var c struct {
			SessionUpdate string `json:"sessionUpdate"`
			Content       struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		if json.Unmarshal(b, &c) == nil && strings.HasSuffix(c.SessionUpdate, "_message_chunk") {
			replayed = append(replayed, c.Content.Text)
		}
	}
	all := strings.Join(replayed, " | ")
	if !strings.Contains(all, "keep this prompt") || !strings.Contains(all, "first answer") {
		t.Errorf("the kept turn is not replayed: %s", all)
	}
	if strings.Contains(all, "rewind this prompt") || strings.Contains(all, "second answer") {
		t.Errorf("the rewound turn is replayed: %s", all)
	}
}

// nopEditor is an editor that shows nothing (the LSP face's part here is
// only to have made the session); the turns apply and ask nothing.
type nopEditor struct {
	agent.Applier
	agent.Asker
}

func (nopEditor) Update(context.Context, string, agent.Update)              {}
func (nopEditor) ModeChanged(context.Context, agentproto.ModeChangedParams) {}
func (nopEditor) Notify(context.Context, string)                            {}
func (nopEditor) ShowDocument(context.Context, string) error                { return nil }
func (nopEditor) StartProgress(context.Context, string) agent.Progress      { return nopProgress{} }

type nopProgress struct{}

func (nopProgress) Report(context.Context, string) {}
func (nopProgress) End(context.Context)            {}
