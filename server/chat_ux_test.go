package server_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/fakeopenai"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// listedTitle is the session's title as agent/listSessions shows it.
func listedTitle(t *testing.T, h *lsptest.Env, sid string) string {
	t.Helper()
	for _, s := range lsptest.MustCall(h, agentproto.ListSessions, agentproto.ListSessionsParams{}).Sessions {
		if s.SessionID == sid {
			return s.Title
		}
	}
	t.Fatalf("session %s not listed", sid)
	return ""
}

// titleUpdate waits for session_info_update with this title.
func titleUpdate(h *lsptest.Env, title string) lsptest.Expectation {
	return lsptest.Update[agentproto.SessionInfoUpdate]("session_info_update", "title "+title, func(u agentproto.SessionInfoUpdate) bool {
		return u.Title == title && u.UpdatedAt != ""
	})
}

// TestSessionTitles: on the LSP face a new chat is named by its first
// prompt (session_info_update, agent/listSessions), agent/setTitle and the
// agentls.setTitle command rename it with control characters dropped and
// at most 60 characters, and a title with nothing visible is -32602 and
// changes nothing.
func TestSessionTitles(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{Script: "name: titles\nsteps:\n  - text: one\n  - text: two\n"})
	s := h.NewSession("plan")
	if s.Title != agent.DefaultTitle {
		t.Fatalf("new session title %q", s.Title)
	}
	wantStop(t, h.Prompt(s.SessionID, "\n  Fix the login\tbug\nand more"), "end_turn")
	h.Await(titleUpdate(h, "Fix the login bug"))
	if got := listedTitle(t, h, s.SessionID); got != "Fix the login bug" {
		t.Fatalf("listed title %q", got)
	}
	wantStop(t, h.Prompt(s.SessionID, "second prompt"), "end_turn")
	if got := listedTitle(t, h, s.SessionID); got != "Fix the login bug" {
		t.Fatalf("a second prompt renamed the session: %q", got)
	}

	renamed := lsptest.MustCall(h, agentproto.SetTitle, agentproto.SetTitleParams{SessionID: s.SessionID, Title: "Login\x1b[31m fix\u202e\r\nnow"})
	if renamed.Title != "Login [31m fix now" {
		t.Fatalf("setTitle title %q", renamed.Title)
	}
	h.Await(titleUpdate(h, renamed.Title))

	_, err := lsptest.Call(h, agentproto.SetTitle, agentproto.SetTitleParams{SessionID: s.SessionID, Title: " \x07\u200b "})
	wantInvalidParams(t, err, "title")
	_, err = lsptest.Call(h, agentproto.SetTitle, agentproto.SetTitleParams{SessionID: "no-such-session", Title: "x"})
	if lsptest.RPCCode(err) != -32602 {
		t.Fatalf("setTitle of an unknown session: %v", err)
	}
	if got := listedTitle(t, h, s.SessionID); got != renamed.Title {
		t.Fatalf("a refused title changed the session: %q", got)
	}

	long := strings.Repeat("abcdefghij ", 10)
	var viaCommand agentproto.Session
	if err := h.Editor.Call(h.Ctx, "workspace/executeCommand", map[string]any{
		"command": "agentls.setTitle", "arguments": []any{map[string]any{"title": long}},
	}, &viaCommand); err != nil {
		t.Fatal(err)
	}
	if n := utf8.RuneCountInString(viaCommand.Title); n != 60 || viaCommand.SessionID != s.SessionID || !strings.HasSuffix(viaCommand.Title, "…") {
		t.Fatalf("agentls.setTitle (current session) = %q (%d characters) on %s", viaCommand.Title, n, viaCommand.SessionID)
	}
	if got := listedTitle(t, h, s.SessionID); got != viaCommand.Title {
		t.Fatalf("listed %q after the command", got)
	}
}

// TestSessionModels: agent/listModels offers the configured models and the
// endpoint's; agent/setModel sets one for a session's mode, the session's
// next request uses it, another session keeps the configured one, and the
// choice survives a restart. A model not offered is -32602.
func TestSessionModels(t *testing.T) {
	t.Parallel()
	fake := fakeopenai.New(fakeopenai.Options{Models: []string{"test-model", "big-model", "small-model"}})
	defer fake.Close()
	dir := t.TempDir()
	h := startWithFake(t, dir, fake, map[string]any{"plan_name": "plan-model"})
	list := lsptest.MustCall(h, agentproto.ListModels, agentproto.ListModelsParams{})
	var ids []string
	for _, m := range list.Models {
		ids = append(ids, m.ID)
		if m.Provider != "openai" {
			t.Errorf("model %s provider %q", m.ID, m.Provider)
		}
	}
	if strings.Join(ids, ",") != "test-model,plan-model,big-model,small-model" {
		t.Fatalf("models %v", ids)
	}
	if list.Current != (agentproto.CurrentModels{Plan: "plan-model", Build: "test-model"}) {
		t.Fatalf("current %+v", list.Current)
	}

	s := h.NewSession("build")
	other := h.NewSession("build")
	got := lsptest.MustCall(h, agentproto.SetModel, agentproto.SetModelParams{SessionID: s.SessionID, Model: "big-model"})
	if got.Current != (agentproto.CurrentModels{Plan: "plan-model", Build: "big-model"}) {
		t.Fatalf("after setModel: %+v", got.Current)
	}
	for _, bad := range []agentproto.SetModelParams{
		{SessionID: s.SessionID, Model: "not-offered"},
		{SessionID: s.SessionID, Mode: "fast", Model: "big-model"},
		{SessionID: "no-such-session", Model: "big-model"},
	} {
		if _, err := lsptest.Call(h, agentproto.SetModel, bad); lsptest.RPCCode(err) != -32602 {
			t.Errorf("setModel %+v: %v, want -32602", bad, err)
		}
	}
	wantStop(t, h.Prompt(s.SessionID, "hello"), "end_turn")
	wantStop(t, h.Prompt(other.SessionID, "hello"), "end_turn")
	var models []string
	for _, r := range fake.Requests() {
		if r.Model != "" {
			models = append(models, r.Model)
		}
	}
	if strings.Join(models, ",") != "big-model,test-model" {
		t.Fatalf("requests used %v, want big-model for the session, test-model for the other", models)
	}
	if err := h.Editor.Close(); err != nil {
		t.Fatal(err)
	}

	h2 := startWithFake(t, dir, fake, map[string]any{"plan_name": "plan-model"})
	after := lsptest.MustCall(h2, agentproto.ListModels, agentproto.ListModelsParams{SessionID: s.SessionID})
	if after.Current.Build != "big-model" {
		t.Fatalf("after a restart the session's build model is %q", after.Current.Build)
	}
}

// TestListModelsWithoutEndpoint: an endpoint that lists nothing (here: it
// answers GET /models with an error) leaves the configured models.
func TestListModelsWithoutEndpoint(t *testing.T) {
	t.Parallel()
	fake := fakeopenai.New(fakeopenai.Options{})
	defer fake.Close()
	h := startWithFake(t, t.TempDir(), fake, nil)
	list := lsptest.MustCall(h, agentproto.ListModels, agentproto.ListModelsParams{})
	if len(list.Models) != 1 || list.Models[0].ID != "test-model" || list.Current.Plan != "test-model" {
		t.Fatalf("list %+v", list)
	}
}
