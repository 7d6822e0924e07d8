package server

import (
	"fmt"
	"log/slog"
	"strings"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/workspace"
)

// A plain editor shows a window/showMessageRequest as one prompt (eglot: a
// completing-read) in a minibuffer of a few rows, scrolled to its input:
// only the question's last lines are read. The plain renderings below put
// what a person must read to decide last, just above the prompt, and keep
// the question short (a command's question to about five lines); what does
// not fit goes to a generated document the question names.

// plainRunText is a command's permission question for a plain editor:
// its folder, network and sandbox, a line naming the document that holds
// the rest (the grants, the note, who asks), and the command last.
func (s *Server) plainRunText(req agent.AskRequest, p permission.Request) string {
	e := p.Escaped()
	full := ""
	if len(req.Set.Questions) > 0 {
		full = req.Set.Questions[0].Question
	}
	var b strings.Builder
	more := ""
	// The question's paragraphs after the command and its place: grants,
	// note, "Asked by sub-agent …".
	if _, rest, ok := strings.Cut(full, "\nSandbox: "); ok {
		if _, m, ok := strings.Cut(rest, "\n\n"); ok {
			more = strings.TrimSpace(m)
		}
	}
	if more != "" {
		if doc := s.plainDocument(req.QuestionID, full); doc != "" {
			more = ""
			fmt.Fprintf(&b, "More (grants, notes) in %s\n", doc)
		} else {
			b.WriteString(more + "\n\n") // no document: every line, above what must stay on screen
		}
	}
	// Network and sandbox share the first line, which eglot prefixes with
	// "[eglot] Server reports (type=2): ": each line spared keeps the folder
	// on a 6-row minibuffer.
	fmt.Fprintf(&b, "Network: %s, Sandbox: %s\nFolder: %s\n", orUnknown(e.Network), orUnknown(e.Sandbox), e.Cwd)
	b.WriteString(p.RunQuestion())
	return b.String()
}

// plainDocument writes text, the whole question, to a generated document
// and returns its path ("" when none could be written: logged).
func (s *Server) plainDocument(id, text string) string {
	h := s.hosted()
	if h == nil {
		return ""
	}
	doc, err := permission.WriteDocument(h.StateDir(), "question-"+id, text+"\n")
	if err != nil {
		slog.Warn("question document", "err", err)
		return ""
	}
	return doc
}

// orUnknown is a place's value, "unknown" when the sandbox did not say.
func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// plainPermission is the permission a plain question renders with its own
// layout (a command's), or nil.
func plainPermission(req agent.AskRequest) *permission.Request {
	if req.Purpose != "permission" || req.Permission == nil || req.Permission.Kind != agentproto.PermissionRun {
		return nil
	}
	return req.Permission
}

// approvalText is the approval message for editors that cannot show the
// plan beside it (no window/showDocument in Neovim 0.7 or eglot 1.9), read
// from its end: what the answers do and the commands approving allows
// first, then the plan's numbered steps (trimmed), and last, just above the
// prompt, the question naming the plan's title and path.
func (s *Server) approvalText(rel, question string) string {
	var b strings.Builder
	plan := workspace.Plan{}
	if ws := s.workspace(); ws != nil {
		if wp, err := ws.Resolve(rel); err == nil {
			if text, err := ws.ReadFile(wp); err == nil {
				plan, _ = workspace.ParsePlan(text)
			}
		}
	}
	b.WriteString("Accept & Build: switch to BUILD mode and carry it out. Keep Planning: the agent revises it. " +
		"Dismissed: it waits; approve or reject later with the plan's code lenses, agentls.approvePlan / agentls.rejectPlan, or a new prompt (which asks for changes).")
	if _, rest, ok := strings.Cut(question, "\n\n"); ok {
		b.WriteString("\n\n" + rest)
	}
	b.WriteString("\n\n" + stepList(plan, approvalSteps, approvalStepWidth))
	fmt.Fprintf(&b, "\nApprove the plan %q (%s, steps above)?", planTitle(plan, rel), rel)
	return b.String()
}
