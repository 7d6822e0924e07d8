package agent

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// DefaultTitle is a new session's title until its first prompt names it.
const DefaultTitle = "New chat"

// maxTitleRunes caps a title made from a prompt.
const maxTitleRunes = 60

// TitleFromPrompt is a session title made from a prompt: its first line
// that is not blank, with control and formatting characters (bidi
// overrides, zero-width characters) dropped, runs of white space made one
// space, trimmed, and cut to 60 characters ("…" marks a cut). "" when the
// prompt has no such line.
func TitleFromPrompt(text string) string {
	for _, line := range strings.Split(text, "\n") {
		var b strings.Builder
		space := false
		for _, r := range line {
			switch {
			case r == utf8.RuneError || unicode.Is(unicode.Cf, r):
				continue
			case unicode.IsSpace(r) || unicode.IsControl(r):
				space = true
				continue
			}
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		}
		title := b.String()
		if title == "" {
			continue
		}
		if utf8.RuneCountInString(title) > maxTitleRunes {
			runes := []rune(title)
			title = strings.TrimRight(string(runes[:maxTitleRunes-1]), " ") + "…"
		}
		return title
	}
	return ""
}

// TitleFirstPrompt names a session after its first prompt: when its title
// is still DefaultTitle, it becomes TitleFromPrompt(text), saved in the
// session's metadata (agent/listSessions and session/list show it). ok
// tells whether the title changed; updatedAt is RFC 3339.
func (m *Manager) TitleFirstPrompt(id, text string) (title, updatedAt string, ok bool) {
	s, err := m.session(id)
	if err != nil {
		return "", "", false
	}
	title = TitleFromPrompt(text)
	if title == "" {
		return "", "", false
	}
	s.mu.Lock()
	if s.meta.Title != DefaultTitle && s.meta.Title != "" {
		s.mu.Unlock()
		return "", "", false
	}
	s.meta.Title = title
	save := s.saveMetaLocked()
	updatedAt = s.meta.UpdatedAt.UTC().Format(time.RFC3339)
	s.mu.Unlock()
	save()
	return title, updatedAt, true
}
