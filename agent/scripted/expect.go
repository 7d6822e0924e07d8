package scripted

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentls/agentls/agent/llm"
)

// check reports every expectation req does not meet, joined by "; ".
func (e *Expect) check(req llm.Request) error {
	var fails []string
	for _, s := range e.SystemContains {
		if !strings.Contains(req.System, s) {
			fails = append(fails, fmt.Sprintf("expect system_contains %q: not in the system prompt %q", s, excerpt(req.System, 0)))
		}
	}
	for _, s := range e.SystemNotContains {
		if i := strings.Index(req.System, s); i >= 0 {
			fails = append(fails, fmt.Sprintf("expect system_not_contains %q: found in the system prompt at %q", s, excerpt(req.System, i)))
		}
	}
	if len(e.LastMessageContains) > 0 {
		if len(req.Messages) == 0 {
			fails = append(fails, "expect last_message_contains: the request has no messages")
		} else {
			last := req.Messages[len(req.Messages)-1]
			for _, s := range e.LastMessageContains {
				if !strings.Contains(last.Content, s) {
					fails = append(fails, fmt.Sprintf("expect last_message_contains %q: not in the last message (%s) %q", s, last.Role, excerpt(last.Content, 0)))
				}
			}
		}
	}
	ids := make([]string, 0, len(e.ToolResultContains))
	for id := range e.ToolResultContains {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		fails = append(fails, checkToolResult(req.Messages, id, e.ToolResultContains[id])...)
	}
	if len(fails) > 0 {
		return fmt.Errorf("%s", strings.Join(fails, "; "))
	}
	return nil
}

// checkToolResult checks the tool message answering call id.
func checkToolResult(msgs []llm.Message, id string, want []string) []string {
	var answered []string
	var result *llm.Message
	for i := range msgs {
		if msgs[i].Role != llm.RoleTool {
			continue
		}
		answered = append(answered, msgs[i].ToolCallID)
		if msgs[i].ToolCallID == id {
			result = &msgs[i]
		}
	}
	if result == nil {
		if len(answered) == 0 {
			return []string{fmt.Sprintf("expect tool_result_contains[%s]: the request has no tool messages", id)}
		}
		return []string{fmt.Sprintf("expect tool_result_contains[%s]: no tool message answers it (tool messages answer %s)", id, strings.Join(answered, ", "))}
	}
	var fails []string
	for _, s := range want {
		if !strings.Contains(result.Content, s) {
			fails = append(fails, fmt.Sprintf("expect tool_result_contains[%s] %q: not in the tool result %q", id, s, excerpt(result.Content, 0)))
		}
	}
	return fails
}

// excerpt returns about 80 characters of s starting a little before byte
// offset at, with whitespace collapsed and cuts marked by "…".
func excerpt(s string, at int) string {
	const before, width = 20, 80
	start := max(at-before, 0)
	for start > 0 && start < len(s) && !isRuneStart(s[start]) {
		start--
	}
	r := []rune(s[start:])
	cut := len(r) > width
	if cut {
		r = r[:width]
	}
	out := strings.Join(strings.Fields(string(r)), " ")
	if start > 0 {
		out = "…" + out
	}
	if cut {
		out += "…"
	}
	return out
}

// isRuneStart reports whether b begins a UTF-8 sequence.
func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
