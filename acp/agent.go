package acp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/llm/kit"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/host"
)

// Agent is agentls as an ACP agent: the SDK calls its methods for the
// client's requests. It implements the whole v0.13.0 acp.Agent interface
// and acp.AgentLoader.
type Agent struct {
	opts   Options
	getenv func(string) string
	wire   *wire
	conn   *sdk.AgentSideConnection
	calls  callContents
	// subCalls: the running sub-agents' calls' _meta (subagent_calls.go).
	subCalls subagentCalls
	// commands sends the slash commands (commands.go).
	commands *commandAnnouncer
	msgIDs   messageIDs
	costs    sessionCosts
	// prompts are the running session/prompt calls (prompt_supersede.go).
	prompts runningPrompts
	// readsUnanswered is set once the client left an fs/read_text_file
	// unanswered past its bound: files are read from the disk from then on
	// (editor.go SyncFiles), instead of each read waiting the bound again.
	readsUnanswered atomic.Bool

	// opening serialises opening hosts (a workspace is opened once).
	opening sync.Mutex

	mu   sync.Mutex
	caps sdk.ClientCapabilities
	// client is the client's clientInfo name at initialize ("" when it
	// gave none): question_shown.go knows which clients show a permission
	// request's content themselves.
	client   string
	hosts    []*hosted
	sessions map[string]*hosted // session id → the host that has it loaded
	closed   bool
}

var (
	_ sdk.Agent       = (*Agent)(nil)
	_ sdk.AgentLoader = (*Agent)(nil)
)

func newAgent(opts Options, w *wire) *Agent {
	a := &Agent{opts: opts, getenv: getenvOf(opts), wire: w, sessions: map[string]*hosted{}}
	a.commands = newCommandAnnouncer(a)
	return a
}

// close cancels every turn and waits for the hosts' background work.
func (a *Agent) close() {
	a.mu.Lock()
	a.closed = true
	hosts := append([]*hosted(nil), a.hosts...)
	a.mu.Unlock()
	for _, h := range hosts {
		h.Close()
	}
}

// clientCaps is what the client declared at initialize.
func (a *Agent) clientCaps() sdk.ClientCapabilities {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.caps
}

// Initialize answers with protocol version 1 and agentls's capabilities.
func (a *Agent) Initialize(_ context.Context, p sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	a.mu.Lock()
	a.caps = p.ClientCapabilities
	a.client = ""
	if p.ClientInfo != nil {
		a.client = p.ClientInfo.Name
	}
	a.mu.Unlock()
	client := "unknown client"
	if p.ClientInfo != nil {
		client = p.ClientInfo.Name + " " + p.ClientInfo.Version
	}
	slog.Info("acp: initialize", "client", client, "protocolVersion", p.ProtocolVersion,
		"fs.read", p.ClientCapabilities.Fs.ReadTextFile, "fs.write", p.ClientCapabilities.Fs.WriteTextFile,
		"terminal", p.ClientCapabilities.Terminal, "elicitation", elicitsForms(p.ClientCapabilities))
	version := a.opts.Version
	if version == "" {
		version = "dev"
	}
	return sdk.InitializeResponse{
		ProtocolVersion: sdk.ProtocolVersionNumber,
		AgentCapabilities: sdk.AgentCapabilities{
			LoadSession:        true,
			PromptCapabilities: sdk.PromptCapabilities{EmbeddedContext: true},
			// stdio and streamable HTTP servers, no SSE (mcp.go).
			McpCapabilities: sdk.McpCapabilities{Http: true, Sse: false},
			SessionCapabilities: sdk.SessionCapabilities{
				List: &sdk.SessionListCapabilities{}, Resume: &sdk.SessionResumeCapabilities{}, Close: &sdk.SessionCloseCapabilities{},
				AdditionalDirectories: &sdk.SessionAdditionalDirectoriesCapabilities{},
			},
		},
		AgentInfo:   &sdk.Implementation{Name: "agentls", Title: sdk.Ptr("agentls (plan-first coding agent)"), Version: version},
		AuthMethods: authMethods(p.ClientCapabilities), // auth.go
	}, nil
}

// NewSession starts a session in the workspace of cwd.
func (a *Agent) NewSession(ctx context.Context, p sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	h, err := a.hostForDirs(p.Cwd, p.AdditionalDirectories) // additional_dirs.go
	if err != nil {
		return sdk.NewSessionResponse{}, err
	}
	info, err := h.mgr.NewSession(ctx, "", "")
	if err != nil {
		return sdk.NewSessionResponse{}, toRequestError(err)
	}
	h.SetSessionMCPServers(info.SessionID, mcpSpecs(p.McpServers))
	a.track(info.SessionID, h)
	return sdk.NewSessionResponse{SessionId: sdk.SessionId(info.SessionID), Modes: modeState(info.Mode), ConfigOptions: h.configOptions(info.SessionID, info.Mode)}, nil
}

// LoadSession loads a session of cwd's workspace and replays its history
// as session/update notifications before it answers.
func (a *Agent) LoadSession(ctx context.Context, p sdk.LoadSessionRequest) (sdk.LoadSessionResponse, error) {
	h, info, msgs, err := a.load(ctx, p.Cwd, p.AdditionalDirectories, string(p.SessionId), p.McpServers)
	if err != nil {
		return sdk.LoadSessionResponse{}, err
	}
	h.ed.replay(ctx, info.SessionID, msgs)
	a.commands.announce(ctx, info.SessionID, true) // before the answer, with the replay (commands.go)
	return sdk.LoadSessionResponse{Modes: modeState(info.Mode), ConfigOptions: h.configOptions(info.SessionID, info.Mode)}, nil
}

// ResumeSession loads a session without replaying its history.
func (a *Agent) ResumeSession(ctx context.Context, p sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	h, info, _, err := a.load(ctx, p.Cwd, p.AdditionalDirectories, string(p.SessionId), p.McpServers)
	if err != nil {
		return sdk.ResumeSessionResponse{}, err
	}
	return sdk.ResumeSessionResponse{Modes: modeState(info.Mode), ConfigOptions: h.configOptions(info.SessionID, info.Mode)}, nil
}

// load loads session id of the workspace of cwd and the additional
// folders dirs (the session's complete list, as session/new took it: the
// same workspace, so the session reaches its folders again and this
// connection's own copy of it is the one loaded) for this connection.
func (a *Agent) load(ctx context.Context, cwd string, dirs []string, id string, mcp []sdk.McpServer) (*hosted, agentproto.Session, []llm.Message, error) {
	h, err := a.hostForDirs(cwd, dirs)
	if err != nil {
		return nil, agentproto.Session{}, nil, err
	}
	info, msgs, err := h.mgr.LoadSession(ctx, id)
	if err != nil {
		return nil, agentproto.Session{}, nil, toRequestError(err)
	}
	h.SetSessionMCPServers(info.SessionID, mcpSpecs(mcp))
	a.track(info.SessionID, h)
	return h, info, msgs, nil
}

// CloseSession cancels the session's turn, forgets it on this connection
// and releases its lock (it stays on disk, for session/load here or in
// another process).
func (a *Agent) CloseSession(ctx context.Context, p sdk.CloseSessionRequest) (sdk.CloseSessionResponse, error) {
	h, err := a.hostOf(string(p.SessionId))
	if err != nil {
		return sdk.CloseSessionResponse{}, err
	}
	if err := h.mgr.CloseSession(ctx, string(p.SessionId)); err != nil {
		return sdk.CloseSessionResponse{}, toRequestError(err)
	}
	h.DropSessionMCPServers(string(p.SessionId)) // its own servers, from session/new or session/load
	a.mu.Lock()
	delete(a.sessions, string(p.SessionId))
	a.mu.Unlock()
	a.wire.prompts.closed(string(p.SessionId)) // prompt_withdrawn.go
	return sdk.CloseSessionResponse{}, nil
}

// ListSessions lists the sessions of cwd's workspace (every served
// workspace's when cwd is not given, or the working directory's when none
// is served yet), newest first per workspace, each folder's once.
func (a *Agent) ListSessions(_ context.Context, p sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	var hosts []*hosted
	if p.Cwd != nil && *p.Cwd != "" {
		if _, err := os.Stat(*p.Cwd); errors.Is(err, fs.ErrNotExist) {
			// No folder, no sessions: a filter, not an error (acp-tck ACP-LIST-002).
			return sdk.ListSessionsResponse{Sessions: []sdk.SessionInfo{}}, nil
		}
		h, err := a.hostFor(*p.Cwd)
		if err != nil {
			return sdk.ListSessionsResponse{}, err
		}
		hosts = []*hosted{h}
	} else {
		a.mu.Lock()
		hosts = append(hosts, a.hosts...)
		a.mu.Unlock()
		if len(hosts) == 0 {
			// Nothing served yet: the project is where the client started
			// agentls (editors start agents in the project's folder).
			wd, err := os.Getwd()
			if err != nil {
				return sdk.ListSessionsResponse{}, invalidParams("session/list: give cwd (the working directory is unknown: %v)", err)
			}
			h, err := a.hostFor(wd)
			if err != nil {
				return sdk.ListSessionsResponse{}, err
			}
			hosts = []*hosted{h}
		}
	}
	out := sdk.ListSessionsResponse{Sessions: []sdk.SessionInfo{}}
	roots := map[string]bool{} // two served workspaces of one folder (other additional folders) share its sessions
	for _, h := range hosts {
		if roots[h.root] {
			continue
		}
		roots[h.root] = true
		infos, err := h.mgr.ListSessions()
		if err != nil {
			return sdk.ListSessionsResponse{}, toRequestError(err)
		}
		for _, info := range infos {
			out.Sessions = append(out.Sessions, sdk.SessionInfo{
				SessionId: sdk.SessionId(info.SessionID), Cwd: h.root, Title: sdk.Ptr(info.Title), UpdatedAt: sdk.Ptr(info.UpdatedAt),
			})
		}
	}
	return out, nil
}

// Prompt runs one turn.
func (a *Agent) Prompt(ctx context.Context, p sdk.PromptRequest) (sdk.PromptResponse, error) {
	h, err := a.hostOf(string(p.SessionId))
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	text, typed, resources, err := h.promptText(p.Prompt)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	ctx, stop := a.turnContext(ctx, h, string(p.SessionId)) // prompt_supersede.go: a turn awaiting approval is not superseded
	defer stop()
	if h.reviewTrust(ctx, string(p.SessionId)) { // trust.go: a workspace file waiting for trust is asked first
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	}
	if h.reviewMCPTrust(ctx, string(p.SessionId)) { // mcp_trust.go: so is a workspace MCP server file
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	}
	a.commands.announce(ctx, string(p.SessionId), false) // the user commands may have changed
	a.msgIDs.end(string(p.SessionId))
	defer a.msgIDs.end(string(p.SessionId))
	res, err := h.mgr.Prompt(ctx, agent.PromptRequest{SessionID: string(p.SessionId), Text: text, Typed: &typed, NoNewSession: true, Resources: resources})
	a.commands.announce(ctx, string(p.SessionId), false) // the session's MCP servers' prompts, once they started
	if err != nil {
		if ctx.Err() != nil {
			return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
		}
		return sdk.PromptResponse{}, toRequestError(err)
	}
	switch res.StopReason {
	case agentproto.StopEndTurn, agentproto.StopQuestionPending:
		// A pending question was sent as agent text; the next prompt answers it.
		return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, nil
	case agentproto.StopCancelled:
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	case agentproto.StopMaxTurnRequests:
		return sdk.PromptResponse{StopReason: sdk.StopReasonMaxTurnRequests}, nil
	case agentproto.StopRefusal:
		return sdk.PromptResponse{StopReason: sdk.StopReasonRefusal}, nil
	case agentproto.StopMaxTokens:
		return sdk.PromptResponse{StopReason: sdk.StopReasonMaxTokens}, nil
	}
	return sdk.PromptResponse{}, turnFailed(res.Err)
}

// turnFailed is the error of a turn that ended in err. Its message says
// what to do. The code is ACP's auth_required (-32000) only when the model
// could not be reached with the configured credentials — the endpoint
// refused the key (401, 403) or the model is not configured — so that a
// client offers authenticate (its model check names the fix); any other
// failure (the endpoint down, an approval timed out, a session file that
// cannot be written) is an internal error (-32603): a client that shows
// its login screen for -32000 (Zed) must not ask for a login when the
// endpoint answered 502.
func turnFailed(err error) *sdk.RequestError {
	msg := "the turn failed"
	if err != nil {
		msg = err.Error()
	}
	code := codeInternal
	var kerr *kit.Error
	var nc *host.NotConfiguredError
	if errors.As(err, &nc) || (errors.As(err, &kerr) && (kerr.StatusCode == http.StatusUnauthorized || kerr.StatusCode == http.StatusForbidden)) {
		code = codeAuthRequired
	}
	return &sdk.RequestError{Code: code, Message: msg, Data: map[string]any{"stopReason": "error"}}
}

// Cancel ends the session's turn and withdraws its pending permission
// requests and questions. (The SDK has cancelled the prompt's context.)
func (a *Agent) Cancel(_ context.Context, p sdk.CancelNotification) error {
	h, err := a.hostOf(string(p.SessionId))
	if err != nil {
		slog.Info("acp: session/cancel for a session not loaded here", "session", p.SessionId)
		return nil
	}
	return h.mgr.Cancel(string(p.SessionId))
}

// SetSessionMode is the user's switch (agent/setMode): plan→build approves
// the attached plan.
func (a *Agent) SetSessionMode(ctx context.Context, p sdk.SetSessionModeRequest) (sdk.SetSessionModeResponse, error) {
	h, err := a.hostOf(string(p.SessionId))
	if err != nil {
		return sdk.SetSessionModeResponse{}, err
	}
	if _, err := h.mgr.SetMode(ctx, string(p.SessionId), string(p.ModeId)); err != nil {
		return sdk.SetSessionModeResponse{}, toRequestError(err)
	}
	return sdk.SetSessionModeResponse{}, nil
}

// SetSessionConfigOption sets the mode, model or plan model option.
func (a *Agent) SetSessionConfigOption(ctx context.Context, p sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	if p.ValueId == nil {
		return sdk.SetSessionConfigOptionResponse{}, invalidParams("agentls's configuration options (mode, model, plan_model) take a value id, not a boolean")
	}
	sid := string(p.ValueId.SessionId)
	h, err := a.hostOf(sid)
	if err != nil {
		return sdk.SetSessionConfigOptionResponse{}, err
	}
	value := string(p.ValueId.Value)
	switch string(p.ValueId.ConfigId) {
	case optMode:
		if _, err := h.mgr.SetMode(ctx, sid, value); err != nil {
			return sdk.SetSessionConfigOptionResponse{}, toRequestError(err)
		}
	case optModel, optPlanModel:
		// The session's model per mode, as agent/setModel (agent/models.go).
		mode := "build"
		if string(p.ValueId.ConfigId) == optPlanModel {
			mode = "plan"
		}
		if _, err := h.mgr.SetModel(ctx, sid, mode, value); err != nil {
			return sdk.SetSessionConfigOptionResponse{}, toRequestError(err)
		}
	case optReview:
		if _, err := h.mgr.SetReview(sid, value); err != nil {
			return sdk.SetSessionConfigOptionResponse{}, toRequestError(err)
		}
	default:
		return sdk.SetSessionConfigOptionResponse{}, invalidParams("unknown config option %q; agentls has %s, %s, %s and %s", p.ValueId.ConfigId, optMode, optModel, optPlanModel, optReview)
	}
	info, err := h.mgr.SessionInfo(sid)
	if err != nil {
		return sdk.SetSessionConfigOptionResponse{}, toRequestError(err)
	}
	return sdk.SetSessionConfigOptionResponse{ConfigOptions: h.configOptions(info.SessionID, info.Mode)}, nil
}

// track records which host has a session loaded.
func (a *Agent) track(id string, h *hosted) {
	a.mu.Lock()
	a.sessions[id] = h
	a.mu.Unlock()
}

// hostOf finds the host of a session loaded on this connection.
func (a *Agent) hostOf(id string) (*hosted, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if h, ok := a.sessions[id]; ok {
		return h, nil
	}
	if id == "" {
		return nil, invalidParams("sessionId is required")
	}
	return nil, invalidParams("unknown session %q: create one with session/new, or load it with session/load", id)
}

// JSON-RPC error codes of this face.
const (
	codeInvalidParams = -32602
	codeInternal      = -32603
	// codeRequestCancelled is a request whose context was cancelled.
	codeRequestCancelled = -32800
)

// invalidParams is a -32602 error whose message a person can act on.
func invalidParams(format string, args ...any) *sdk.RequestError {
	return &sdk.RequestError{Code: codeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

// toRequestError maps the agent's errors to JSON-RPC errors, by the kind
// host.Classify gives them (as the LSP face does).
func toRequestError(err error) error {
	kind, msg := host.Classify(err)
	switch kind {
	case host.KindInvalidParams, host.KindUnknownSession:
		return &sdk.RequestError{Code: codeInvalidParams, Message: msg}
	case host.KindSessionBusy:
		return &sdk.RequestError{Code: codeInternal, Message: "session busy: its turn is still running; wait for it or send session/cancel"}
	case host.KindCancelled:
		return &sdk.RequestError{Code: codeRequestCancelled, Message: msg}
	}
	return &sdk.RequestError{Code: codeInternal, Message: strings.TrimSpace(msg)}
}
