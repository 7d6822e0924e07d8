package server_test

import (
	"testing"

	"github.com/agentls/agentls/server/internal/lsptest"
)

// startReal starts a plain client's server with the configured model.
func startReal(t *testing.T, env map[string]string, initOpts map[string]any) *lsptest.Env {
	return lsptest.Start(t, lsptest.Setup{Caps: lsptest.PlainCaps(), RealModel: true, Env: env, InitOpts: initOpts})
}
