package server

import (
	"context"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/host/agentapi"
)

// withShared adds to the LSP face's own handlers the face-neutral ones of
// host/agentapi whose rows name the LSP face (a command of the table runs
// its method's handler, commands.go): the LSP face only carries them (its
// decoding, its one agent, its error codes).
func withShared(own map[string]handlerFunc) map[string]handlerFunc {
	for _, h := range agentapi.Handlers() {
		m := h.Method()
		if m.Faces.Has(agentproto.LSP) {
			own[m.Name] = sharedHandler(h)
		}
	}
	return own
}

// sharedHandler serves h on the LSP face: a malformed payload is
// invalidPayload's -32602 (as decodeParams has it), the connection's
// agent, the agent's errors through rpcError.
func sharedHandler(h agentapi.Handler) handlerFunc {
	return func(s *Server, ctx context.Context, raw jsonrpc2.RawMessage) (any, error) {
		return h.Serve(ctx, agentapi.Face{Invalid: invalidPayload, At: s.agentAt, Error: rpcError}, raw)
	}
}

// agentAt is the agent of every session on the LSP face: the host's.
func (s *Server) agentAt(string) (agentapi.Services, error) {
	return s.manager(), nil
}
