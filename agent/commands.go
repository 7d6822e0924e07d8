package agent

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/agentls/agentls/agent/slash"
	"github.com/agentls/agentls/agentproto"
)

// The slash-command registry: one for every face (LSP agent/prompt and
// agentls.prompt, ACP session/prompt). A prompt whose first non-blank
// character is "/" is a command, parsed on the server (agent/slash); "//"
// sends the rest as text with one slash. Built-in commands act as the user
// (commands_builtin.go); user commands (agent/slash, read by
// commands_user.go) are prompt templates and never act by themselves. See
// docs/commands.md.

// CommandNew is the built-in that starts a new session: a face whose
// client starts sessions itself (ACP) does not offer it.
const CommandNew = slash.New

// commandOutcome is what a command did: answer is shown to the user as the
// turn's text; prompt, when set, goes on as the user's message of a normal
// turn; newSession is the session a /new started.
type commandOutcome struct {
	answer     string
	prompt     string
	newSession string
}

// ListCommands lists the commands of a session, built-ins first, then the
// user commands by name, then the prompts of the session's running MCP
// servers (/mcp:<server>:<prompt>; "" for no session: the shared servers'
// only).
func (m *Manager) ListCommands(sessionID string) ([]agentproto.CommandInfo, error) {
	if sessionID != "" {
		if _, err := m.session(sessionID); err != nil {
			return nil, err
		}
	}
	out := make([]agentproto.CommandInfo, 0, len(builtinCommands)+8)
	for _, b := range builtinCommands {
		out = append(out, b.info)
	}
	for _, u := range m.userCommands() {
		out = append(out, u.Info())
	}
	return append(out, m.mcpPromptCommands(sessionID)...), nil // mcp_prompts.go
}

// runCommand handles a prompt that is a slash command. handled is false for
// an ordinary prompt, whose text (literal: "//" made "/") then goes on. A
// command whose outcome is a prompt (a user command, /init) also goes on,
// with that text as the user's message: it is never parsed as a command
// again.
func (s *Session) runCommand(ctx context.Context, req PromptRequest) (text string, res TurnResult, handled bool, err error) {
	typed, attached := req.typedAndAttached()
	cmd, literal, ok := slash.Parse(typed)
	if !ok {
		if attached != "" {
			literal = strings.TrimSpace(literal + "\n\n" + attached)
		}
		return literal, TurnResult{}, false, nil
	}
	// A command's arguments are what the user typed: the content a face
	// attached (an ACP embedded resource, a file's text) is never an
	// argument of a built-in that acts as the user. It follows a command's
	// prompt as context, like a plain prompt's.
	out, err := s.command(ctx, cmd, req.NoNewSession)
	if err != nil {
		return "", TurnResult{}, true, err
	}
	if out.prompt != "" {
		return strings.TrimSpace(out.prompt + "\n\n" + attached), TurnResult{}, false, nil
	}
	if attached != "" {
		out.answer += fmt.Sprintf("\n\n(What was attached was not used: /%s takes none.)", slash.QuoteName(cmd.Name))
	}
	res = TurnResult{StopReason: agentproto.StopEndTurn, Text: out.answer, SessionID: out.newSession}
	s.m.notes.Update(ctx, s.ID(), agentproto.MessageChunk{SessionUpdate: "agent_message_chunk", Content: agentproto.TextContent{Type: "text", Text: out.answer}})
	s.reportTurn(res)
	return "", res, true, nil
}

// command runs the command cmd names: a built-in, else a user command, else
// an error naming the known commands.
func (s *Session) command(ctx context.Context, cmd slash.Command, noNew bool) (commandOutcome, error) {
	if b, ok := builtinByName[cmd.Name]; ok && !(noNew && cmd.Name == CommandNew) {
		return b.run(ctx, s, cmd.Args)
	}
	if strings.HasPrefix(cmd.Name, mcpCommandPrefix) {
		return s.mcpPromptCommand(ctx, cmd) // mcp_prompts.go
	}
	if cmd.Name != CommandNew || !noNew {
		for _, u := range s.m.userCommands() {
			if u.Name() == cmd.Name {
				prompt, err := u.Expand(cmd.Args)
				if err != nil {
					return commandOutcome{}, commandErrorf("%v", err)
				}
				return commandOutcome{prompt: prompt}, nil
			}
		}
	}
	known := make([]string, 0, len(builtinCommands)+8)
	for _, b := range builtinCommands {
		if noNew && b.info.Name == CommandNew {
			continue
		}
		known = append(known, "/"+b.info.Name)
	}
	var user []string
	for _, u := range s.m.userCommands() {
		user = append(user, "/"+u.Name())
	}
	sort.Strings(user)
	known = append(known, user...)
	if noNew && cmd.Name == CommandNew {
		return commandOutcome{}, invalidf("/new is not offered here: start a new session from your client; the commands are %s", strings.Join(known, " "))
	}
	return commandOutcome{}, invalidf("unknown command /%s (nothing was sent to the model); the commands are %s. To send a message that starts with a slash, begin it with //",
		slash.QuoteName(cmd.Name), strings.Join(known, " "))
}

// typedAndAttached splits the prompt's text into what the user typed and
// what the face attached after it (Typed nil: all of it was typed).
func (req PromptRequest) typedAndAttached() (typed, attached string) {
	if req.Typed == nil {
		return req.Text, ""
	}
	typed = *req.Typed
	rest, ok := strings.CutPrefix(req.Text, typed)
	if !ok { // not the face's shape (the typed text, then the attachments)
		return req.Text, ""
	}
	return typed, strings.TrimSpace(rest)
}

// isCommand reports whether text is a slash command.
func isCommand(text string) bool {
	_, _, ok := slash.Parse(text)
	return ok
}

// commandErrorf is the error of a command the user can correct.
func commandErrorf(format string, args ...any) error {
	return invalidf("%s", fmt.Sprintf(format, args...))
}
