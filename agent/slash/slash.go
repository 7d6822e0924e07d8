// Package slash reads slash commands (docs/commands.md): a prompt whose
// first non-blank character is "/" is a command ("//" sends the rest as
// text with one slash), and the user's own commands are Markdown prompt
// templates read from the workspace's and the user's commands folders. The
// built-in commands act as the user through the session, so they live with
// it in agent (commands_builtin.go); this package knows no session.
package slash

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// New is the built-in that starts a new session: a face whose client
// starts sessions itself (ACP) does not offer it.
const New = "new"

// Command is a prompt read as a command: its name and its arguments
// (trimmed).
type Command struct {
	Name, Args string
}

// maxNameRunes caps the command name quoted back in an error.
const maxNameRunes = 64

// Parse reads text as a slash command. literal is the text to send as an
// ordinary prompt when it is not one: text itself, or, for "//…", the text
// with its first slash removed. ok is false for an ordinary prompt.
func Parse(text string) (cmd Command, literal string, ok bool) {
	trimmed := strings.TrimLeftFunc(text, unicode.IsSpace)
	if !strings.HasPrefix(trimmed, "/") {
		return Command{}, text, false
	}
	if strings.HasPrefix(trimmed, "//") {
		return Command{}, trimmed[1:], false
	}
	rest := trimmed[1:]
	end := strings.IndexFunc(rest, unicode.IsSpace)
	if end < 0 {
		end = len(rest)
	}
	return Command{Name: rest[:end], Args: strings.TrimSpace(rest[end:])}, "", true
}

// Name is the name of the command text asks for ("" when text is an
// ordinary prompt, "//…" included).
func Name(text string) string {
	cmd, _, ok := Parse(text)
	if !ok {
		return ""
	}
	return cmd.Name
}

// QuoteName is a command name as an error quotes it: printable, at most
// 64 runes.
func QuoteName(name string) string {
	if !utf8.ValidString(name) {
		name = strings.ToValidUTF8(name, "\uFFFD")
	}
	name = strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return '\uFFFD'
	}, name)
	if utf8.RuneCountInString(name) > maxNameRunes {
		name = string([]rune(name)[:maxNameRunes]) + "…"
	}
	return name
}
