package acp_test

import (
	"errors"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// TestAuthMethodsAndCheck: initialize offers the agent method always and
// the terminal method (`agentls login`) only to a client that runs
// terminal auth; authenticate checks the model, failing with the fix.
func TestAuthMethodsAndCheck(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name     string
		terminal bool
		want     []string
	}{
		{"no terminal auth", false, []string{"agentls-check"}},
		{"terminal auth", true, []string{"agentls-check", "agentls-login"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, setup{script: "steps:\n  - text: hi\n"})
			res, err := r.conn.Initialize(r.ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber,
				ClientCapabilities: sdk.ClientCapabilities{Auth: sdk.AuthCapabilities{Terminal: c.terminal}}})
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, m := range res.AuthMethods {
				switch {
				case m.Agent != nil:
					ids = append(ids, m.Agent.Id)
				case m.Terminal != nil:
					ids = append(ids, m.Terminal.Id)
					if strings.Join(m.Terminal.Args, " ") != "login" || m.Terminal.Type != "terminal" {
						t.Errorf("terminal method %+v", m.Terminal)
					}
				default:
					t.Errorf("unexpected method %+v", m)
				}
			}
			if strings.Join(ids, ",") != strings.Join(c.want, ",") {
				t.Errorf("auth methods %v, want %v", ids, c.want)
			}
			r.newSession()
			if _, err := r.conn.Authenticate(r.ctx, sdk.AuthenticateRequest{MethodId: "agentls-check"}); err != nil {
				t.Errorf("authenticate with a working model: %v", err)
			}
		})
	}

	// A model that cannot be built: authenticate fails with the fix.
	r := newRig(t, setup{})
	r.newSession()
	_, err := r.conn.Authenticate(r.ctx, sdk.AuthenticateRequest{MethodId: "agentls-check"})
	var re *sdk.RequestError
	if !errors.As(err, &re) || re.Code != -32000 || !strings.Contains(re.Message, "agentls login") || !strings.Contains(re.Message, "no scripted model") {
		t.Errorf("authenticate with a broken model: %v", err)
	}
	if _, err := r.conn.Authenticate(r.ctx, sdk.AuthenticateRequest{MethodId: "password"}); !errors.As(err, &re) || re.Code != -32602 {
		t.Errorf("unknown method: %v", err)
	}
}
