package acp

import (
	"context"
	"log/slog"
	"os"

	sdk "github.com/coder/acp-go-sdk"
)

// The authentication methods agentls offers (docs/acp.md, "Authentication").
const (
	// authCheck is the agent method: authenticate checks the configured
	// model and key with one cheap request (agent/checkModel).
	authCheck = "agentls-check"
	// authLogin is the terminal method: the client runs `agentls login`.
	authLogin = "agentls-login"
)

// authFix is what to do when the model check fails.
const authFix = "Fix: run `agentls login` in a terminal (it writes the provider, model and a key file to $XDG_CONFIG_HOME/agentls/config.yaml), " +
	"or set model.provider, model.name and model.api_key_env (or model.api_key_file) there yourself."

// authMethods are the methods offered to a client with caps: the check
// always, `agentls login` when the client can run it in a terminal.
func authMethods(caps sdk.ClientCapabilities) []sdk.AuthMethod {
	methods := []sdk.AuthMethod{{Agent: &sdk.AuthMethodAgent{
		Id: authCheck, Name: "Check model settings",
		Description: sdk.Ptr("Checks the configured model and API key with one small request."),
	}}}
	if caps.Auth.Terminal {
		methods = append(methods, sdk.AuthMethod{Terminal: &sdk.AuthMethodTerminalInline{
			Type: "terminal", Id: authLogin, Name: "Log in to a model provider",
			Description: sdk.Ptr("Asks for the provider, base URL, model and API key, and saves them."),
			Args:        []string{"login"},
		}})
	}
	return methods
}

// Authenticate runs the model check (for either method: after `agentls
// login` the client authenticates again and the check proves the new
// settings). It fails with -32000 (auth_required) saying what is wrong and
// how to fix it.
func (a *Agent) Authenticate(ctx context.Context, p sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	if p.MethodId != authCheck && p.MethodId != authLogin {
		return sdk.AuthenticateResponse{}, invalidParams("unknown authentication method %q; agentls offers %s and %s", p.MethodId, authCheck, authLogin)
	}
	h, err := a.authHost()
	if err != nil {
		return sdk.AuthenticateResponse{}, err
	}
	res := h.mgr.CheckModel(ctx)
	if !res.OK {
		slog.Info("acp: authentication failed", "method", p.MethodId, "provider", res.Provider, "model", res.Model, "err", res.Message)
		return sdk.AuthenticateResponse{}, &sdk.RequestError{Code: codeAuthRequired,
			Message: "The model check failed (" + res.Provider + " " + res.Model + "): " + res.Message + ". " + authFix,
			Data:    map[string]any{"provider": res.Provider, "model": res.Model, "baseUrl": res.BaseURL}}
	}
	slog.Info("acp: authenticated", "method", p.MethodId, "provider", res.Provider, "model", res.Model)
	return sdk.AuthenticateResponse{}, nil
}

// codeAuthRequired is ACP's auth_required error.
const codeAuthRequired = -32000

// authHost is the workspace whose model settings are checked: the first
// one served, else the working directory's (where the client started
// agentls).
func (a *Agent) authHost() (*hosted, error) {
	a.mu.Lock()
	if len(a.hosts) > 0 {
		h := a.hosts[0]
		a.mu.Unlock()
		return h, nil
	}
	a.mu.Unlock()
	wd, err := os.Getwd()
	if err != nil {
		return nil, invalidParams("authenticate: the working directory is unknown: %v", err)
	}
	return a.hostFor(wd)
}
