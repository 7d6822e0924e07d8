package agent

import (
	"context"
	"fmt"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/permission"
)

// runPermission is the permission request for a command: what, the folder
// it runs in, its network and the sandbox; "Always allow" only when d says
// it may be offered (a simple command whose exact rule grants no more than
// it shows, in a workspace folder).
func (s *Session) runPermission(ctx context.Context, command, dir string, d runDecision) permission.Request {
	if dir == "" {
		dir = s.m.ws.Root()
	}
	network, sandbox := s.m.commandPlace(command)
	req := permission.Request{
		SessionID: s.faceID(), ToolCallID: ToolCallID(ctx), Requester: s.requester("run"), Kind: agentproto.PermissionRun,
		What: command, Cwd: dir, Reach: agentproto.ReachProcess, Network: network, Sandbox: sandbox,
		Options: []agentproto.PermissionOption{
			permission.Opt(agentproto.RejectOnce, "Reject"),
			permission.Opt(agentproto.AllowOnce, "Run"),
			permission.Opt(agentproto.AllowAlways, fmt.Sprintf("Always allow %q (this session)", command)),
		},
		Always: "this exact command line runs again without a question in a workspace folder for the rest of this session (its sub-agents' calls too); any other command is still asked",
	}
	switch {
	case d.NotSimple != "":
		req.Note = fmt.Sprintf("It is not a single simple command (%s), so it is asked each time: allow rules cannot match it.", d.NotSimple)
		req.Options = req.Options[:2]
	case !d.Offer:
		req.Note = fmt.Sprintf("It is asked each time (no \"Always allow\"): %s.", d.OfferWhy)
		req.Options = req.Options[:2]
	}
	return req
}
