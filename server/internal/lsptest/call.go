package lsptest

import (
	"github.com/agentls/agentls/agentproto"
)

// Call sends the request r of agentproto's table with params p and
// decodes its result as the table declares it: the error is the server's
// answer when it refuses.
func Call[P, R any](e *Env, r agentproto.Request[P, R], p P) (R, error) {
	var res R
	err := e.Editor.Call(e.Ctx, r.Name(), p, &res)
	return res, err
}

// MustCall is Call whose error fails the test.
func MustCall[P, R any](e *Env, r agentproto.Request[P, R], p P) R {
	e.T.Helper()
	res, err := Call(e, r, p)
	if err != nil {
		e.T.Fatalf("%s: %v", r.Name(), err)
	}
	return res
}
