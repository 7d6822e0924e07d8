package acp_test

import (
	"errors"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/internal/fakeopenai"
)

// TestLiteralKeyNameIsNoKey: CodeCompanion.nvim passes the text of an env
// entry as it is when the variable it names is unset, so agentls got
// OPENAI_API_KEY=OPENAI_API_KEY and sent "Bearer OPENAI_API_KEY". A key
// that is a variable's name is no key: a remote endpoint is refused with
// what happened and the fix (no request is made), a local one gets no key.
func TestLiteralKeyNameIsNoKey(t *testing.T) {
	t.Run("remote endpoint: refused", func(t *testing.T) {
		for _, key := range []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "MY_LLM_TOKEN"} {
			r := newRig(t, setup{realProvider: true,
				userConfig: "model:\n  base_url: https://models.example.invalid/v1\n  name: m\n",
				env:        map[string]string{"OPENAI_API_KEY": key}})
			sid := r.newSession().SessionId
			_, err := r.prompt(sid, "hello")
			var re *sdk.RequestError
			if !errors.As(err, &re) || !strings.Contains(re.Message, "the name of a variable rather than its value") ||
				!strings.Contains(re.Message, key) {
				t.Errorf("key %s: prompt error %v, want the literal-name refusal", key, err)
			}
		}
	})
	t.Run("local endpoint: no key sent", func(t *testing.T) {
		srv := fakeopenai.New(fakeopenai.Options{})
		defer srv.Close()
		client := &testClient{}
		r := newRig(t, setup{realProvider: true, client: client,
			userConfig: "model:\n  base_url: " + srv.URL + "\n  name: m\n",
			env:        map[string]string{"OPENAI_API_KEY": "OPENAI_API_KEY"}})
		sid := r.newSession().SessionId
		if stop := r.mustPrompt(sid, "hello"); stop != sdk.StopReasonEndTurn {
			t.Fatalf("stop %s", stop)
		}
		reqs := srv.Requests()
		if len(reqs) == 0 {
			t.Fatal("no request reached the local endpoint")
		}
		for _, q := range reqs {
			if strings.Contains(q.Authorization, "OPENAI_API_KEY") {
				t.Errorf("sent Authorization %q", q.Authorization)
			}
		}
	})
	t.Run("a real key is kept", func(t *testing.T) {
		srv := fakeopenai.New(fakeopenai.Options{})
		defer srv.Close()
		r := newRig(t, setup{realProvider: true,
			userConfig: "model:\n  base_url: " + srv.URL + "\n  name: m\n",
			env:        map[string]string{"OPENAI_API_KEY": "sk-test-KEY"}})
		sid := r.newSession().SessionId
		r.mustPrompt(sid, "hello")
		if reqs := srv.Requests(); len(reqs) == 0 || reqs[0].Authorization != "Bearer sk-test-KEY" {
			t.Errorf("requests %+v, want Bearer sk-test-KEY", reqs)
		}
	})
}
