package acp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agent/instructions"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/host"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/questions"
	"github.com/agentls/agentls/workspace"
)

// editor is the client as one host's agent sees it (agent.Editor): updates
// become session/update notifications, changes fs/write_text_file requests
// (or disk writes), questions session/request_permission or elicitation.
type editor struct {
	a *Agent
	h *hosted
}

var (
	_ agent.Editor     = (*editor)(nil)
	_ agent.FileSource = (*editor)(nil)
)

// Update maps the agent's updates to ACP's.
func (e *editor) Update(ctx context.Context, sessionID string, update agent.Update) {
	switch u := update.(type) {
	case agentproto.MessageChunk:
		c := chunk(u.SessionUpdate, u.Content.Text) // agent_message_chunk, agent_thought_chunk
		c.MessageID = u.MessageID                   // the persisted message's id (rewind.md)
		if c.MessageID == "" {
			c.MessageID = e.a.msgIDs.of(sessionID, u.SessionUpdate)
		}
		e.send(ctx, sessionID, c)
	case agentproto.ToolCallStarted:
		e.a.msgIDs.end(sessionID) // the model's message ends with its tool calls
		meta := subagentMeta(u.ParentToolCallID, u.ChildSessionID)
		e.a.subCalls.note(sessionID, u.ToolCallID, meta)
		if u.Status == "in_progress" {
			e.send(ctx, sessionID, toolCallUpdate{SessionUpdate: "tool_call_update", ToolCallID: u.ToolCallID, Status: "in_progress", Meta: meta})
			return
		}
		e.send(ctx, sessionID, toolCallStart{SessionUpdate: "tool_call", ToolCallID: u.ToolCallID, Title: u.Title, Kind: u.Kind, Status: "pending", RawInput: shownInput(u.RawInput), Meta: meta})
	case agent.UpdateToolCallDone:
		done := e.toolCallDone(sessionID, u)
		done.Meta = subagentMeta(u.ParentToolCallID, u.ChildSessionID)
		e.a.subCalls.forget(sessionID, u.ToolCallID)
		e.send(ctx, sessionID, done)
	case agent.UpdateToolCallProgress:
		var content []toolContent
		for _, c := range u.Content {
			content = append(content, textContent(questions.Escape(c.Content.Text))) // a command's newest output line
		}
		e.send(ctx, sessionID, toolCallUpdate{SessionUpdate: "tool_call_update", ToolCallID: u.ToolCallID, Status: "in_progress", Content: content})
	case agentproto.PlanUpdate:
		e.sendPlan(ctx, sessionID, u) // plan_update.go
	case agentproto.ModeUpdate:
		e.send(ctx, sessionID, modeUpdate{SessionUpdate: "current_mode_update", CurrentModeID: string(u.CurrentModeID)})
		e.send(ctx, sessionID, configUpdate{SessionUpdate: "config_option_update", ConfigOptions: e.h.configOptions(sessionID, u.CurrentModeID)})
	case agent.UpdateQuestion:
		// question_pending: the turn ends (end_turn) with the question as
		// the agent's text; the next prompt answers it.
		e.send(ctx, sessionID, chunk("agent_message_chunk", questionText(u)))
	case agentproto.UsageUpdate:
		e.sendUsage(ctx, sessionID, u) // unstable.go
	case agentproto.InstructionsLoaded:
		// instructions_loaded: one line of the agent's text, once per
		// content (the agent sends it only then).
		e.send(ctx, sessionID, chunk("agent_message_chunk", instructions.Summary(u.Files, permission.CodeSpan)+"\n\n"))
	case agentproto.SessionInfoUpdate:
		e.send(ctx, sessionID, sessionInfoUpdate{SessionUpdate: "session_info_update", Title: u.Title, UpdatedAt: u.UpdatedAt})
	default:
		slog.Debug("acp: update without an ACP form", "type", fmt.Sprintf("%T", update))
	}
}

// toolCallDone is a tool call's last update: its status, the diffs and
// terminals of what it did, and its result (a failure's sentence as text;
// the whole result as rawOutput).
func (e *editor) toolCallDone(sessionID string, u agent.UpdateToolCallDone) toolCallUpdate {
	content := e.a.calls.take(sessionID, u.ToolCallID)
	if text := resultText(u); text != "" {
		content = append(content, textContent(text))
	}
	if len(u.Content) > 1 && u.Refusal == nil {
		// More text after the result: the new problems of the call's edits
		// (docs/language-intel.md), a text content block of their own.
		for _, c := range u.Content[1:] {
			if c.Content.Text != "" {
				content = append(content, textContent(questions.Escape(c.Content.Text)))
			}
		}
	}
	status := "completed"
	if u.Status == "failed" {
		status = "failed"
	}
	return toolCallUpdate{SessionUpdate: "tool_call_update", ToolCallID: u.ToolCallID, Status: status, Content: content, RawOutput: u.RawOutput}
}

// resultText is what a person reads of a tool result: a refusal's or
// failure's sentence, else the result; escaped (questions.Escape) as the
// question was, so a command it names, or a command's output, shows its
// control and bidi characters as `\u202E`, never reordering the line. The
// rawOutput keeps the result as it is.
func resultText(u agent.UpdateToolCallDone) string {
	if u.Refusal != nil {
		return questions.Escape(u.Refusal.Error())
	}
	for _, c := range u.Content {
		if c.Content.Text != "" {
			return questions.Escape(failureSentence(c.Content.Text))
		}
	}
	return ""
}

// ModeChanged needs nothing more: every mode change also comes as an
// agentproto.ModeUpdate (current_mode_update), and session/new and session/load
// answer with the mode.
func (e *editor) ModeChanged(context.Context, agentproto.ModeChangedParams) {}

// Notify: the plan-mode notify lines are logged by the agent; ACP has no
// log channel to the user.
func (e *editor) Notify(context.Context, string) {}

// ShowDocument: ACP cannot open a document; the plan's text travels with
// its approval request.
func (e *editor) ShowDocument(context.Context, string) error { return nil }

// StartProgress: ACP shows the tool calls themselves.
func (e *editor) StartProgress(context.Context, string) agent.Progress { return noProgress{} }

type noProgress struct{}

func (noProgress) Report(context.Context, string) {}
func (noProgress) End(context.Context)            {}

// Apply makes the agent's changes: text edits and new files through
// fs/write_text_file when the client offers it (they land in its buffers),
// everything else on disk. The guard's last check runs on each operation
// right before it leaves. Each edit's diff joins its tool call's content.
func (e *editor) Apply(ctx context.Context, req agent.ApplyRequest) error {
	callID := agent.ToolCallID(ctx)
	for _, c := range req.Changes {
		if e.viaClient(c) {
			// What is checked is what is sent: one path, c.Path.Abs.
			if err := req.Check(host.OpsOfChange(c)); err != nil {
				return err
			}
			if err := e.writeThroughClient(ctx, req.SessionID, c); err != nil {
				return err
			}
		} else if err := host.WriteChange(e.h.ws, c, req.Check); err != nil {
			return err
		}
		if callID != "" && (c.Kind == workspace.ChangeEdit && len(c.Edits) > 0 || c.Kind == workspace.ChangeCreate) {
			e.a.calls.addDiff(req.SessionID, callID, c)
		}
	}
	return nil
}

// viaClient tells whether a change goes through fs/write_text_file: a text
// edit or a new file, when the client writes files and the configuration
// (`edits`) does not say disk.
func (e *editor) viaClient(c workspace.Change) bool {
	if !e.clientWrites() || e.h.Config().Edits == "disk" { // client_fs.go
		return false
	}
	if !utf8.ValidString(c.After) {
		// JSON would carry its bytes that are not UTF-8 as U+FFFD: written
		// on disk, the edit changes only the bytes it replaces.
		return false
	}
	return c.Kind == workspace.ChangeCreate || c.Kind == workspace.ChangeEdit && len(c.Edits) > 0
}

// writeThroughClient sends the file's new text to the client. When the
// disk then lacks it (the client keeps it in an unsaved buffer), the
// workspace sees it through its overlay.
func (e *editor) writeThroughClient(ctx context.Context, sessionID string, c workspace.Change) error {
	if c.Kind == workspace.ChangeCreate {
		// The guard judged the missing folders as mkdirs; clients write
		// files, not folders.
		if _, err := os.Lstat(c.Path.Abs); err == nil {
			return fmt.Errorf("create %s: it already exists", c.Path.Rel)
		}
		if err := os.MkdirAll(filepath.Dir(c.Path.Abs), 0o755); err != nil {
			return fmt.Errorf("create %s: %w", c.Path.Rel, err)
		}
	}
	err := e.clientCall(ctx, "fs/write_text_file", func(ctx context.Context) error {
		// Through the wire, which does not decode the result: any result
		// is success (`{}`, `null`, and a client's `true` alike); only an
		// error response fails the write.
		return e.a.wire.call(ctx, "fs/write_text_file", sdk.WriteTextFileRequest{SessionId: sdk.SessionId(sessionID), Path: c.Path.Abs, Content: c.After}, nil)
	})
	if err != nil {
		return fmt.Errorf("the client did not write %s: %s", c.Path.Rel, clientError(err))
	}
	if data, err := os.ReadFile(c.Path.Abs); err == nil && string(data) == c.After {
		e.h.ws.Overlay().Close(c.Path.Abs) // the disk has it
		return nil
	}
	e.h.ws.Overlay().SetApplied(c.Path.Abs, c.After)
	return nil
}

// SyncFiles reads files through the client (fs/read_text_file) when it
// offers it, so that reads and edit computation see its unsaved buffers:
// text that differs from the disk goes to the overlay; on error, or when it
// equals the disk, the disk is the truth. Once the client left one read
// unanswered past its bound, the disk is the truth for the rest of the
// connection: a client that stopped answering would cost the bound per file.
func (e *editor) SyncFiles(ctx context.Context, sessionID string, paths []workspace.Path) {
	if !e.clientReads() { // client_fs.go
		return
	}
	for _, p := range paths {
		if e.a.readsUnanswered.Load() {
			e.h.ws.Overlay().Close(p.Abs) // as for a failed read: the disk is the truth
			continue
		}
		var content string
		err := e.clientCall(ctx, "fs/read_text_file", func(ctx context.Context) (err error) {
			content, err = e.readThroughClient(ctx, sessionID, p)
			return err
		})
		if errors.Is(err, errNoContent) {
			slog.Warn("acp: "+err.Error()+"; reading the disk", "path", p.Rel)
		}
		var unanswered *unansweredError
		if errors.As(err, &unanswered) && e.a.readsUnanswered.CompareAndSwap(false, true) {
			slog.Warn("acp: "+err.Error()+"; files are read from the disk for the rest of this connection (the client's unsaved buffers are not seen)", "path", p.Rel)
		}
		if err != nil {
			// An earlier read's text must not outlive this answer: an edit
			// computed on it would overwrite newer text on disk.
			e.h.ws.Overlay().Close(p.Abs)
			slog.Debug("acp: fs/read_text_file failed; reading the disk", "path", p.Rel, "err", err)
			continue
		}
		// The client's text of a file that is not UTF-8 has U+FFFD for
		// its odd bytes: the disk has them (edits then change only the
		// bytes they replace, on disk: viaClient).
		if data, err := os.ReadFile(p.Abs); err == nil && (string(data) == content || workspace.SameDecoded(data, content)) {
			e.h.ws.Overlay().Close(p.Abs)
			continue
		}
		e.h.ws.Overlay().Open(p.Abs, 0, content)
	}
}

// clientError is the message of a client's JSON-RPC error.
func clientError(err error) string {
	if re, ok := err.(*sdk.RequestError); ok {
		msg := re.Message
		if d, ok := re.Data.(map[string]any); ok {
			if s, ok := d["error"].(string); ok && s != "" {
				msg += ": " + s
			}
		}
		return msg
	}
	return err.Error()
}

// callContents holds the diffs and terminals of each running tool call
// until its last update carries them.
type callContents struct {
	mu    sync.Mutex
	items map[string][]toolContent
}

func callKey(sessionID, callID string) string { return sessionID + "\x00" + callID }

// addDiff keeps a change's diff (no oldText for a new file).
func (c *callContents) addDiff(sessionID, callID string, ch workspace.Change) {
	d := toolContent{Type: "diff", Path: ch.Path.Abs, NewText: &ch.After}
	if ch.Kind != workspace.ChangeCreate {
		d.OldText = &ch.Before
	}
	c.add(sessionID, callID, d)
}

// add keeps content for the tool call's last update.
func (c *callContents) add(sessionID, callID string, d toolContent) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.items == nil {
		c.items = map[string][]toolContent{}
	}
	k := callKey(sessionID, callID)
	c.items[k] = append(c.items[k], d)
}

func (c *callContents) take(sessionID, callID string) []toolContent {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := callKey(sessionID, callID)
	d := c.items[k]
	delete(c.items, k)
	return d
}

// failureSentence is the error sentence of a failed result's JSON, or the
// text as it is.
func failureSentence(text string) string {
	const prefix = `{"success":false,"error":`
	if !strings.HasPrefix(text, prefix) {
		return text
	}
	var r struct {
		Error string `json:"error"`
	}
	if err := jsonUnmarshal(text, &r); err == nil && r.Error != "" {
		return r.Error
	}
	return text
}

// ApprovalResolvedVia names, in the "awaiting approval" log line, how the
// ACP client decides a plan approval.
func (e *editor) ApprovalResolvedVia() string { return "session/request_permission" }

// subagentMeta is the _meta of a sub-agent's tool call, shown in its root's
// session: the task call it runs under and the sub-agent's session
// (docs/subagents.md); nil for the session's own calls.
func subagentMeta(parentToolCallID, childSessionID string) map[string]string {
	if parentToolCallID == "" {
		return nil
	}
	return map[string]string{"agentls/parentToolCallId": parentToolCallID, "agentls/childSessionId": childSessionID}
}
