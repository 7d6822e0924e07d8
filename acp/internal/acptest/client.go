package acptest

import (
	"context"
	"os"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/permission"
)

// Client is the ACP client of an Env: a simple editor that reads and
// writes the disk, answers permission requests with Setup.Permit, declines
// elicitations and has no terminals. What it is sent is in the Env's
// State, in wire order.
type Client struct {
	mu     sync.Mutex
	permit func(context.Context, sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome
	// readFor is how long the person takes over a permission request
	// before the answer goes back (Setup.AnswerAtOnce: 0).
	readFor time.Duration
}

// PersonReads is how long the test client's person takes over a
// permission request before answering it: past permission.HumanFloor, so
// that agentls takes the answer as a person's.
const PersonReads = permission.HumanFloor + 50*time.Millisecond

var _ sdk.Client = (*Client)(nil)

// Choose answers every permission request with the option of id.
func Choose(id string) func(context.Context, sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
	return func(context.Context, sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		return sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: sdk.PermissionOptionId(id)}}
	}
}

// SetPermit changes how the client answers permission requests.
func (c *Client) SetPermit(permit func(context.Context, sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.permit = permit
}

// SessionUpdate takes a session/update (the State has it from the wire).
func (c *Client) SessionUpdate(context.Context, sdk.SessionNotification) error { return nil }

// ReadTextFile reads the file from the disk.
func (c *Client) ReadTextFile(_ context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	b, err := os.ReadFile(p.Path)
	if err != nil {
		return sdk.ReadTextFileResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	return sdk.ReadTextFileResponse{Content: string(b)}, nil
}

// WriteTextFile writes the file to the disk.
func (c *Client) WriteTextFile(_ context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	if err := os.WriteFile(p.Path, []byte(p.Content), 0o644); err != nil {
		return sdk.WriteTextFileResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	return sdk.WriteTextFileResponse{}, nil
}

// RequestPermission answers with Setup.Permit (nil: cancelled).
func (c *Client) RequestPermission(ctx context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	c.mu.Lock()
	permit, readFor := c.permit, c.readFor
	c.mu.Unlock()
	return AnswerAsPerson(ctx, p, permit, readFor), nil
}

// AnswerAsPerson is a test client's answer to the permission request p:
// permit's outcome (nil permit: cancelled), sent no sooner than readFor
// after the request came (a person reads it first) unless ctx ends.
func AnswerAsPerson(ctx context.Context, p sdk.RequestPermissionRequest, permit func(context.Context, sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome, readFor time.Duration) sdk.RequestPermissionResponse {
	if permit == nil {
		return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Cancelled: &sdk.RequestPermissionOutcomeCancelled{}}}
	}
	read := time.NewTimer(readFor)
	defer read.Stop()
	outcome := permit(ctx, p)
	select { // the person reads the question before the answer goes back
	case <-read.C:
	case <-ctx.Done():
	}
	return sdk.RequestPermissionResponse{Outcome: outcome}
}

// UnstableCreateElicitation declines.
func (c *Client) UnstableCreateElicitation(context.Context, sdk.UnstableCreateElicitationRequest) (sdk.UnstableCreateElicitationResponse, error) {
	return sdk.UnstableCreateElicitationResponse{Decline: &sdk.UnstableCreateElicitationDecline{}}, nil
}

// CreateTerminal: the client has no terminals.
func (c *Client) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return sdk.CreateTerminalResponse{}, sdk.NewMethodNotFound("terminal/create")
}

// KillTerminal: the client has no terminals.
func (c *Client) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, sdk.NewMethodNotFound("terminal/kill")
}

// TerminalOutput: the client has no terminals.
func (c *Client) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, sdk.NewMethodNotFound("terminal/output")
}

// ReleaseTerminal: the client has no terminals.
func (c *Client) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, sdk.NewMethodNotFound("terminal/release")
}

// WaitForTerminalExit: the client has no terminals.
func (c *Client) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return sdk.WaitForTerminalExitResponse{}, sdk.NewMethodNotFound("terminal/wait_for_exit")
}
