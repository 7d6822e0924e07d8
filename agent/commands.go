package agent

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentls/agentls/agentproto"
)

// The slash-command registry: one for every face (LSP agent/prompt and
// agentls.prompt, ACP session/prompt). A prompt whose first non-blank
// character is "/" is a command, parsed here on the server; "//" sends the
// rest as text with one slash. Built-in commands act as the user
// (commands_builtin.go); user commands (commands_user.go) are prompt
// templates and never act by themselves. See docs/commands.md.

// CommandInfo is one command as agent/listCommands and ACP's
// available_commands_update show it.
// Hint says what the argument is ("<reason>"); "" for none. It is the
// protocol's type.
type CommandInfo = agentproto.CommandInfo

// CommandNew is the built-in that starts a new session: a face whose
// client starts sessions itself (ACP) does not offer it.
const CommandNew = "new"

// parsedCommand is a prompt read as a command.
type parsedCommand struct {
	name, args string
}

// maxCommandNameRunes caps the command name quoted back in an error.
const maxCommandNameRunes = 64

// parseCommand reads text as a slash command. literal is the text to send
// as an ordinary prompt when it is not one: text itself, or, for "//…",
// the text with its first slash removed. ok is false for an ordinary
// prompt.
func parseCommand(text string) (cmd parsedCommand, literal string, ok bool) {
	trimmed := strings.TrimLeftFunc(text, unicode.IsSpace)
	if !strings.HasPrefix(trimmed, "/") {
		return parsedCommand{}, text, false
	}
	if strings.HasPrefix(trimmed, "//") {
		return parsedCommand{}, trimmed[1:], false
	}
	rest := trimmed[1:]
	end := strings.IndexFunc(rest, unicode.IsSpace)
	if end < 0 {
		end = len(rest)
	}
	return parsedCommand{name: rest[:end], args: strings.TrimSpace(rest[end:])}, "", true
}

// CommandName is the name of the command text asks for ("" when text is
// an ordinary prompt, "//…" included).
func CommandName(text string) string {
	cmd, _, ok := parseCommand(text)
	if !ok {
		return ""
	}
	return cmd.name
}

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
func (m *Manager) ListCommands(sessionID string) ([]CommandInfo, error) {
	if sessionID != "" {
		if _, err := m.session(sessionID); err != nil {
			return nil, err
		}
	}
	out := make([]CommandInfo, 0, len(builtinCommands)+8)
	for _, b := range builtinCommands {
		out = append(out, b.info)
	}
	for _, u := range m.userCommands() {
		out = append(out, u.info())
	}
	return append(out, m.mcpPromptCommands(sessionID)...), nil // mcp_prompts.go
}

// runCommand handles a prompt that is a slash command. handled is false for
// an ordinary prompt, whose text (literal: "//" made "/") then goes on. A
// command whose outcome is a prompt (a user command, /init) also goes on,
// with that text as the user's message: it is never parsed as a command
// again.
func (s *Session) runCommand(ctx context.Context, req PromptRequest) (text string, res TurnResult, handled bool, err error) {
	cmd, literal, ok := parseCommand(req.Text)
	if !ok {
		return literal, TurnResult{}, false, nil
	}
	out, err := s.command(ctx, cmd, req.NoNewSession)
	if err != nil {
		return "", TurnResult{}, true, err
	}
	if out.prompt != "" {
		return out.prompt, TurnResult{}, false, nil
	}
	res = TurnResult{StopReason: StopEndTurn, Text: out.answer, SessionID: out.newSession}
	s.m.notes.Update(ctx, s.ID(), UpdateChunk{SessionUpdate: "agent_message_chunk", Content: TextContent{Type: "text", Text: out.answer}})
	s.reportTurn(res)
	return "", res, true, nil
}

// command runs the command cmd names: a built-in, else a user command, else
// an error naming the known commands.
func (s *Session) command(ctx context.Context, cmd parsedCommand, noNew bool) (commandOutcome, error) {
	if b, ok := builtinByName[cmd.name]; ok && !(noNew && cmd.name == CommandNew) {
		return b.run(ctx, s, cmd.args)
	}
	if strings.HasPrefix(cmd.name, mcpCommandPrefix) {
		return s.mcpPromptCommand(ctx, cmd) // mcp_prompts.go
	}
	if cmd.name != CommandNew || !noNew {
		for _, u := range s.m.userCommands() {
			if u.name == cmd.name {
				return u.expand(cmd.args)
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
		user = append(user, "/"+u.name)
	}
	sort.Strings(user)
	known = append(known, user...)
	if noNew && cmd.name == CommandNew {
		return commandOutcome{}, invalidf("/new is not offered here: start a new session from your client; the commands are %s", strings.Join(known, " "))
	}
	return commandOutcome{}, invalidf("unknown command /%s (nothing was sent to the model); the commands are %s. To send a message that starts with a slash, begin it with //",
		quoteName(cmd.name), strings.Join(known, " "))
}

// quoteName is a command name as an error quotes it: printable, at most
// maxCommandNameRunes runes.
func quoteName(name string) string {
	if !utf8.ValidString(name) {
		name = strings.ToValidUTF8(name, "\uFFFD")
	}
	name = strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return '\uFFFD'
	}, name)
	if utf8.RuneCountInString(name) > maxCommandNameRunes {
		name = string([]rune(name)[:maxCommandNameRunes]) + "…"
	}
	return name
}

// commandErrorf is the error of a command the user can correct.
func commandErrorf(format string, args ...any) error {
	return invalidf("%s", fmt.Sprintf(format, args...))
}
