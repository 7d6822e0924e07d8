package acp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/internal/fakeopenai"
)

// TestReasoningGoesBackOverACP: over ACP too, a DeepSeek-like server that
// wants a reasoning model's thinking back (its documented rule, and the
// stricter one its V4 users met) answers every turn of a session that
// calls tools; the thinking shows as agent_thought_chunk.
func TestReasoningGoesBackOverACP(t *testing.T) {
	for _, rule := range []fakeopenai.ReasoningRule{fakeopenai.ReasoningBackInToolSpans, fakeopenai.ReasoningBackOnAll} {
		t.Run(string(rule), func(t *testing.T) {
			srv := fakeopenai.New(fakeopenai.Options{ReasoningBack: rule, Reply: func(r fakeopenai.Request) fakeopenai.Reply {
				if last := r.Messages[len(r.Messages)-1]; last.Role == "user" {
					return fakeopenai.Reply{Reasoning: "Read the notes first.",
						ToolCalls: []fakeopenai.ToolCall{fakeopenai.Call(fmt.Sprintf("call_%d", len(r.Messages)), "read", `{"path":"notes.txt"}`)}}
				}
				return fakeopenai.Reply{Text: "They say hello.", Reasoning: "The tool answered."}
			}})
			defer srv.Close()
			r := newRig(t, setup{realProvider: true, userConfig: "model:\n  base_url: " + srv.URL + "\n  name: deepseek-v4-flash\n  api_key_env: \"\"\n"})
			if err := os.WriteFile(filepath.Join(r.dir, "notes.txt"), []byte("hello\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			sid := r.newSession().SessionId
			for _, p := range []string{"what do the notes say?", "and now?", "once more"} {
				if stop, err := r.prompt(sid, p); err != nil || stop != sdk.StopReasonEndTurn {
					t.Fatalf("prompt %q = %s, %v", p, stop, err)
				}
			}
			refused := 0
			for _, q := range srv.Requests() {
				if q.Status != 200 {
					refused++
				}
			}
			if refused != 0 {
				t.Fatalf("%d requests refused for their reasoning", refused)
			}
			r.client.mu.Lock()
			defer r.client.mu.Unlock()
			thoughts := 0
			for _, u := range r.client.updates {
				if u.Update.AgentThoughtChunk != nil {
					thoughts++
				}
			}
			if thoughts != 6 {
				t.Fatalf("%d thought chunks, want 6 (two a turn)", thoughts)
			}
		})
	}
}

// TestLoadReplaysThinking: a session loaded after a restart replays the
// thinking shown before each answer (agent_thought_chunk), then the answer.
func TestLoadReplaysThinking(t *testing.T) {
	srv := fakeopenai.New(fakeopenai.Options{Reply: func(fakeopenai.Request) fakeopenai.Reply {
		return fakeopenai.Reply{Text: "Hi there.", Reasoning: "A greeting: greet back."}
	}})
	defer srv.Close()
	cfg := "model:\n  base_url: " + srv.URL + "\n  name: m\n  api_key_env: \"\"\n"
	first := newRig(t, setup{realProvider: true, userConfig: cfg})
	sid := first.newSession().SessionId
	first.mustPrompt(sid, "hello")
	first.stop()
	second := newRig(t, setup{dir: first.dir, realProvider: true, userConfig: cfg})
	if _, err := second.conn.LoadSession(second.ctx, sdk.LoadSessionRequest{SessionId: sid, Cwd: first.dir, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatalf("load: %v", err)
	}
	second.client.mu.Lock()
	defer second.client.mu.Unlock()
	var shown []string
	for _, u := range second.client.updates {
		switch {
		case u.Update.AgentThoughtChunk != nil && u.Update.AgentThoughtChunk.Content.Text != nil:
			shown = append(shown, "thought: "+u.Update.AgentThoughtChunk.Content.Text.Text)
		case u.Update.AgentMessageChunk != nil && u.Update.AgentMessageChunk.Content.Text != nil:
			shown = append(shown, "answer: "+u.Update.AgentMessageChunk.Content.Text.Text)
		}
	}
	if fmt.Sprintf("%q", shown) != `["thought: A greeting: greet back." "answer: Hi there."]` {
		t.Fatalf("replayed %q", shown)
	}
}
