package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/internal/allowrule"
	"github.com/agentls/agentls/permission"
)

// runPermission is the permission request for a command: what, the folder
// it runs in, its network and the sandbox; "Always allow" only when a rule
// can match it (notSimple is nil).
func (s *Session) runPermission(ctx context.Context, command, dir string, notSimple error) permission.Request {
	if dir == "" {
		dir = s.m.ws.Root()
	}
	network, sandbox := s.m.commandPlace()
	req := permission.Request{
		SessionID: s.meta.ID, ToolCallID: ToolCallID(ctx), Requester: "run", Kind: permission.KindRun,
		What: command, Cwd: dir, Reach: string(guard.ReachProcess), Network: network, Sandbox: sandbox,
		Options: []permission.Option{
			permission.Opt(permission.RejectOnce, "Reject"),
			permission.Opt(permission.AllowOnce, "Run"),
			permission.Opt(permission.AllowAlways, fmt.Sprintf("Always allow %q", command)),
		},
	}
	if notSimple != nil {
		var ns *allowrule.NotSimpleError
		why := "the shell reads it as more than one simple command"
		if errors.As(notSimple, &ns) {
			why = ns.Why
		}
		req.Note = fmt.Sprintf("It is not a single simple command (%s), so it is asked each time: allow rules cannot match it.", why)
		req.Options = req.Options[:2]
	}
	return req
}
